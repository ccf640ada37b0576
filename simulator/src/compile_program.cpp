// Kernel IR -> Program: registers for every value, per-lane and per-workgroup variable
// layouts, and each block's schedule (topo.hpp) flattened into one instruction list with
// the structured-control markers of control_ops.hpp around nested blocks.
#include <algorithm>
#include <tuple>
#include <utility>

#include "control_ops.hpp"
#include "memory_access.hpp"
#include "program_builder.hpp"
#include "sprig/dsl/error.hpp"
#include "sprig/dsl/topo.hpp"

namespace sprig::sim {

namespace {

std::uint32_t round_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

const ir::Function& function_at(const ir::Kernel& k, std::uint32_t index) {
  return index == 0 ? k.entry : *k.functions.at(index - 1);
}

std::uint32_t function_count(const ir::Kernel& k) { return std::uint32_t(k.functions.size() + 1); }

}  // namespace

ProgramBuilder::ProgramBuilder(std::shared_ptr<const ir::Kernel> kernel)
    : kernel_(std::move(kernel)), program_(std::make_shared<Program>()) {
  program_->kernel = kernel_;
}

std::shared_ptr<const Program> ProgramBuilder::build() {
  layout_shared();
  layout_functions();
  for (std::uint32_t i = 0; i < function_count(*kernel_); ++i) compile_function(i, function_at(*kernel_, i));
  for (std::uint32_t pc : calls_) program_->code[pc].target = program_->functions.at(program_->code[pc].aux).entry_pc;
  bool safe = kernel_->prints.empty();
  for (const ir::Param& p : kernel_->params) safe = safe && !p.coherent;
  for (const Instr& in : program_->code)
    if (in.node && in.node->op == ir::Op::Atomic &&
        static_cast<const MemoryOp*>(in.data)->space != ir::Space::Workgroup)
      safe = false;
  program_->parallel_safe = safe;
  return program_;
}

void ProgramBuilder::layout_shared() {
  SharedLayout& s = program_->shared;
  for (const ir::SharedVariable& v : kernel_->shared) {
    ir::Layout l = ir::layout_of(v.type, ir::LayoutRule::Std430);
    s.bytes = round_up(s.bytes, std::max<std::uint32_t>(l.alignment, 16));
    s.offsets.push_back(s.bytes);
    s.sizes.push_back(l.size);
    s.bytes += l.size;
  }
}

// Parameters, results and variables of every function get fixed places: without
// recursion a function is active at most once per lane, so no frames are allocated at run
// time.
void ProgramBuilder::layout_functions() {
  std::uint32_t vars = 0;
  for (std::uint32_t i = 0; i < function_count(*kernel_); ++i) {
    const ir::Function& f = function_at(*kernel_, i);
    FunctionLayout fl;
    for (ir::TypeRef t : f.param_types) {
      fl.param_slots.push_back(program_->slot_count);
      fl.param_counts.push_back(flat_count(t));
      program_->slot_count += flat_count(t);
    }
    fl.result_count = f.result ? flat_count(f.result) : 0;
    fl.result_slot = program_->slot_count;
    program_->slot_count += fl.result_count;
    for (const ir::Variable& v : f.vars) {
      ir::Layout l = ir::layout_of(v.type, ir::LayoutRule::Std430);
      vars = round_up(vars, l.alignment);
      fl.var_offsets.push_back(vars);
      fl.var_sizes.push_back(l.size);
      vars += l.size;
    }
    program_->functions.push_back(std::move(fl));
  }
  program_->var_bytes = round_up(vars, 16);
}

void ProgramBuilder::compile_function(std::uint32_t index, const ir::Function& f) {
  function_ = index;
  program_->functions[index].entry_pc = std::uint32_t(program_->code.size());
  std::vector<Exit> exits = compile_block(*f.body, -1, 0);
  Instr end;
  end.weight = 0;
  if (index == 0) {
    end.run = control::kernel_end;
  } else {
    end.run = control::function_end;
    end.src[0] = program_->functions[index].result_slot;
    end.count = program_->functions[index].result_count;
  }
  patch(exits, emit(end));
}

std::vector<ProgramBuilder::Exit> ProgramBuilder::compile_block(const ir::Block& block, int loop_frame,
                                                                std::uint32_t depth) {
  std::vector<Exit> exits;
  Scope scope{loop_frame, depth, &exits};
  Scope* outer = std::exchange(scope_, &scope);
  for (ir::NodeRef n : ir::schedule(block)) compile_node(*n);
  scope_ = outer;
  return exits;
}

void ProgramBuilder::patch(const std::vector<Exit>& exits, std::uint32_t pc) {
  for (const Exit& e : exits) (e.skip_field ? program_->code[e.pc].skip : program_->code[e.pc].target) = pc;
}

std::uint32_t ProgramBuilder::emit(const Instr& in) {
  program_->code.push_back(in);
  return std::uint32_t(program_->code.size() - 1);
}

std::uint32_t ProgramBuilder::slot(const ir::Node* n) const {
  auto it = slots_.find(n);
  if (it == slots_.end())
    throw DeviceError(describe("simulator: operand %" + std::to_string(n->id) + " (" + std::string(ir::op_name(n->op)) +
                                   ") used before it is computed",
                               kernel_->name, n->loc));
  return it->second;
}

std::uint32_t ProgramBuilder::allocate(const ir::Node& n) {
  std::uint32_t first = program_->slot_count;
  program_->slot_count += ir::is_pointer_op(n.op) ? 1 : flat_count(n.type);
  slots_[&n] = first;
  return first;
}

const MemoryShape* ProgramBuilder::shape(ir::TypeRef t, ir::LayoutRule rule) {
  auto& s = shapes_[{t, rule}];
  if (!s) s = program_->keep(memory_shape(t, rule));
  return s;
}

void ProgramBuilder::unsupported(const ir::Node& n, const std::string& what) const {
  throw DeviceError(describe("the simulator does not support " + what + " (" + std::string(ir::op_name(n.op)) + ")",
                             kernel_->name, n.loc));
}

// Every op of a fixed operand count finds its operands in the instruction.
static_assert(ir::most_fixed_operands() <= std::tuple_size_v<decltype(Instr::src)>);

Instr ProgramBuilder::instr_for(const ir::Node& n) {
  Instr in;
  in.node = &n;
  for (std::size_t i = 0; i < n.operands.size() && i < in.src.size(); ++i) in.src[i] = slot(n.operands[i]);
  in.count = ir::is_pointer_op(n.op) ? 1 : flat_count(n.type);
  return in;
}

void ProgramBuilder::compile_node(const ir::Node& n) {
  if (std::string problem = ir::operand_problem(n); !problem.empty())
    throw DeviceError(describe("simulator: malformed IR: " + problem, kernel_->name, n.loc));
  // One case per row of ops.def: the function its `simulate` column names.
  switch (n.op) {
#define SPRIG_OP(Name, Kind, Operands, Print, emit, simulate) \
  case ir::Op::Name: compile_with(simulate, n); return;
#include "sprig/dsl/ops.def"
#undef SPRIG_OP
  }
  unsupported(n, "an unknown op");
}

void ProgramBuilder::compile_with(Lowering lower, const ir::Node& n) {
  Instr in = instr_for(n);
  in.dst = allocate(n);
  lower(*this, n, in);
  if (!in.run) unsupported(n, "this operation");
  emit(in);
}

// Values that need no instruction: constants and pointer roots are written once into the
// registers.
void compile_leaf(ProgramBuilder& b, const ir::Node& n) {
  std::uint32_t first = b.allocate(n);
  if (n.op == ir::Op::Constant) {
    if (n.imm.size() != flat_count(n.type)) b.unsupported(n, "a constant whose data does not match its type");
    for (std::size_t i = 0; i < n.imm.size(); ++i)
      b.program_->constants.emplace_back(first + std::uint32_t(i), n.imm[i]);
  } else {
    b.program_->constants.emplace_back(first, 0);  // a root pointer: byte offset 0 of its variable
  }
}

// A kernel's parameters are read from the launch; a callable's where the call put them.
void compile_param(ProgramBuilder& b, const ir::Node& n) {
  if (b.function_ == 0) b.compile_with(lower_invocation_value, n);
  else b.slots_[&n] = b.program_->functions[b.function_].param_slots.at(n.a);
}

void compile_if(ProgramBuilder& b, const ir::Node& n) {
  ProgramBuilder::Scope& scope = *b.scope_;
  Instr begin = b.instr_for(n);
  begin.run = control::if_begin;
  std::uint32_t begin_pc = b.emit(begin);
  auto then_exits = b.compile_block(*n.blocks.at(0), scope.loop_frame, scope.depth + 1);
  const ir::Block* else_block = n.blocks.size() > 1 ? n.blocks[1] : nullptr;
  std::vector<ProgramBuilder::Exit> to_end;
  if (else_block && !else_block->statements.empty()) {
    Instr middle;
    middle.run = control::if_else;
    middle.node = &n;
    middle.weight = 0;
    std::uint32_t else_pc = b.emit(middle);
    b.patch(then_exits, else_pc);
    b.program_->code[begin_pc].target = else_pc;
    to_end = b.compile_block(*else_block, scope.loop_frame, scope.depth + 1);
    to_end.push_back({else_pc, false});
  } else {
    to_end = std::move(then_exits);
    to_end.push_back({begin_pc, false});
  }
  Instr end;
  end.run = control::if_end;
  end.node = &n;
  end.weight = 0;
  std::uint32_t end_pc = b.emit(end);
  b.patch(to_end, end_pc);
  scope.exits->push_back({end_pc, true});
}

void compile_loop(ProgramBuilder& b, const ir::Node& n) {
  ProgramBuilder::Scope& scope = *b.scope_;
  const int frame = int(scope.depth);  // the loop's frame, pushed by LoopBegin
  const std::uint32_t inner = scope.depth + 1;
  const bool has_condition = !n.operands.empty();
  Instr begin;
  begin.run = control::loop_begin;
  begin.node = &n;
  begin.weight = 0;
  begin.aux = has_condition;
  b.emit(begin);
  std::vector<ProgramBuilder::Exit> to_end;  // jumps to LoopEnd
  std::uint32_t header_pc = std::uint32_t(b.program_->code.size());
  auto header_exits = b.compile_block(*n.blocks.at(0), frame, inner);
  if (has_condition) {
    Instr test;
    test.run = control::loop_test;
    test.node = &n;
    test.src[0] = b.slot(n.operands[0]);
    std::uint32_t test_pc = b.emit(test);
    b.patch(header_exits, test_pc);
    to_end.push_back({test_pc, false});
  } else {
    b.patch(header_exits, std::uint32_t(b.program_->code.size()));
  }
  auto body_exits = b.compile_block(*n.blocks.at(1), frame, inner);
  Instr cont;
  cont.run = control::loop_continue;
  cont.node = &n;
  cont.weight = 0;
  std::uint32_t continue_pc = b.emit(cont);
  b.patch(body_exits, continue_pc);
  to_end.push_back({continue_pc, false});
  auto continuing_exits = b.compile_block(*n.blocks.at(2), frame, inner);
  Instr back;
  back.run = control::loop_back;
  back.node = &n;
  back.target = header_pc;
  back.aux = has_condition;
  b.patch(continuing_exits, b.emit(back));
  Instr end;
  end.run = control::loop_end;
  end.node = &n;
  end.weight = 0;
  std::uint32_t end_pc = b.emit(end);
  b.patch(to_end, end_pc);
  scope.exits->push_back({end_pc, true});
}

void compile_jump(ProgramBuilder& b, const ir::Node& n) {
  ProgramBuilder::Scope& scope = *b.scope_;
  Instr in = b.instr_for(n);
  if (n.op == ir::Op::Return) {
    if (b.function_ == 0) {
      in.run = control::return_kernel;
    } else {
      in.run = control::return_callable;
      in.count = n.operands.empty() ? 0 : flat_count(n.operands[0]->type);
      in.aux = b.program_->functions[b.function_].result_slot;
    }
  } else {
    if (scope.loop_frame < 0) b.unsupported(n, "break/continue outside a loop");
    in.run = n.op == ir::Op::Break ? control::break_loop : control::continue_loop;
    in.aux = std::uint32_t(scope.loop_frame);
  }
  scope.exits->push_back({b.emit(in), false});
}

void compile_call(ProgramBuilder& b, const ir::Node& n) {
  std::uint32_t callee = std::uint32_t(n.a) + 1;
  if (callee >= function_count(*b.kernel_)) b.unsupported(n, "a call of an unknown function");
  const FunctionLayout& fl = b.program_->functions[callee];
  if (n.operands.size() != fl.param_slots.size()) b.unsupported(n, "a call with the wrong number of arguments");
  control::CallArguments args;
  for (std::size_t i = 0; i < n.operands.size(); ++i)
    args.copies.push_back({b.slot(n.operands[i]), fl.param_slots[i], fl.param_counts[i]});
  Instr in;
  in.node = &n;
  in.run = control::call;
  in.dst = b.allocate(n);
  in.aux = callee;  // replaced by the callee's entry pc once every function is compiled
  in.data = b.program_->keep(std::move(args));
  b.calls_.push_back(b.emit(in));
}

std::shared_ptr<const Program> compile_program(std::shared_ptr<const ir::Kernel> kernel) {
  return ProgramBuilder(std::move(kernel)).build();
}

}  // namespace sprig::sim
