// Kernel IR -> Program: registers for every value, per-lane and per-workgroup variable
// layouts, and each block's schedule (topo.hpp) flattened into one instruction list with
// the structured-control markers of control_ops.hpp around nested blocks.
#include <algorithm>

#include "control_ops.hpp"
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
  for (ir::NodeRef n : ir::schedule(block)) compile_node(*n, scope);
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

Instr ProgramBuilder::instr_for(const ir::Node& n) {
  Instr in;
  in.node = &n;
  for (std::size_t i = 0; i < n.operands.size() && i < in.src.size(); ++i) in.src[i] = slot(n.operands[i]);
  in.count = ir::is_pointer_op(n.op) ? 1 : flat_count(n.type);
  return in;
}

// Values that need no instruction: constants and pointer roots are written once into the
// registers; a callable's parameters are read where the call put them.
void ProgramBuilder::compile_leaf(const ir::Node& n) {
  if (n.op == ir::Op::Param) {
    slots_[&n] = program_->functions[function_].param_slots.at(n.a);
    return;
  }
  std::uint32_t first = allocate(n);
  if (n.op == ir::Op::Constant) {
    if (n.imm.size() != flat_count(n.type)) unsupported(n, "a constant whose data does not match its type");
    for (std::size_t i = 0; i < n.imm.size(); ++i) program_->constants.emplace_back(first + std::uint32_t(i), n.imm[i]);
  } else {
    program_->constants.emplace_back(first, 0);  // a root pointer: byte offset 0 of its variable
  }
}

void ProgramBuilder::compile_node(const ir::Node& n, Scope& scope) {
  using O = ir::Op;
  switch (n.op) {
    case O::Constant:
    case O::VarRoot:
    case O::SharedRoot:
    case O::BufferRoot: compile_leaf(n); return;
    case O::Param:
      if (function_ != 0) {
        compile_leaf(n);
        return;
      }
      break;
    case O::If: compile_if(n, scope); return;
    case O::Loop: compile_loop(n, scope); return;
    case O::Break:
    case O::Continue:
    case O::Return: compile_jump(n, scope); return;
    case O::Call: compile_call(n); return;
    default: break;
  }
  Instr in = instr_for(n);
  in.dst = allocate(n);
  switch (n.op) {
    case O::Param:
    case O::Builtin:
    case O::ArrayLength: lower_invocation_value(*this, n, in); break;
    case O::Access:
    case O::DeclareVar:
    case O::Load:
    case O::Store: lower_memory(*this, n, in); break;
    case O::Convert:
    case O::Bitcast: lower_conversion(*this, n, in); break;
    case O::Math: lower_math(*this, n, in); break;
    case O::Construct:
    case O::Extract:
    case O::Insert:
    case O::DynamicExtract:
    case O::Shuffle: lower_composite(*this, n, in); break;
    case O::Atomic: lower_atomic(*this, n, in); break;
    case O::Subgroup: lower_subgroup(*this, n, in); break;
    case O::Barrier: lower_barrier(*this, n, in); break;
    default: lower_arithmetic(*this, n, in); break;
  }
  if (!in.run) unsupported(n, "this operation");
  emit(in);
}

void ProgramBuilder::compile_if(const ir::Node& n, Scope& scope) {
  Instr begin = instr_for(n);
  begin.run = control::if_begin;
  std::uint32_t begin_pc = emit(begin);
  std::vector<Exit> then_exits = compile_block(*n.blocks.at(0), scope.loop_frame, scope.depth + 1);
  const ir::Block* else_block = n.blocks.size() > 1 ? n.blocks[1] : nullptr;
  std::vector<Exit> to_end;
  if (else_block && !else_block->statements.empty()) {
    Instr middle;
    middle.run = control::if_else;
    middle.node = &n;
    middle.weight = 0;
    std::uint32_t else_pc = emit(middle);
    patch(then_exits, else_pc);
    program_->code[begin_pc].target = else_pc;
    to_end = compile_block(*else_block, scope.loop_frame, scope.depth + 1);
    to_end.push_back({else_pc, false});
  } else {
    to_end = std::move(then_exits);
    to_end.push_back({begin_pc, false});
  }
  Instr end;
  end.run = control::if_end;
  end.node = &n;
  end.weight = 0;
  std::uint32_t end_pc = emit(end);
  patch(to_end, end_pc);
  scope.exits->push_back({end_pc, true});
}

