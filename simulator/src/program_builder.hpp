// Compilation of a kernel into a Program: what the op families' lowering functions see.
// compile_program.cpp lays out registers, variables and structured control flow; each
// exec_*.cpp file lowers the nodes it executes (picks the handler and its operands).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "program.hpp"
#include "value_shape.hpp"

namespace sprig::sim {

class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::shared_ptr<const ir::Kernel> kernel);
  std::shared_ptr<const Program> build();

  // ---- for the lowering functions
  const ir::Kernel& kernel() const { return *kernel_; }
  Program& program() { return *program_; }
  // First register slot of an operand (already compiled: operands come first in the schedule).
  std::uint32_t slot(const ir::Node* n) const;
  // Index of the function being compiled: 0 for the kernel, 1 + i for Kernel::functions[i].
  std::uint32_t function_index() const { return function_; }
  const FunctionLayout& layout(std::uint32_t function) const { return program_->functions.at(function); }
  // The memory shape of `t` under `rule`, shared by all instructions that need it.
  const MemoryShape* shape(ir::TypeRef t, ir::LayoutRule rule);
  [[noreturn]] void unsupported(const ir::Node& n, const std::string& what) const;

 private:
  struct Exit {
    std::uint32_t pc;
    bool skip_field;  // patch Instr::skip rather than Instr::target
  };
  struct Scope {
    int loop_frame = -1;     // the innermost loop's frame, relative to the function's frame base
    std::uint32_t depth = 0; // frames of this function open around the block
    std::vector<Exit>* exits = nullptr;  // jumps to the enclosing block's end
  };

  void layout_functions();
  void layout_shared();
  void compile_function(std::uint32_t index, const ir::Function& f);
  // Compiles `block`; returns the jumps to its end, for the caller to patch.
  std::vector<Exit> compile_block(const ir::Block& block, int loop_frame, std::uint32_t depth);
  void patch(const std::vector<Exit>& exits, std::uint32_t pc);
  // Compiles one node with the function its row in ops.def names (`simulate`): a lowering
  // fills in the node's one instruction, a structural step does everything itself.
  void compile_node(const ir::Node& n);
  using Lowering = void (*)(ProgramBuilder&, const ir::Node&, Instr&);
  using Structure = void (*)(ProgramBuilder&, const ir::Node&);
  void compile_with(Lowering lower, const ir::Node& n);
  void compile_with(Structure compile, const ir::Node& n) { compile(*this, n); }
  std::uint32_t allocate(const ir::Node& n);
  std::uint32_t emit(const Instr& in);
  Instr instr_for(const ir::Node& n);

  friend void compile_leaf(ProgramBuilder& b, const ir::Node& n);
  friend void compile_param(ProgramBuilder& b, const ir::Node& n);
  friend void compile_call(ProgramBuilder& b, const ir::Node& n);
  friend void compile_if(ProgramBuilder& b, const ir::Node& n);
  friend void compile_loop(ProgramBuilder& b, const ir::Node& n);
  friend void compile_jump(ProgramBuilder& b, const ir::Node& n);

  std::shared_ptr<const ir::Kernel> kernel_;
  std::shared_ptr<Program> program_;
  std::uint32_t function_ = 0;
  std::unordered_map<const ir::Node*, std::uint32_t> slots_;
  std::map<std::pair<ir::TypeRef, ir::LayoutRule>, const MemoryShape*> shapes_;
  std::vector<std::uint32_t> calls_;  // pcs of Call instructions (targets patched at the end)
  Scope* scope_ = nullptr;            // the block being compiled
};

// The simulator's column of ops.def names one of these for every op.
//
// Lowerings, by op family (exec_*.cpp). Each fills in `in` (handler, operands, tables) for
// node `n`; `in.dst`, `in.src` (the first four operands' slots), `in.count` (the result's
// component count) and `in.node` are already set.
void lower_arithmetic(ProgramBuilder& b, const ir::Node& n, Instr& in);
void lower_conversion(ProgramBuilder& b, const ir::Node& n, Instr& in);
void lower_math(ProgramBuilder& b, const ir::Node& n, Instr& in);
void lower_composite(ProgramBuilder& b, const ir::Node& n, Instr& in);
void lower_invocation_value(ProgramBuilder& b, const ir::Node& n, Instr& in);  // Builtin, kernel Param, ArrayLength
void lower_memory(ProgramBuilder& b, const ir::Node& n, Instr& in);            // Access, DeclareVar, Load, Store
void lower_atomic(ProgramBuilder& b, const ir::Node& n, Instr& in);
void lower_subgroup(ProgramBuilder& b, const ir::Node& n, Instr& in);
void lower_barrier(ProgramBuilder& b, const ir::Node& n, Instr& in);
void lower_print(ProgramBuilder& b, const ir::Node& n, Instr& in);

// Structural steps (compile_program.cpp): nodes that are not one instruction.
void compile_leaf(ProgramBuilder& b, const ir::Node& n);   // constants, pointer roots: registers set once
void compile_param(ProgramBuilder& b, const ir::Node& n);  // a callable's: where the call put it
void compile_call(ProgramBuilder& b, const ir::Node& n);
void compile_if(ProgramBuilder& b, const ir::Node& n);     // the SIMT markers around its blocks
void compile_loop(ProgramBuilder& b, const ir::Node& n);
void compile_jump(ProgramBuilder& b, const ir::Node& n);   // break, continue, return

}  // namespace sprig::sim
