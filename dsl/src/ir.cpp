// The sub-tables' names and traits, and the operand check, all read off the .def rows.
#include "sprig/dsl/ir.hpp"

#include <algorithm>

namespace sprig::ir {

namespace {

enum class Requirement { Core, Subgroups };
struct BuiltinRow {
  std::string_view name;
  Requirement needs;
};
constexpr BuiltinRow builtins[] = {
#define SPRIG_BUILTIN(Name, function, T, needs) {#Name, Requirement::needs},
#include "sprig/dsl/builtins.def"
#undef SPRIG_BUILTIN
};

struct MathRow {
  std::string_view name;
  std::uint8_t operands;
};
constexpr MathRow math_functions[] = {
#define SPRIG_MATH_FN(Name, Operands) {#Name, Operands},
#include "sprig/dsl/math_functions.def"
#undef SPRIG_MATH_FN
};

struct AtomicRow {
  std::string_view name;
  std::uint8_t values;
};
constexpr AtomicRow atomics[] = {
#define SPRIG_ATOMIC_OP(Name, Values, access) {#Name, Values},
#include "sprig/dsl/atomic_ops.def"
#undef SPRIG_ATOMIC_OP
};

struct SubgroupRow {
  std::string_view name;
  std::uint8_t operands;
  SubgroupFeature feature;
};
constexpr SubgroupRow subgroup_ops[] = {
#define SPRIG_SUBGROUP_OP(Name, Operands, Feature) {#Name, Operands, SubgroupFeature::Feature},
#include "sprig/dsl/subgroup_ops.def"
#undef SPRIG_SUBGROUP_OP
};

// The row of sub-table value `a`, or null when `a` is out of range (malformed IR).
template <class Row, std::size_t N>
const Row* row(const Row (&table)[N], std::uint64_t a) {
  return a < N ? &table[a] : nullptr;
}

std::string operands(std::size_t n) { return std::to_string(n) + (n == 1 ? " operand" : " operands"); }

// Names of values outside the enums (malformed IR) are "?".
template <class Row, std::size_t N>
std::string_view name_in(const Row (&table)[N], std::uint64_t a) {
  const Row* r = row(table, a);
  return r ? r->name : "?";
}

}  // namespace

std::string_view builtin_name(Builtin b) { return name_in(builtins, std::size_t(b)); }
std::string_view math_function_name(MathFn f) { return name_in(math_functions, std::size_t(f)); }
std::string_view atomic_op_name(AtomicOp op) { return name_in(atomics, std::size_t(op)); }
std::string_view subgroup_op_name(SubgroupOp op) { return name_in(subgroup_ops, std::size_t(op)); }
bool needs_subgroups(Builtin b) { return builtins[std::size_t(b)].needs == Requirement::Subgroups; }
SubgroupFeature subgroup_feature(SubgroupOp op) { return subgroup_ops[std::size_t(op)].feature; }

std::string operand_problem(const Node& n) {
  if (!is_known(n.op)) return "unknown op " + std::to_string(std::size_t(n.op));
  OperandCount want = op_info(n.op).operands;
  std::string_view row_name;  // the sub-table row's, for the message
  auto exactly = [&](std::string_view name, std::size_t count) {
    row_name = name;
    want = {std::uint8_t(count), std::uint8_t(count)};
  };
  switch (n.op) {
    case Op::Builtin:
      if (!row(builtins, n.a)) return "unknown builtin " + std::to_string(n.a);
      break;
    case Op::Math:
      if (const MathRow* r = row(math_functions, n.a)) exactly(r->name, r->operands);
      else return "unknown math function " + std::to_string(n.a);
      break;
    case Op::Atomic:  // the pointer, then the values
      if (const AtomicRow* r = row(atomics, n.a)) exactly(r->name, 1 + r->values);
      else return "unknown atomic operation " + std::to_string(n.a);
      break;
    case Op::Subgroup:
      if (const SubgroupRow* r = row(subgroup_ops, n.a)) exactly(r->name, r->operands);
      else return "unknown subgroup operation " + std::to_string(n.a);
      break;
    default: break;
  }
  const std::size_t got = n.operands.size();
  if (got >= want.min && got <= want.max) return "";
  std::string what(op_name(n.op));
  if (!row_name.empty()) what += " " + std::string(row_name);
  const std::string tail = ", not " + std::to_string(got);
  if (want.min == want.max) return what + " takes " + operands(want.min) + tail;
  if (want.min == 0) return what + " takes at most " + operands(want.max) + tail;
  return what + " takes " + std::to_string(want.min) + " to " + operands(want.max) + tail;
}

std::uint32_t print_binding(const Kernel& k) {
  std::uint32_t binding = 0;
  for (const Param& p : k.params)
    if (p.kind != ParamKind::Scalar) binding = std::max(binding, p.binding + 1);
  return binding;
}

}  // namespace sprig::ir
