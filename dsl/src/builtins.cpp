#include "sprig/dsl/builtins.hpp"

namespace sprig::detail {

ir::NodeRef builtin(ir::Builtin which, ir::TypeRef type, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  if (ir::needs_subgroups(which)) b.kernel().features.subgroup_basic = true;
  return b.pure(ir::Op::Builtin, type, {}, loc, std::uint64_t(which));
}

}  // namespace sprig::detail
