// A readable listing of a traced kernel: the first debugging tool. Nodes print in the
// order backends evaluate them (topo.hpp), one per line, with the user's source line.
#pragma once

#include <string>

#include "sprig/dsl/ir.hpp"

namespace sprig::ir {

std::string print(const Kernel& kernel, bool with_locations = true);

}  // namespace sprig::ir
