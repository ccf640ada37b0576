#include "features.hpp"

namespace sprig::fuzz {

namespace {

const char* op_name(Op op) {
  static const char* names[] = {
      "Add", "Sub", "Mul", "Div", "Rem", "BitAnd", "BitOr", "BitXor", "Shl", "Shr", "LogicalAnd", "LogicalOr",
      "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "Min", "Max", "RotateLeft", "RotateRight", "MulHi", "AddCarry",
      "Neg", "BitNot", "LogicalNot", "PopCount", "CountLeadingZeros", "CountTrailingZeros", "BitReverse", "ByteSwap",
      "Abs", "Floor", "Ceil", "Trunc", "Round", "Fract",
      "Sqrt", "InverseSqrt", "Exp", "Exp2", "Log", "Log2", "Sin", "Cos", "Atan",
      "SubgroupAdd", "SubgroupMul", "SubgroupMin", "SubgroupMax", "SubgroupAnd", "SubgroupOr", "SubgroupXor",
      "SubgroupInclusiveAdd", "SubgroupExclusiveAdd", "SubgroupInclusiveXor", "SubgroupExclusiveMax",
      "SubgroupBroadcastFirst", "SubgroupBroadcastZero", "SubgroupShuffleXor", "SubgroupAll", "SubgroupAny",
      "SubgroupAllEqual", "SubgroupElect", "SubgroupBallotCount", "SubgroupBallotInclusiveCount",
      "AtomicAdd", "AtomicSub", "AtomicMin", "AtomicMax", "AtomicAnd", "AtomicOr", "AtomicXor"};
  return names[int(op)];
}

const char* expr_name(ExprKind k) {
  static const char* names[] = {"Constant", "Variable", "ArrayElement", "StructField", "LoopIndex", "Input",
                                "OutputRead", "Builtin", "Param", "Unary", "Binary", "Select", "BitfieldExtract",
                                "BitfieldInsert", "Cast", "Bitcast", "UnitFloat", "Extract", "Splat", "Call"};
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
    // Division corner cases chosen on purpose: by a zero or -1 constant.
    if ((e.op == Op::Div || e.op == Op::Rem) && e.args[1].kind == ExprKind::Constant && !e.type.is_float())
      out.insert("op:" + op + ":by-constant-" + (e.args[1].bits[0] == 0 ? "zero" : "other"));
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
