// A kernel's semantic hash: equal for kernels that compute the same thing, whatever their
// names and source locations. It keys the pipeline caches of the backends.
#pragma once

#include <cstdint>

#include "sprig/dsl/ir.hpp"

namespace sprig::ir {

std::uint64_t semantic_hash(const Kernel& kernel);

}  // namespace sprig::ir
