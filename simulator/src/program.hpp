// A kernel compiled for the interpreter: every function's blocks flattened into one list
// of instructions with structured-control markers (the SIMT mask stack's push/pop points)
// and register slots assigned to every value. Built once per kernel (program_cache.cpp)
// and shared by every launch and subgroup.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "scalar_value.hpp"
#include "sprig/dsl/ir.hpp"

namespace sprig::sim {

struct Context;
struct Instr;

// Executes one instruction for the active lanes of a subgroup.
using Handler = void (*)(Context& c, const Instr& in);

struct Instr {
  Handler run = nullptr;
  std::uint32_t dst = 0;               // first register slot of the result
  std::array<std::uint32_t, 4> src{};  // first register slot of each operand
  std::uint32_t count = 0;             // op-specific; usually the result's component count
  std::uint32_t target = 0;            // control: jump target
  std::uint32_t skip = 0;              // control: where to go when the restored mask is empty
  std::uint32_t aux = 0;               // op-specific
  std::uint8_t weight = 1;             // 1 if it counts as a lane-operation (IR operations do)
  std::uint64_t imm = 0;               // op-specific
  const void* data = nullptr;          // op-specific table owned by the Program
  const ir::Node* node = nullptr;      // source line and analysis site
};

// Per-function facts a call needs.
struct FunctionLayout {
  std::uint32_t entry_pc = 0;
  std::vector<std::uint32_t> param_slots;  // first slot of each parameter
  std::vector<std::uint32_t> param_counts;
  std::uint32_t result_slot = 0;
  std::uint32_t result_count = 0;
  std::vector<std::uint32_t> var_offsets;  // byte offset of each variable in a lane's variable area
  std::vector<std::uint32_t> var_sizes;
};

struct SharedLayout {
  std::vector<std::uint32_t> offsets;  // byte offset of each Kernel::shared variable
  std::vector<std::uint32_t> sizes;
  std::uint32_t bytes = 0;             // all of them, per workgroup
};

struct Program {
  std::shared_ptr<const ir::Kernel> kernel;  // keeps the nodes the instructions point at alive
  std::vector<Instr> code;                   // the kernel's entry point is pc 0
  std::uint32_t slot_count = 0;
  // Constants are written into every subgroup's registers once, when they are created:
  // no instruction ever overwrites their slots.
  std::vector<std::pair<std::uint32_t, Word>> constants;
  std::vector<FunctionLayout> functions;  // [0]: the kernel, then Kernel::functions
  std::uint32_t var_bytes = 0;            // one lane's variables, all functions (no recursion)
  SharedLayout shared;
  // Whether the workgroups of a launch may run on several threads (parallel_launch.hpp):
  // no buffer atomics, no coherent buffers (nothing that waits on other workgroups or hands
  // values between them in an order-dependent way) and no prints. Decided once, when built.
  bool parallel_safe = false;

  // Owns the op-specific tables that Instr::data points at.
  template <class T>
  const T* keep(T value) {
    auto p = std::make_shared<T>(std::move(value));
    tables_.push_back(p);
    return p.get();
  }

 private:
  std::vector<std::shared_ptr<const void>> tables_;
};

// Compiles `kernel`; throws DeviceError for IR the simulator does not understand.
std::shared_ptr<const Program> compile_program(std::shared_ptr<const ir::Kernel> kernel);

}  // namespace sprig::sim
