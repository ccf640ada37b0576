#include "features.hpp"

#include <iterator>

namespace sprig::fuzz {

namespace {

const char* op_name(Op op) {
  static const char* names[] = {
      "Add", "Sub", "Mul", "Div", "Rem", "BitAnd", "BitOr", "BitXor", "Shl", "Shr", "LogicalAnd", "LogicalOr",
      "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "Min", "Max", "RotateLeft", "RotateRight", "MulHi", "AddCarry", "FloorDiv", "Mod",
      "Neg", "BitNot", "LogicalNot", "PopCount", "CountLeadingZeros", "CountTrailingZeros", "BitReverse", "ByteSwap",
      "Abs", "Floor", "Ceil", "Trunc", "Round", "Fract",
      "Sqrt", "InverseSqrt", "Exp", "Exp2", "Log", "Log2", "Sin", "Cos", "Atan",
      "SubgroupAdd", "SubgroupMul", "SubgroupMin", "SubgroupMax", "SubgroupAnd", "SubgroupOr", "SubgroupXor",
      "SubgroupInclusiveAdd", "SubgroupExclusiveAdd", "SubgroupInclusiveXor", "SubgroupExclusiveMax",
      "SubgroupBroadcastFirst", "SubgroupBroadcastZero", "SubgroupShuffleXor", "SubgroupAll", "SubgroupAny",
      "SubgroupAllEqual", "SubgroupElect", "SubgroupBallotCount", "SubgroupBallotInclusiveCount",
      "AtomicAdd", "AtomicSub", "AtomicMin", "AtomicMax", "AtomicAnd", "AtomicOr", "AtomicXor"};
  static_assert(std::size(names) == std::size_t(Op::AtomicXor) + 1);
  return names[int(op)];
}

const char* expr_name(ExprKind k) {
  static const char* names[] = {"Constant", "Variable", "ArrayElement", "StructField", "LoopIndex", "Input",
                                "OutputRead", "Builtin", "Param", "Unary", "Binary", "Select", "BitfieldExtract",
                                "BitfieldInsert", "Cast", "Bitcast", "UnitFloat", "Extract", "Splat", "Call", "Construct"};
  static_assert(std::size(names) == std::size_t(ExprKind::Construct) + 1);
  return names[int(k)];
}

const char* stmt_name(StmtKind k) {
  static const char* names[] = {"Assign", "AssignElement", "AssignField", "Store", "If", "For", "While", "Loop",
                                "Break", "Continue", "Return", "Atomic", "SharedRound", "Subgroup"};
  return names[int(k)];
}

void collect(const Expr& e, std::set<std::string>& out) {
  out.insert(std::string("expr:") + expr_name(e.kind));
  out.insert("type:" + type_name(e.type));
  if (e.kind == ExprKind::Unary || e.kind == ExprKind::Binary) {
    std::string op = op_name(e.op);
    out.insert("op:" + op + ":" + (e.type.is_float() ? "float" : e.type.is_bool() ? "bool" : "int"));
    if (e.args[0].type.is_signed()) out.insert("op:" + op + ":signed");
    bool floor_division = e.op == Op::FloorDiv || e.op == Op::Mod;
    // Division corner cases chosen on purpose: by a zero or -1 constant (a zero of either
    // sign for floats; float / is approximate and never by a constant).
    if ((e.op == Op::Div || e.op == Op::Rem || floor_division) && e.args[1].kind == ExprKind::Constant) {
      std::uint64_t divisor = e.args[1].bits[0];
      bool zero = e.type.is_float() ? (divisor & 0x7FFFFFFFu) == 0 : divisor == 0;
      out.insert("op:" + op + ":by-constant-" + (zero ? "zero" : "other"));
    }
    if (floor_division) {
      out.insert("op:" + op + ":" + type_name(e.type));
      if (e.args[1].type != e.args[0].type) out.insert("op:" + op + ":broadcast");
      std::uint64_t min = e.type.is_64bit() ? 1ull << 63 : 0xFFFFFFFF80000000ull;
      if (e.type.is_signed() && e.args[0].kind == ExprKind::Constant && e.args[0].bits[0] == min &&
          e.args[1].kind == ExprKind::Constant && e.args[1].bits[0] == ~0ull)
        out.insert("op:" + op + ":min-by-minus-one");
    }
  }
  if (e.kind == ExprKind::Construct) {
    std::string shape;
    for (const Expr& part : e.args) shape += (shape.empty() ? "" : "+") + std::to_string(part.type.lanes);
    out.insert("construct:" + type_name(e.type));
    out.insert("construct:" + std::to_string(e.type.lanes) + "=" + (e.args.size() == 1 ? "splat" : shape));
  }
  if (e.kind == ExprKind::Cast || e.kind == ExprKind::Bitcast)
    out.insert(std::string(expr_name(e.kind)) + ":" + type_name(e.args[0].type) + "->" + type_name(e.type));
  for (const Expr& a : e.args) collect(a, out);
}

void collect(const std::vector<Stmt>& block, std::set<std::string>& out) {
  for (const Stmt& s : block) {
    out.insert(std::string("stmt:") + stmt_name(s.kind));
    if (s.kind == StmtKind::Subgroup || s.kind == StmtKind::Atomic)
      out.insert(std::string("op:") + op_name(s.op) + (s.kind == StmtKind::Atomic && s.target == 1 ? ":64" : ""));
    if (s.kind == StmtKind::Store) out.insert("store:" + std::to_string(s.target));
    for (const Expr& e : s.exprs) collect(e, out);
    collect(s.body, out);
    collect(s.else_body, out);
  }
}

}  // namespace

std::set<std::string> features(const Program& p) {
  std::set<std::string> out;
  for (const Expr& e : p.initial_values) collect(e, out);
  for (const Type& t : p.variables) out.insert("var:" + type_name(t));
  for (const Function& f : p.functions) {
    out.insert("callable");
    collect(f.body, out);
    collect(f.result, out);
  }
  collect(p.body, out);
  return out;
}

}  // namespace sprig::fuzz
