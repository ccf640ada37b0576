#include "printer.hpp"

#include <bit>
#include <cstdio>
#include <limits>
#include <sstream>

namespace sprig::fuzz {

namespace {

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(v));
  return buf;
}

std::string component_literal(Scalar s, std::uint64_t bits) {
  switch (s) {
    case Scalar::Bool: return bits ? "true" : "false";
    case Scalar::I32: {
      std::int32_t v = std::int32_t(std::uint32_t(bits));
      if (v == std::numeric_limits<std::int32_t>::min()) return "std::numeric_limits<std::int32_t>::min()";
      return std::to_string(v);
    }
    case Scalar::U32:
      return std::uint32_t(bits) < 1000 ? std::to_string(std::uint32_t(bits)) + "u" : hex(std::uint32_t(bits)) + "u";
    case Scalar::F32: {
      char buf[48];
      std::snprintf(buf, sizeof buf, "%af", double(std::bit_cast<float>(std::uint32_t(bits))));
      return buf;
    }
    case Scalar::I64: {
      std::int64_t v = std::int64_t(bits);
      if (v == std::numeric_limits<std::int64_t>::min()) return "std::numeric_limits<std::int64_t>::min()";
      return "std::int64_t(" + std::to_string(v) + ")";
    }
    case Scalar::U64: return "std::uint64_t(" + hex(bits) + "ull)";  // a bare 0ull would also convert to a node pointer
  }
  return "?";
}

const char* op_function(Op op) {
  switch (op) {
    case Op::Min: return "min";
    case Op::Max: return "max";
    case Op::RotateLeft: return "rotate_left";
    case Op::RotateRight: return "rotate_right";
    case Op::MulHi: return "mul_hi";
    case Op::AddCarry: return "add_carry";
    case Op::FloorDiv: return "floor_div";
    case Op::Mod: return "mod";
    case Op::PopCount: return "popcount";
    case Op::CountLeadingZeros: return "count_leading_zeros";
    case Op::CountTrailingZeros: return "count_trailing_zeros";
    case Op::BitReverse: return "bit_reverse";
    case Op::ByteSwap: return "byte_swap";
    case Op::Abs: return "abs";
    case Op::Floor: return "floor";
    case Op::Ceil: return "ceil";
    case Op::Trunc: return "trunc";
    case Op::Round: return "round";
    case Op::Fract: return "fract";
    case Op::Sqrt: return "sqrt";
    case Op::InverseSqrt: return "inversesqrt";
    case Op::Exp: return "exp";
    case Op::Exp2: return "exp2";
    case Op::Log: return "log";
    case Op::Log2: return "log2";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Atan: return "atan";
    case Op::SubgroupAdd: return "subgroup_add";
    case Op::SubgroupMul: return "subgroup_mul";
    case Op::SubgroupMin: return "subgroup_min";
    case Op::SubgroupMax: return "subgroup_max";
    case Op::SubgroupAnd: return "subgroup_and";
    case Op::SubgroupOr: return "subgroup_or";
    case Op::SubgroupXor: return "subgroup_xor";
    case Op::SubgroupInclusiveAdd: return "subgroup_inclusive_add";
    case Op::SubgroupExclusiveAdd: return "subgroup_exclusive_add";
    case Op::SubgroupInclusiveXor: return "subgroup_inclusive_xor";
    case Op::SubgroupExclusiveMax: return "subgroup_exclusive_max";
    case Op::SubgroupBroadcastFirst: return "subgroup_broadcast_first";
    case Op::SubgroupAll: return "subgroup_all";
    case Op::SubgroupAny: return "subgroup_any";
    case Op::SubgroupAllEqual: return "subgroup_all_equal";
    case Op::AtomicAdd: return "atomic_add";
    case Op::AtomicSub: return "atomic_sub";
    case Op::AtomicMin: return "atomic_min";
    case Op::AtomicMax: return "atomic_max";
    case Op::AtomicAnd: return "atomic_and";
    case Op::AtomicOr: return "atomic_or";
    case Op::AtomicXor: return "atomic_xor";
    default: return nullptr;
  }
}

