// A program as DSL source: the kernel (and callables) that trace_program traces, written
// out so that a reduced program can be pasted into a regression test.
#pragma once

#include <string>

#include "program.hpp"

namespace sprig::fuzz {

std::string print_program(const Program& program);
// The host inputs and launch of `program`, as comments.
std::string print_inputs(const Program& program);

}  // namespace sprig::fuzz
