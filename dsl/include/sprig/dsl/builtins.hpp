// Invocation ids and counts, as GLSL's gl_GlobalInvocationID & co.
#pragma once

#include <source_location>

#include "sprig/dsl/expr.hpp"

namespace sprig {

namespace detail {
ir::NodeRef builtin(ir::Builtin which, ir::TypeRef type, const SourceLoc& loc);
}

#define SPRIG_BUILTIN(function, Kind, T)                                                  \
  inline Expr<T> function(std::source_location l = std::source_location::current()) {     \
    return Expr<T>(detail::builtin(ir::Builtin::Kind, device_type<T>(), l));              \
  }
// The invocation's index in the whole grid.
SPRIG_BUILTIN(global_id, GlobalInvocationId, uvec3)
// The invocation's index inside its workgroup.
SPRIG_BUILTIN(local_id, LocalInvocationId, uvec3)
SPRIG_BUILTIN(workgroup_id, WorkgroupId, uvec3)
SPRIG_BUILTIN(num_workgroups, NumWorkgroups, uvec3)
SPRIG_BUILTIN(workgroup_size, WorkgroupSize, uvec3)
// local_id flattened: x + y * size.x + z * size.x * size.y.
SPRIG_BUILTIN(local_index, LocalInvocationIndex, std::uint32_t)
SPRIG_BUILTIN(subgroup_size, SubgroupSize, std::uint32_t)
SPRIG_BUILTIN(subgroup_invocation_id, SubgroupInvocationId, std::uint32_t)
SPRIG_BUILTIN(subgroup_id, SubgroupId, std::uint32_t)
SPRIG_BUILTIN(num_subgroups, NumSubgroups, std::uint32_t)
#undef SPRIG_BUILTIN

// Invocations launched in each dimension: num_workgroups() * workgroup_size().
inline Expr<uvec3> global_count(std::source_location l = std::source_location::current()) {
  return num_workgroups(l) * workgroup_size(l);
}

}  // namespace sprig