const char* op_symbol(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub:
    case Op::Neg: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Rem: return "%";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::LogicalAnd: return "&&";
    case Op::LogicalOr: return "||";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::BitNot: return "~";
    case Op::LogicalNot: return "!";
    default: return "?";
  }
}

class Printer {
 public:
  explicit Printer(const Program& p) : p_(p) {}

  std::string run() {
    for (std::size_t i = 0; i < p_.functions.size(); ++i) function(std::uint32_t(i));
    out_ << "auto k = kernel(\"fuzz\", [&](ReadBuffer<std::uint32_t> in32, ReadBuffer<std::uint64_t> in64,\n"
            "                             Buffer<std::uint32_t> out32, Buffer<std::uint64_t> out64,\n"
            "                             Buffer<std::uint32_t> outf, Buffer<float> outa, Buffer<std::uint32_t> "
            "atom32,\n"
            "                             Buffer<std::uint64_t> atom64, UInt param) {\n";
    prefix_ = "v";
    line(1, "UInt slot = global_id().x() * " + std::to_string(slots_per_invocation) + "u;");
    if (p_.uses_shared)
      line(1, "auto tile = shared_array<std::uint32_t>(" + std::to_string(p_.workgroup_size) + ", \"tile\");");
    line(1, "Var<std::array<std::uint32_t, " + std::to_string(array_size) + ">> array;");
    line(1, "Var<FuzzStruct> fuzz_struct;");
    for (std::size_t i = 0; i < p_.variables.size(); ++i)
      line(1,
           "Var<" + type_name(p_.variables[i]) + "> v" + std::to_string(i) + " = " + expr(p_.initial_values[i]) + ";");
    block(p_.body, 1, false);
    out_ << "}, workgroup(" << p_.workgroup_size << "));\n";
    return out_.str();
  }

 private:
  void function(std::uint32_t index) {
    const Function& f = p_.functions[index];
    std::string name = "fuzz_fn" + std::to_string(index);
    out_ << "auto " << name << " = callable(\"" << name << "\", [](UInt a, UInt b) -> UInt {\n";
    prefix_ = "f";
    for (std::size_t i = 0; i < f.variables.size(); ++i) {
      std::string init = i == 0 ? " = a" : (i == 1 ? " = b" : "");
      line(1, "Var<" + type_name(f.variables[i]) + "> f" + std::to_string(i) + init + ";");
    }
    block(f.body, 1, true);
    line(1, "return " + expr(f.result) + ";");
    out_ << "});\n";
  }

  void line(int indent, const std::string& text) { out_ << std::string(std::size_t(indent) * 2, ' ') << text << "\n"; }

  std::string var(std::uint32_t i) const { return prefix_ + std::to_string(i); }

  std::string modulo(const Expr& e, std::uint32_t m) { return "(" + expr(e) + ") % " + std::to_string(m) + "u"; }

