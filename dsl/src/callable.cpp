#include "sprig/dsl/callable.hpp"

namespace sprig::detail {

ir::NodeRef call(std::uint32_t function, ir::TypeRef result, std::vector<ir::NodeRef> args, const SourceLoc& loc) {
  return ir::Builder::current(loc).statement(ir::Op::Call, result, std::move(args), loc, function);
}

}  // namespace sprig::detail
