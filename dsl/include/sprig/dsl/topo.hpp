// Topological order of one block: what a backend evaluates, in order. Statements keep
// their program order; each pure node of the block comes right before its first use
// (including uses inside nested blocks of a later If/Loop); pure nodes nobody uses are
// dropped. Nodes of enclosing blocks are not listed (the enclosing block schedules them).
#pragma once

#include <vector>

#include "sprig/dsl/ir.hpp"

namespace sprig::ir {

std::vector<NodeRef> schedule(const Block& block);

}  // namespace sprig::ir
