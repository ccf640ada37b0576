// A kernel's semantic hash: equal for kernels that compute the same thing, whatever their
// names and source locations. It keys the pipeline caches of the backends. Its companion,
// the debug hash, covers those names and locations: what debug info adds to a module.
#pragma once

#include <cstdint>

#include "sprig/dsl/ir.hpp"

namespace sprig::ir {

std::uint64_t semantic_hash(const Kernel& kernel);
// The kernel's, parameters', variables', functions' and values' names and every source
// location (file, line, column): with the semantic hash, a key for modules with debug info.
std::uint64_t debug_hash(const Kernel& kernel);

}  // namespace sprig::ir