  std::string expr(const Expr& e) {
    auto arg = [&](std::size_t i) { return expr(e.args.at(i)); };
    switch (e.kind) {
      case ExprKind::Constant: {
        std::string t = type_name(e.type);
        if (e.type.lanes == 1) return t + "(" + component_literal(e.type.scalar, e.bits[0]) + ")";
        std::string lanes;
        for (int i = 0; i < e.type.lanes; ++i) lanes += (i ? ", " : "") + component_literal(e.type.scalar, e.bits[i]);
        return t + "(" + host_type_name(e.type) + "{" + lanes + "})";
      }
      case ExprKind::Variable: return var(e.index) + ".load()";
      case ExprKind::ArrayElement: return "array[" + modulo(e.args.at(0), array_size) + "].load()";
      case ExprKind::StructField: {
        static const char* fields[] = {"a", "b", "c"};
        return std::string("fuzz_struct[&FuzzStruct::") + fields[e.index] + "].load()";
      }
      case ExprKind::LoopIndex: return "i" + std::to_string(e.index);
      case ExprKind::Input:
        return (e.index == 0 ? "in32[" + modulo(e.args.at(0), in32_size) : "in64[" + modulo(e.args.at(0), in64_size)) +
               "].load()";
      case ExprKind::OutputRead:
        return std::string(e.index == 0 ? "out32" : "out64") + "[slot + " + modulo(e.args.at(0), slots_per_invocation) +
               "].load()";
      case ExprKind::Builtin: {
        static const char* names[] = {"global_id().x()", "local_index()", "workgroup_id().x()",
                                      "subgroup_invocation_id()"};
        return names[e.index];
      }
      case ExprKind::Param: return "param";
      case ExprKind::Unary:
        if (const char* f = op_function(e.op)) return std::string(f) + "(" + arg(0) + ")";
        return std::string("(") + op_symbol(e.op) + arg(0) + ")";
      case ExprKind::Binary:
        if (const char* f = op_function(e.op)) return std::string(f) + "(" + arg(0) + ", " + arg(1) + ")";
        return "(" + arg(0) + " " + op_symbol(e.op) + " " + arg(1) + ")";
      case ExprKind::Select: return "select(" + arg(0) + ", " + arg(1) + ", " + arg(2) + ")";
      case ExprKind::BitfieldExtract: return "bitfield_extract(" + arg(0) + ", " + arg(1) + ", " + arg(2) + ")";
      case ExprKind::BitfieldInsert:
        return "bitfield_insert(" + arg(0) + ", " + arg(1) + ", " + arg(2) + ", " + arg(3) + ")";
      case ExprKind::Cast: return "cast<" + host_type_name(e.type) + ">(" + arg(0) + ")";
      case ExprKind::Bitcast: return "bitcast<" + host_type_name(e.type) + ">(" + arg(0) + ")";
      case ExprKind::UnitFloat: return "bitcast<float>((" + arg(0) + " & 0x007FFFFFu) | 0x3F800000u)";
      case ExprKind::Extract: return arg(0) + "[" + std::to_string(e.index) + "]";
      case ExprKind::Splat: {
        std::string t = type_name(e.type), h = host_type_name(e.type);
        if (e.type.is_bool()) {
          std::string trues = "true";
          for (int i = 1; i < e.type.lanes; ++i) trues += ", true";
          return "select(" + arg(0) + ", " + t + "(" + h + "{" + trues + "}), " + t + "(" + h + "{}))";
        }
        return "(" + t + "(" + h + "{}) + " + arg(0) + ")";
      }
      case ExprKind::Call: return "fuzz_fn" + std::to_string(e.index) + "(" + arg(0) + ", " + arg(1) + ")";
      case ExprKind::Construct: {
        std::string parts;
        for (std::size_t i = 0; i < e.args.size(); ++i) parts += (i ? ", " : "") + arg(i);
        return type_name(e.type) + "(" + parts + ")";
      }
    }
    return "?";
  }

  void block(const std::vector<Stmt>& statements, int indent, bool in_callable) {
    for (const Stmt& s : statements) statement(s, indent, in_callable);
  }

