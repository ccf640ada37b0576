// The handlers of structured control flow: the SIMT stack's pushes, pops and mask
// updates (exec_control.cpp). compile_program.cpp places them around each block.
#pragma once

#include "context.hpp"

namespace sprig::sim::control {

// if_: IfBegin (src0 = condition; target = IfElse or IfEnd) ... [IfElse (target = IfEnd) ...] IfEnd (skip)
void if_begin(Context& c, const Instr& in);
void if_else(Context& c, const Instr& in);
void if_end(Context& c, const Instr& in);

// Loops: LoopBegin header [LoopTest (src0 = condition, target = LoopEnd)] body LoopContinue
// (target = LoopEnd) continuing LoopBack (target = header) LoopEnd (skip).
void loop_begin(Context& c, const Instr& in);
void loop_test(Context& c, const Instr& in);
void loop_continue(Context& c, const Instr& in);
void loop_back(Context& c, const Instr& in);
void loop_end(Context& c, const Instr& in);

// Jumps: aux = the loop's frame relative to the function's frame base; target = the end of
// the enclosing block.
void break_loop(Context& c, const Instr& in);
void continue_loop(Context& c, const Instr& in);
// Return from the kernel / from a callable (src0 = value, count = its components, aux =
// the callable's result slot).
void return_kernel(Context& c, const Instr& in);
void return_callable(Context& c, const Instr& in);

// Call: target = the callee's entry; data = CallArguments; dst = the call's result slot.
struct CallArguments {
  struct Copy {
    std::uint32_t from, to, count;
  };
  std::vector<Copy> copies;
};
void call(Context& c, const Instr& in);
// The end of a callable (src0 = its result slot, count = components) and of the kernel.
void function_end(Context& c, const Instr& in);
void kernel_end(Context& c, const Instr& in);

}  // namespace sprig::sim::control
