// Invocation ids and counts, as GLSL's gl_GlobalInvocationID & co.
#pragma once

#include <source_location>

#include "sprig/dsl/expr.hpp"

namespace sprig {

namespace detail {
ir::NodeRef builtin(ir::Builtin which, ir::TypeRef type, const SourceLoc& loc);
}

// One function per row of builtins.def (which documents each), e.g. global_id().
#define SPRIG_BUILTIN(Name, function, T, needs)                                       \
  inline Expr<T> function(std::source_location l = std::source_location::current()) { \
    return Expr<T>(detail::builtin(ir::Builtin::Name, device_type<T>(), l));          \
  }
#include "sprig/dsl/builtins.def"
#undef SPRIG_BUILTIN

// Invocations launched in each dimension: num_workgroups() * workgroup_size().
inline Expr<uvec3> global_count(std::source_location l = std::source_location::current()) {
  return num_workgroups(l) * workgroup_size(l);
}

}  // namespace sprig