void ProgramBuilder::compile_loop(const ir::Node& n, Scope& scope) {
  const int frame = int(scope.depth);  // the loop's frame, pushed by LoopBegin
  const std::uint32_t inner = scope.depth + 1;
  const bool has_condition = !n.operands.empty();
  Instr begin;
  begin.run = control::loop_begin;
  begin.node = &n;
  begin.weight = 0;
  begin.aux = has_condition;
  emit(begin);
  std::vector<Exit> to_end;  // jumps to LoopEnd
  std::uint32_t header_pc = std::uint32_t(program_->code.size());
  std::vector<Exit> header_exits = compile_block(*n.blocks.at(0), frame, inner);
  if (has_condition) {
    Instr test;
    test.run = control::loop_test;
    test.node = &n;
    test.src[0] = slot(n.operands[0]);
    std::uint32_t test_pc = emit(test);
    patch(header_exits, test_pc);
    to_end.push_back({test_pc, false});
  } else {
    patch(header_exits, std::uint32_t(program_->code.size()));
  }
  std::vector<Exit> body_exits = compile_block(*n.blocks.at(1), frame, inner);
  Instr cont;
  cont.run = control::loop_continue;
  cont.node = &n;
  cont.weight = 0;
  std::uint32_t continue_pc = emit(cont);
  patch(body_exits, continue_pc);
  to_end.push_back({continue_pc, false});
  std::vector<Exit> continuing_exits = compile_block(*n.blocks.at(2), frame, inner);
  Instr back;
  back.run = control::loop_back;
  back.node = &n;
  back.target = header_pc;
  back.aux = has_condition;
  patch(continuing_exits, emit(back));
  Instr end;
  end.run = control::loop_end;
  end.node = &n;
  end.weight = 0;
  std::uint32_t end_pc = emit(end);
  patch(to_end, end_pc);
  scope.exits->push_back({end_pc, true});
}

void ProgramBuilder::compile_jump(const ir::Node& n, Scope& scope) {
  Instr in = instr_for(n);
  if (n.op == ir::Op::Return) {
    if (function_ == 0) {
      in.run = control::return_kernel;
    } else {
      in.run = control::return_callable;
      in.count = n.operands.empty() ? 0 : flat_count(n.operands[0]->type);
      in.aux = program_->functions[function_].result_slot;
    }
  } else {
    if (scope.loop_frame < 0) unsupported(n, "break/continue outside a loop");
    in.run = n.op == ir::Op::Break ? control::break_loop : control::continue_loop;
    in.aux = std::uint32_t(scope.loop_frame);
  }
  scope.exits->push_back({emit(in), false});
}

void ProgramBuilder::compile_call(const ir::Node& n) {
  std::uint32_t callee = std::uint32_t(n.a) + 1;
  if (callee >= function_count(*kernel_)) unsupported(n, "a call of an unknown function");
  const FunctionLayout& fl = program_->functions[callee];
  if (n.operands.size() != fl.param_slots.size()) unsupported(n, "a call with the wrong number of arguments");
  control::CallArguments args;
  for (std::size_t i = 0; i < n.operands.size(); ++i)
    args.copies.push_back({slot(n.operands[i]), fl.param_slots[i], fl.param_counts[i]});
  Instr in;
  in.node = &n;
  in.run = control::call;
  in.dst = allocate(n);
  in.aux = callee;  // replaced by the callee's entry pc once every function is compiled
  in.data = program_->keep(std::move(args));
  calls_.push_back(emit(in));
}

std::shared_ptr<const Program> compile_program(std::shared_ptr<const ir::Kernel> kernel) {
  return ProgramBuilder(std::move(kernel)).build();
}

}  // namespace sprig::sim