  void statement(const Stmt& s, int indent, bool in_callable) {
    auto e = [&](std::size_t i) { return expr(s.exprs.at(i)); };
    switch (s.kind) {
      case StmtKind::Assign: line(indent, var(s.target) + " = " + e(0) + ";"); return;
      case StmtKind::AssignElement:
        line(indent, "array[" + modulo(s.exprs.at(0), array_size) + "] = " + e(1) + ";");
        return;
      case StmtKind::AssignField: {
        static const char* fields[] = {"a", "b", "c"};
        line(indent, std::string("fuzz_struct[&FuzzStruct::") + fields[s.target] + "] = " + e(0) + ";");
        return;
      }
      case StmtKind::Store: {
        static const char* buffers[] = {"out32", "out64", "outf", "outa"};
        std::string value =
            OutputBuffer(s.target) == OutputBuffer::OutFloatBits ? "bitcast<std::uint32_t>(" + e(1) + ")" : e(1);
        line(indent, std::string(buffers[s.target]) + "[slot + " + modulo(s.exprs.at(0), slots_per_invocation) +
                         "] = " + value + ";");
        return;
      }
      case StmtKind::If:
        line(indent, "if_(" + e(0) + ", [&] {");
        block(s.body, indent + 1, in_callable);
        if (s.else_body.empty()) {
          line(indent, "});");
        } else {
          line(indent, "}).else_([&] {");
          block(s.else_body, indent + 1, in_callable);
          line(indent, "});");
        }
        return;
      case StmtKind::For:
        line(indent, "for_(" + e(0) + ", " + e(1) + ", [&](UInt i" + std::to_string(s.id) + ") {");
        block(s.body, indent + 1, in_callable);
        line(indent, "});");
        return;
      case StmtKind::While:
      case StmtKind::Loop: {
        std::string c = var(s.target), bound = std::to_string(s.bound) + "u";
        line(indent, c + " = 0u;");
        if (s.kind == StmtKind::While) {
          line(indent, "while_([&] { return " + c + " < " + bound + " && " + e(0) + "; }, [&] {");
          line(indent + 1, c + " += 1u;");
        } else {
          line(indent, "loop_([&] {");
          line(indent + 1, c + " += 1u;");
          line(indent + 1, "if_(" + c + " > " + bound + ", [&] { break_(); });");
        }
        block(s.body, indent + 1, in_callable);
        line(indent, "});");
        return;
      }
      case StmtKind::Break: line(indent, "break_();"); return;
      case StmtKind::Continue: line(indent, "continue_();"); return;
      case StmtKind::Return: line(indent, in_callable ? "return_(" + e(0) + ");" : "return_();"); return;
      case StmtKind::Atomic: {
        std::uint32_t first = (std::uint32_t(s.op) - std::uint32_t(Op::AtomicAdd)) * atomic_counters;
        line(indent, std::string(op_function(s.op)) + "(" + (s.target == 0 ? "atom32" : "atom64") + "[" +
                         std::to_string(first) + "u + " + modulo(s.exprs.at(0), atomic_counters) + "], " + e(1) + ");");
        return;
      }
      case StmtKind::SharedRound:
        line(indent, "tile[local_index()] = " + e(0) + ";");
        line(indent, "barrier();");
        line(indent, var(s.target) + " = tile[(local_index() + " + std::to_string(s.bound) + "u) % " +
                         std::to_string(p_.workgroup_size) + "u].load();");
        line(indent, "barrier();");
        return;
      case StmtKind::Subgroup: {
        std::string call;
        switch (s.op) {
          case Op::SubgroupElect: call = "subgroup_elect()"; break;
          case Op::SubgroupBallotCount: call = "ballot_bit_count(subgroup_ballot(" + e(0) + "))"; break;
          case Op::SubgroupBallotInclusiveCount:
            call = "ballot_inclusive_bit_count(subgroup_ballot(" + e(0) + "))";
            break;
          case Op::SubgroupBroadcastZero: call = "subgroup_broadcast(" + e(0) + ", 0u)"; break;
          case Op::SubgroupShuffleXor:
            call = "subgroup_shuffle_xor(" + e(0) + ", " + std::to_string(s.bound) + "u)";
            break;
          default: call = std::string(op_function(s.op)) + "(" + e(0) + ")"; break;
        }
        line(indent, var(s.target) + " = " + call + ";");
        return;
      }
    }
  }

  const Program& p_;
  std::ostringstream out_;
  std::string prefix_ = "v";
};

}  // namespace

std::string print_program(const Program& program) { return Printer(program).run(); }

std::string print_inputs(const Program& p) {
  std::ostringstream out;
  out << "// seed " << hex(p.seed) << ": grid(" << invocations(p) << "), workgroup(" << p.workgroup_size
      << "), param = " << hex(p.param) << "u\n// in32 = {";
  for (std::size_t i = 0; i < p.in32.size(); ++i) out << (i ? ", " : "") << hex(p.in32[i]) << "u";
  out << "}\n// in64 = {";
  for (std::size_t i = 0; i < p.in64.size(); ++i) out << (i ? ", " : "") << hex(p.in64[i]) << "ull";
  out << "}\n";
  return out.str();
}

}  // namespace sprig::fuzz
