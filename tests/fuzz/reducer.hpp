// Shrinks a failing program while it keeps failing: deletes statements, replaces compound
// statements by their bodies, expressions by constants or by their own operands, drops
// unused callables and variables and shrinks the launch. Greedy, to a fixed point or an attempt budget.
#pragma once

#include <cstddef>
#include <functional>

#include "program.hpp"

namespace sprig::fuzz {

// True if the candidate still shows the failure being reduced.
using StillFails = std::function<bool(const Program&)>;

struct ReduceStats {
  std::size_t attempts = 0;
  std::size_t accepted = 0;
};

Program reduce(Program program, const StillFails& still_fails, std::size_t max_attempts = 3000,
               ReduceStats* stats = nullptr);

// Statements plus expression nodes: the size the reducer minimises.
std::size_t program_size(const Program& program);

}  // namespace sprig::fuzz
