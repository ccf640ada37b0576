#include "generator.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "random.hpp"

namespace sprig::fuzz {

namespace {

constexpr Type u32{Scalar::U32, 1}, i32{Scalar::I32, 1}, u64{Scalar::U64, 1}, i64{Scalar::I64, 1},
    boolean{Scalar::Bool, 1}, f32{Scalar::F32, 1};

Expr constant(Type t, std::uint64_t bits) {
  Expr e;
  e.kind = ExprKind::Constant;
  e.type = t;
  e.bits.fill(bits);
  return e;
}

Expr node(ExprKind kind, Type t, std::vector<Expr> args, Op op = Op::Add, std::uint32_t index = 0) {
  Expr e;
  e.kind = kind;
  e.type = t;
  e.op = op;
  e.index = index;
  e.args = std::move(args);
  return e;
}

// A float expression's values are multiples of 2^-fraction below 2^magnitude: exact in a
// float (24-bit significand) if magnitude + fraction <= 24, and then every operation on them
// is exact too, in any order, fused or not.
struct FloatBits {
  int magnitude = 0, fraction = 0;
  bool exact() const { return magnitude + fraction <= 24; }
};

FloatBits float_bits(const Expr& e) {
  auto arg = [&](std::size_t i) { return float_bits(e.args.at(i)); };
  switch (e.kind) {
    case ExprKind::Constant: return {3, 3};  // k / 8 with |k| <= 64
    case ExprKind::Cast: return {8, 0};      // cast<float>(x & 255), possibly - 128
    case ExprKind::UnitFloat: return {1, 23};
    case ExprKind::Extract:
    case ExprKind::Splat: return arg(0);
    case ExprKind::Select: {
      FloatBits a = arg(1), b = arg(2);
      return {std::max(a.magnitude, b.magnitude), std::max(a.fraction, b.fraction)};
    }
    case ExprKind::Unary: {
      FloatBits a = arg(0);
      if (e.op == Op::Floor || e.op == Op::Ceil || e.op == Op::Round || e.op == Op::Trunc) return {a.magnitude + 1, 0};
      return a;
    }
    case ExprKind::Binary: {
      FloatBits a = arg(0), b = arg(1);
      if (e.op == Op::Mul) return {a.magnitude + b.magnitude, a.fraction + b.fraction};
      if (e.op == Op::Add || e.op == Op::Sub)
        return {std::max(a.magnitude, b.magnitude) + 1, std::max(a.fraction, b.fraction)};
      return {std::max(a.magnitude, b.magnitude), std::max(a.fraction, b.fraction)};
    }
    default: return {99, 99};
  }
}

// Where statements and expressions are being generated.
struct Context {
  bool in_callable = false;
  int depth = 0;                        // statement nesting
  std::vector<std::uint32_t> loop_ids;  // enclosing for_ loops
  int loops = 0;                        // enclosing loops of any kind
  std::uint32_t visible_variables = 0;  // variables an expression may read
};

class Generator {
 public:
  Generator(std::uint64_t seed, const GeneratorOptions& options) : rng_(seed), options_(options) {}

  Program run(std::uint64_t seed) {
    p_.seed = seed;
    p_.workgroup_size = rng_.chance(50) ? 32 : 64;
    p_.workgroups = std::uint32_t(rng_.between(1, 2));
    p_.param = std::uint32_t(rng_.next());
    for (std::uint32_t i = 0; i < in32_size; ++i) p_.in32.push_back(std::uint32_t(interesting(u32)));
    for (std::uint32_t i = 0; i < in64_size; ++i) p_.in64.push_back(interesting(u64));

    int functions = rng_.between(0, 2);
    for (int f = 0; f < functions; ++f) p_.functions.push_back(function());
    functions_ready_ = true;

    static const std::vector<Type> variable_types = {boolean,
                                                     i32,
                                                     i32,
                                                     u32,
                                                     u32,
                                                     i64,
                                                     u64,
                                                     {Scalar::U32, 2},
                                                     {Scalar::U32, 3},
                                                     {Scalar::U32, 4},
                                                     {Scalar::I32, 2},
                                                     {Scalar::I32, 3},
                                                     {Scalar::I32, 4},
                                                     {Scalar::Bool, 2},
                                                     {Scalar::Bool, 3},
                                                     {Scalar::Bool, 4}};
    int count = rng_.between(3, 7);
    Context ctx;
    for (int i = 0; i < count; ++i) {
      Type t = i == 0 ? u32 : (i == 1 ? boolean : rng_.pick(variable_types));
      ctx.visible_variables = std::uint32_t(i);
      p_.initial_values.push_back(expr(t, 2, ctx));
      p_.variables.push_back(t);
      assignable_.push_back(true);
    }
    ctx.visible_variables = std::uint32_t(count);
    kernel_variables_ = std::uint32_t(count);
    int statements = rng_.between(4, 12);
    for (int i = 0; i < statements; ++i) p_.body.push_back(statement(ctx));
    dump_variables();
    return std::move(p_);
  }

 private:
  // Values that find corner cases: 0, 1, all ones, the signed extremes, shift counts around
  // the width, small numbers and random bits.
  std::uint64_t interesting(Type t) {
    bool wide = t.is_64bit();
    std::uint64_t all = wide ? ~0ull : 0xFFFFFFFFull;
    std::uint64_t min = wide ? (1ull << 63) : 0x80000000ull;
    std::uint64_t v;
    switch (rng_.below(12)) {
      case 0: v = 0; break;
      case 1: v = 1; break;
      case 2: v = all; break;
      case 3: v = min; break;
      case 4: v = min - 1; break;
      case 5: v = std::uint64_t(rng_.pick(std::vector<int>{7, 8, 31, 32, 33, 63, 64, 65})); break;
      case 6: v = std::uint64_t(rng_.between(0, 16)); break;
      case 7: v = std::uint64_t(-std::int64_t(rng_.between(1, 16))); break;
      default: v = rng_.next(); break;
    }
    if (t.is_bool()) return v & 1;
    return v & all;
  }

  Expr random_constant(Type t) {
    Expr e = constant(t, 0);
    for (int lane = 0; lane < t.lanes; ++lane) {
      if (t.is_float()) {
        e.bits[lane] = std::bit_cast<std::uint32_t>(float(rng_.between(-64, 64)) / 8.0f);
      } else {
        std::uint64_t v = interesting(t);
        if (t.is_signed()) v = std::uint64_t(t.is_64bit() ? std::int64_t(v) : std::int64_t(std::int32_t(v)));
        e.bits[lane] = v;
      }
    }
    if (t.lanes == 1) e.bits.fill(e.bits[0]);
    return e;
  }

  Function function() {
    Function f;
    f.variables = {u32, u32};
    int extra = rng_.between(0, 2);
    for (int i = 0; i < extra; ++i) f.variables.push_back(rng_.pick(std::vector<Type>{u32, i32, boolean, u64}));
    Context ctx;
    ctx.in_callable = true;
    ctx.visible_variables = std::uint32_t(f.variables.size());
    function_variables_ = &f.variables;
    int statements = rng_.between(1, 4);
    for (int i = 0; i < statements; ++i) f.body.push_back(statement(ctx));
    f.result = expr(u32, 3, ctx);
    function_variables_ = nullptr;
    return f;
  }

  const std::vector<Type>& variables(const Context& ctx) const {
    return ctx.in_callable ? *function_variables_ : p_.variables;
  }

  // A variable of type t visible in ctx (assignable ones only if `assign`), or -1.
  int variable_of(Type t, const Context& ctx, bool assign) {
    const std::vector<Type>& vars = variables(ctx);
    std::vector<int> found;
    for (std::uint32_t i = 0; i < ctx.visible_variables && i < vars.size(); ++i) {
      if (vars[i] != t) continue;
      if (assign && !ctx.in_callable && !assignable_[i]) continue;
      found.push_back(int(i));
    }
    return found.empty() ? -1 : rng_.pick(found);
  }

  Expr u32_index(const Context& ctx) { return expr(u32, 1, ctx); }

  Expr leaf(Type t, const Context& ctx) {
    if (t.is_float()) return float_leaf(t, ctx);
    for (int attempt = 0; attempt < 4; ++attempt) {
      switch (rng_.below(9)) {
        case 0: {
          int v = variable_of(t, ctx, false);
          if (v >= 0) return node(ExprKind::Variable, t, {}, Op::Add, std::uint32_t(v));
          break;
        }
        case 1:
          if (t == u32 && !ctx.loop_ids.empty())
            return node(ExprKind::LoopIndex, t, {}, Op::Add, rng_.pick(ctx.loop_ids));
          break;
        case 2:
          if (ctx.in_callable) break;
          if (t == u32) return node(ExprKind::Input, t, {u32_index(ctx)}, Op::Add, 0);
          if (t == u64) return node(ExprKind::Input, t, {u32_index(ctx)}, Op::Add, 1);
          break;
        case 3:
          if (ctx.in_callable || !(t == u32 || t == u64)) break;
          return node(ExprKind::OutputRead, t, {u32_index(ctx)}, Op::Add, t == u32 ? 0 : 1);
        case 4:
          if (ctx.in_callable || t != u32) break;
          if (rng_.chance(15)) return node(ExprKind::Param, t, {});
          return node(ExprKind::Builtin, t, {}, Op::Add, rng_.below(4));
        case 5:
          if (ctx.in_callable) break;
          if (t == u32 && rng_.chance(50)) return node(ExprKind::ArrayElement, t, {u32_index(ctx)});
          for (std::uint32_t f = 0; f < struct_fields; ++f)
            if (struct_field_type(f) == t) return node(ExprKind::StructField, t, {}, Op::Add, f);
          break;
        default: return random_constant(t);
      }
    }
    return random_constant(t);
  }

  Expr float_leaf(Type t, const Context& ctx) {
    switch (rng_.below(4)) {
      case 0: return random_constant(t);
      case 1:
        if (t.lanes == 1) return node(ExprKind::UnitFloat, t, {expr(u32, 1, ctx)});
        [[fallthrough]];
      default: return integer_float(t, ctx);
    }
  }

  // cast<float>((x ^ lane) & 255): a small integer (float_bits: M = 8, F = 0) that varies
  // between invocations.
  Expr integer_float(Type t, const Context& ctx) {
    Type from = t.with(rng_.chance(50) ? Scalar::U32 : Scalar::I32);
    Expr lane = ctx.in_callable ? node(ExprKind::Variable, u32, {}, Op::Add, 0)
                                : node(ExprKind::Builtin, u32, {}, Op::Add, std::uint32_t(Builtin::GlobalId));
    if (from.is_signed()) lane = node(ExprKind::Bitcast, i32, {lane});
    if (from.is_vector()) lane = node(ExprKind::Splat, from, {lane});
    Expr mixed = node(ExprKind::Binary, from, {expr(from, 1, ctx), lane}, Op::BitXor);
    Expr masked = node(ExprKind::Binary, from, {mixed, constant(from, 255)}, Op::BitAnd);
    if (from.is_signed() && rng_.chance(50))
      masked = node(ExprKind::Binary, from, {masked, constant(from, 128)}, Op::Sub);
    return node(ExprKind::Cast, t, {masked});
  }

  // Floats computed exactly on every device. A driver may contract a product and a sum into
  // an fma and reassociate (sprig emits no NoContraction; docs/fuzzing.md), so every value
  // is kept exactly representable: a multiple of 2^-F below 2^M in magnitude with
  // M + F <= 24 (float_bits), whatever the order of evaluation. Nothing overflows, turns
  // NaN or denormal.
  Expr float_expr(Type t, int depth, const Context& ctx) {
    Expr e = float_operation(t, depth, ctx);
    if (float_bits(e).exact()) return e;
    for (Expr& a : e.args)
      if (a.type == t && float_bits(a).exact()) return std::move(a);
    return integer_float(t, ctx);
  }

  Expr float_operation(Type t, int depth, const Context& ctx) {
    if (depth <= 0 || rng_.chance(20)) return float_leaf(t, ctx);
    switch (rng_.below(8)) {
      case 0:
      case 1: {
        Op op = rng_.chance(50) ? Op::Add : Op::Sub;
        return node(ExprKind::Binary, t, {float_expr(t, depth - 1, ctx), float_expr(t, depth - 1, ctx)}, op);
      }
      case 2: return node(ExprKind::Binary, t, {float_expr(t, depth - 1, ctx), float_expr(t, depth - 1, ctx)}, Op::Mul);
      case 3:
        return node(ExprKind::Binary, t, {float_expr(t, depth - 1, ctx), float_expr(t, depth - 1, ctx)},
                    rng_.chance(50) ? Op::Min : Op::Max);
      case 4: {
        static const std::vector<Op> ops = {Op::Neg, Op::Abs, Op::Floor, Op::Ceil, Op::Trunc, Op::Round};
        Op op = rng_.pick(ops);
        return node(ExprKind::Unary, t, {float_expr(t, depth - 1, ctx)}, op);
      }
      case 5:
        return node(ExprKind::Select, t,
                    {expr(rng_.chance(70) ? boolean : t.with(Scalar::Bool), 1, ctx), float_expr(t, depth - 1, ctx),
                     float_expr(t, depth - 1, ctx)});
      case 6:
        if (t.lanes == 1) {
          Type v{Scalar::F32, std::uint8_t(rng_.between(2, 4))};
          return node(ExprKind::Extract, t, {float_expr(v, depth - 1, ctx)}, Op::Add, rng_.below(v.lanes));
        }
        return node(ExprKind::Splat, t, {float_expr(f32, depth - 1, ctx)});
      default: return float_leaf(t, ctx);
    }
  }

  // A float the language does not promise bit for bit; stored to outa only.
  Expr approx_expr(const Context& ctx) {
    Expr f = float_expr(f32, 2, ctx);
    auto unary = [&](Op op, Expr a) { return node(ExprKind::Unary, f32, {std::move(a)}, op); };
    auto plus_one = [&](Expr a) {
      return node(ExprKind::Binary, f32, {std::move(a), constant(f32, 0x3F800000)}, Op::Add);
    };
    switch (rng_.below(7)) {
      case 0:  // divisor >= 1: no infinities whose sign would hang on a zero's sign
        return node(ExprKind::Binary, f32, {f, plus_one(unary(Op::Abs, float_expr(f32, 2, ctx)))}, Op::Div);
      case 1: return unary(rng_.chance(50) ? Op::Sqrt : Op::InverseSqrt, plus_one(unary(Op::Abs, f)));
      case 2: return unary(rng_.chance(50) ? Op::Exp : Op::Exp2, unary(Op::Fract, f));
      case 3: return unary(rng_.chance(50) ? Op::Log : Op::Log2, plus_one(unary(Op::Abs, f)));
      case 4:  // the Vulkan precision of sin and cos holds in [-pi, pi]
        return unary(rng_.chance(50) ? Op::Sin : Op::Cos,
                     node(ExprKind::Binary, f32, {unary(Op::Fract, f), constant(f32, 0x40400000)}, Op::Mul));
      case 5: return unary(Op::Atan, f);
      default: return unary(Op::Fract, f);
    }
  }

  Expr expr(Type t, int depth, const Context& ctx) {
    if (t.is_float()) return float_expr(t, std::min(depth, 3), ctx);
    if (depth <= 0 || rng_.chance(20)) return leaf(t, ctx);
    if (t.is_bool()) return bool_expr(t, depth, ctx);
    return integer_expr(t, depth, ctx);
  }

  Type numeric_shape(std::uint8_t lanes) {
    if (lanes > 1) return {rng_.pick(std::vector<Scalar>{Scalar::I32, Scalar::U32, Scalar::F32}), lanes};
    return {
        rng_.pick(std::vector<Scalar>{Scalar::I32, Scalar::U32, Scalar::U32, Scalar::F32, Scalar::I64, Scalar::U64}),
        1};
  }

  Expr bool_expr(Type t, int depth, const Context& ctx) {
    switch (rng_.below(7)) {
      case 0:
      case 1: {
        Type operand = numeric_shape(t.lanes);
        Op op = rng_.pick(std::vector<Op>{Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge});
        return node(ExprKind::Binary, t, {expr(operand, depth - 1, ctx), expr(operand, depth - 1, ctx)}, op);
      }
      case 2:
        return node(ExprKind::Binary, t, {expr(t, depth - 1, ctx), expr(t, depth - 1, ctx)},
                    rng_.pick(std::vector<Op>{Op::LogicalAnd, Op::LogicalOr, Op::Eq, Op::Ne}));
      case 3: return node(ExprKind::Unary, t, {expr(t, depth - 1, ctx)}, Op::LogicalNot);
      case 4:
        return node(ExprKind::Cast, t, {expr(t.with(rng_.chance(50) ? Scalar::U32 : Scalar::I32), depth - 1, ctx)});
      case 5:
        return node(ExprKind::Select, t,
                    {expr(boolean, depth - 1, ctx), expr(t, depth - 1, ctx), expr(t, depth - 1, ctx)});
      default:
        if (t.lanes == 1) {
          Type v{Scalar::Bool, std::uint8_t(rng_.between(2, 4))};
          return node(ExprKind::Extract, t, {expr(v, depth - 1, ctx)}, Op::Add, rng_.below(v.lanes));
        }
        return node(ExprKind::Splat, t, {expr(boolean, depth - 1, ctx)});
    }
  }

  Expr integer_expr(Type t, int depth, const Context& ctx) {
    switch (rng_.below(16)) {
      case 0:
      case 1:
      case 2: {
        static const std::vector<Op> ops = {Op::Add,        Op::Sub,         Op::Mul,   Op::BitAnd,  Op::BitOr,
                                            Op::BitXor,     Op::Shl,         Op::Shr,   Op::Min,     Op::Max,
                                            Op::RotateLeft, Op::RotateRight, Op::MulHi, Op::AddCarry};
        return node(ExprKind::Binary, t, {expr(t, depth - 1, ctx), expr(t, depth - 1, ctx)}, rng_.pick(ops));
      }
      case 3: {
        // Division and remainder, with zero, -1 and MIN on purpose.
        Op op = rng_.chance(50) ? Op::Div : Op::Rem;
        Expr a = expr(t, depth - 1, ctx), b = expr(t, depth - 1, ctx);
        if (rng_.chance(25)) b = constant(t, rng_.chance(50) ? 0 : ~0ull);
        if (t.is_signed() && rng_.chance(15)) a = constant(t, t.is_64bit() ? (1ull << 63) : 0xFFFFFFFF80000000ull);
        return node(ExprKind::Binary, t, {a, b}, op);
      }
      case 4: {
        static const std::vector<Op> ops = {
            Op::Neg,        Op::BitNot,  Op::PopCount, Op::CountLeadingZeros, Op::CountTrailingZeros,
            Op::BitReverse, Op::ByteSwap};
        return node(ExprKind::Unary, t, {expr(t, depth - 1, ctx)}, rng_.pick(ops));
      }
      case 5: return node(ExprKind::BitfieldExtract, t, {expr(t, depth - 1, ctx), small_u32(ctx), small_u32(ctx)});
      case 6:
        return node(ExprKind::BitfieldInsert, t,
                    {expr(t, depth - 1, ctx), expr(t, depth - 1, ctx), small_u32(ctx), small_u32(ctx)});
      case 7: {
        Type cond = rng_.chance(60) || t.lanes == 1 ? boolean : t.with(Scalar::Bool);
        return node(ExprKind::Select, t,
                    {expr(cond, depth - 1, ctx), expr(t, depth - 1, ctx), expr(t, depth - 1, ctx)});
      }
      case 8: {
        // A value conversion from another type of the same shape (floats saturate).
        std::vector<Scalar> from = {Scalar::Bool, Scalar::I32, Scalar::U32, Scalar::F32};
        if (t.lanes == 1) {
          from.push_back(Scalar::I64);
          from.push_back(Scalar::U64);
        }
        Scalar s = rng_.pick(from);
        if (s == t.scalar) s = Scalar::F32;
        return node(ExprKind::Cast, t, {expr(t.with(s), depth - 1, ctx)});
      }
      case 9: {
        // Reinterpreting bits: same size, integers only (floats only through UnitFloat).
        std::vector<Type> from;
        if (t.lanes == 1 && !t.is_64bit()) from = {t.with(t.is_signed() ? Scalar::U32 : Scalar::I32)};
        if (t.lanes == 1 && t.is_64bit())
          from = {t.with(t.is_signed() ? Scalar::U64 : Scalar::I64), {Scalar::U32, 2}, {Scalar::I32, 2}};
        if (t.lanes > 1) from = {t.with(t.is_signed() ? Scalar::U32 : Scalar::I32)};
        if (t.lanes == 2) from.push_back(u64);
        return node(ExprKind::Bitcast, t, {expr(rng_.pick(from), depth - 1, ctx)});
      }
      case 10:
        if (t.lanes == 1 && !t.is_64bit()) {
          Type v{t.scalar, std::uint8_t(rng_.between(2, 4))};
          return node(ExprKind::Extract, t, {expr(v, depth - 1, ctx)}, Op::Add, rng_.below(v.lanes));
        }
        if (t.lanes > 1) return node(ExprKind::Splat, t, {expr(t.component(), depth - 1, ctx)});
        return leaf(t, ctx);
      case 11:
        if (t == u32 && !ctx.in_callable && functions_ready_ && !p_.functions.empty())
          return node(ExprKind::Call, t, {expr(u32, depth - 1, ctx), expr(u32, depth - 1, ctx)}, Op::Add,
                      rng_.below(std::uint32_t(p_.functions.size())));
        return leaf(t, ctx);
      default: return leaf(t, ctx);
    }
  }

  // An offset or count for bitfield operations: often in range, sometimes beyond the width.
  Expr small_u32(const Context& ctx) {
    if (rng_.chance(60)) return constant(u32, std::uint64_t(rng_.between(0, 40)));
    return node(ExprKind::Binary, u32, {expr(u32, 1, ctx), constant(u32, 70)}, Op::Rem);
  }

  // A value for a u32 or u64 output: of that type, or the bits of a signed value, or a lane
  // of a vector, so that signed and vector arithmetic reach the outputs directly.
  Expr stored_value(Type t, const Context& ctx) {
    Type signed_type = t.with(t.is_64bit() ? Scalar::I64 : Scalar::I32);
    switch (rng_.below(5)) {
      case 0:
      case 1: return node(ExprKind::Bitcast, t, {expr(signed_type, 3, ctx)});
      case 2:
        if (!t.is_64bit()) {
          Type v{rng_.chance(50) ? Scalar::I32 : Scalar::U32, std::uint8_t(rng_.between(2, 4))};
          Expr lane = node(ExprKind::Extract, v.component(), {expr(v, 3, ctx)}, Op::Add, rng_.below(v.lanes));
          return v.is_signed() ? node(ExprKind::Bitcast, t, {lane}) : lane;
        }
        [[fallthrough]];
      default: return expr(t, 3, ctx);
    }
  }

  std::vector<Stmt> block(Context ctx, int min, int max) {
    ctx.depth += 1;
    std::vector<Stmt> out;
    int n = rng_.between(min, max);
    for (int i = 0; i < n; ++i) out.push_back(statement(ctx));
    return out;
  }

  std::uint32_t new_counter() {
    p_.variables.push_back(u32);
    p_.initial_values.push_back(constant(u32, 0));
    assignable_.push_back(false);
    return std::uint32_t(p_.variables.size() - 1);
  }

  Stmt jump_if(StmtKind kind, const Context& ctx) {
    Stmt s;
    s.kind = StmtKind::If;
    s.exprs.push_back(expr(boolean, 2, ctx));
    Stmt jump;
    jump.kind = kind;
    if (kind == StmtKind::Return && ctx.in_callable) jump.exprs.push_back(expr(u32, 2, ctx));
    s.body.push_back(jump);
    return s;
  }

  Stmt statement(const Context& ctx) {
    bool kernel = !ctx.in_callable;
    bool uniform = kernel && ctx.depth == 0 && !returned_;
    for (;;) {
      Stmt s;
      switch (rng_.below(20)) {
        case 0:
        case 1:
        case 2:
        case 3: {
          const std::vector<Type>& vars = variables(ctx);
          Type t = vars[rng_.below(ctx.visible_variables)];
          int v = variable_of(t, ctx, true);
          if (v < 0) continue;
          s.kind = StmtKind::Assign;
          s.target = std::uint32_t(v);
          s.exprs.push_back(expr(t, 3, ctx));
          return s;
        }
        case 4:
          if (!kernel) continue;
          if (rng_.chance(50)) {
            s.kind = StmtKind::AssignElement;
            s.exprs = {expr(u32, 2, ctx), expr(u32, 3, ctx)};
          } else {
            s.kind = StmtKind::AssignField;
            s.target = rng_.below(struct_fields);
            s.exprs.push_back(expr(struct_field_type(s.target), 3, ctx));
          }
          return s;
        case 5:
        case 6: {
          if (!kernel) continue;
          s.kind = StmtKind::Store;
          s.target = rng_.below(options_.approx_floats ? 4 : 3);
          s.exprs.push_back(expr(u32, 1, ctx));
          switch (OutputBuffer(s.target)) {
            case OutputBuffer::Out32: s.exprs.push_back(stored_value(u32, ctx)); break;
            case OutputBuffer::Out64: s.exprs.push_back(stored_value(u64, ctx)); break;
            case OutputBuffer::OutFloatBits: s.exprs.push_back(expr(f32, 3, ctx)); break;
            case OutputBuffer::OutApproxFloat: s.exprs.push_back(approx_expr(ctx)); break;
          }
          return s;
        }
        case 7:
        case 8:
          if (ctx.depth >= 3) continue;
          s.kind = StmtKind::If;
          s.exprs.push_back(expr(boolean, 3, ctx));
          s.body = block(ctx, 1, 3);
          if (rng_.chance(50)) s.else_body = block(ctx, 1, 3);
          return s;
        case 9:
        case 10: {
          if (ctx.depth >= 3) continue;
          s.kind = StmtKind::For;
          s.id = next_loop_id_++;
          s.exprs.push_back(constant(u32, std::uint64_t(rng_.between(0, 2))));
          if (rng_.chance(50))
            s.exprs.push_back(constant(u32, std::uint64_t(rng_.between(0, 5))));
          else
            s.exprs.push_back(node(ExprKind::Binary, u32, {expr(u32, 2, ctx), constant(u32, 6)}, Op::Rem));
          Context inner = ctx;
          inner.loop_ids.push_back(s.id);
          inner.loops += 1;
          s.body = block(inner, 1, 3);
          return s;
        }
        case 11: {
          if (ctx.depth >= 3 || !kernel) continue;
          s.kind = rng_.chance(50) ? StmtKind::While : StmtKind::Loop;
          s.target = new_counter();
          s.bound = std::uint32_t(rng_.between(1, 5));
          if (s.kind == StmtKind::While) s.exprs.push_back(expr(boolean, 2, ctx));
          Context inner = ctx;
          inner.loops += 1;
          s.body = block(inner, 1, 3);
          return s;
        }
        case 12:
          if (ctx.loops == 0) continue;
          return jump_if(rng_.chance(50) ? StmtKind::Break : StmtKind::Continue, ctx);
        case 13:
          if (!rng_.chance(30)) continue;
          if (kernel) returned_ = true;
          return jump_if(StmtKind::Return, ctx);
        case 14: {
          if (!kernel) continue;
          s.kind = StmtKind::Atomic;
          s.op = Op(std::uint32_t(Op::AtomicAdd) + rng_.below(7));
          s.target = rng_.below(2);
          s.exprs = {expr(u32, 1, ctx), expr(s.target == 0 ? u32 : u64, 2, ctx)};
          return s;
        }
        case 15: {
          if (!uniform) continue;
          int v = variable_of(u32, ctx, true);
          if (v < 0) continue;
          s.kind = StmtKind::SharedRound;
          s.target = std::uint32_t(v);
          s.bound = std::uint32_t(rng_.between(1, int(p_.workgroup_size) - 1));
          s.exprs.push_back(expr(u32, 3, ctx));
          p_.uses_shared = true;
          return s;
        }
        case 16:
        case 17: {
          if (!uniform || !options_.subgroups) continue;
          if (subgroup(s, ctx)) return s;
          continue;
        }
        default: continue;
      }
    }
  }

  bool subgroup(Stmt& s, const Context& ctx) {
    s.kind = StmtKind::Subgroup;
    static const std::vector<Op> integer_ops = {
        Op::SubgroupAdd,           Op::SubgroupMul,          Op::SubgroupMin,          Op::SubgroupMax,
        Op::SubgroupAnd,           Op::SubgroupOr,           Op::SubgroupXor,          Op::SubgroupInclusiveAdd,
        Op::SubgroupExclusiveAdd,  Op::SubgroupInclusiveXor, Op::SubgroupExclusiveMax, Op::SubgroupBroadcastFirst,
        Op::SubgroupBroadcastZero, Op::SubgroupShuffleXor};
    static const std::vector<Op> bool_ops = {Op::SubgroupAll, Op::SubgroupAny, Op::SubgroupAllEqual, Op::SubgroupElect};
    switch (rng_.below(3)) {
      case 0: {
        Type t = rng_.chance(50) ? u32 : i32;
        int v = variable_of(t, ctx, true);
        if (v < 0) return false;
        s.target = std::uint32_t(v);
        s.op = rng_.pick(integer_ops);
        s.bound = std::uint32_t(rng_.between(1, 7));  // shuffle mask: below every subgroup size >= 8
        s.exprs.push_back(expr(t, 3, ctx));
        return true;
      }
      case 1: {
        int v = variable_of(boolean, ctx, true);
        if (v < 0) return false;
        s.target = std::uint32_t(v);
        s.op = rng_.pick(bool_ops);
        if (s.op == Op::SubgroupAllEqual)
          s.exprs.push_back(expr(u32, 3, ctx));
        else if (s.op != Op::SubgroupElect)
          s.exprs.push_back(expr(boolean, 3, ctx));
        return true;
      }
      default: {
        int v = variable_of(u32, ctx, true);
        if (v < 0) return false;
        s.target = std::uint32_t(v);
        s.op = rng_.chance(50) ? Op::SubgroupBallotCount : Op::SubgroupBallotInclusiveCount;
        s.exprs.push_back(expr(boolean, 3, ctx));
        return true;
      }
    }
  }

  // Stores every kernel variable, the array and the struct into the invocation's last
  // output slots, so that every computed value is compared.
  void dump_variables() {
    std::uint32_t slot32 = slots_per_invocation / 2, slot64 = slots_per_invocation / 2;
    auto store = [&](Expr value) {
      Stmt s;
      s.kind = StmtKind::Store;
      Type t = value.type;
      if (t.is_bool())
        value = node(ExprKind::Cast, u32, {value});
      else if (t == i32)
        value = node(ExprKind::Bitcast, u32, {value});
      else if (t == i64)
        value = node(ExprKind::Bitcast, u64, {value});
      bool wide = value.type == u64;
      std::uint32_t& slot = wide ? slot64 : slot32;
      s.target = std::uint32_t(wide ? OutputBuffer::Out64 : OutputBuffer::Out32);
      s.exprs = {constant(u32, slot), std::move(value)};
      slot = slot + 1 == slots_per_invocation ? slots_per_invocation / 2 : slot + 1;
      p_.body.push_back(std::move(s));
    };
    for (std::uint32_t i = 0; i < kernel_variables_; ++i) {
      Type t = p_.variables[i];
      Expr v = node(ExprKind::Variable, t, {}, Op::Add, i);
      if (t.lanes == 1) {
        store(v);
      } else {
        for (std::uint32_t lane = 0; lane < t.lanes; ++lane)
          store(node(ExprKind::Extract, t.component(), {v}, Op::Add, lane));
      }
    }
    for (std::uint32_t i = 0; i < array_size; ++i) store(node(ExprKind::ArrayElement, u32, {constant(u32, i)}));
    for (std::uint32_t f = 0; f < 2; ++f) store(node(ExprKind::StructField, struct_field_type(f), {}, Op::Add, f));
  }

  Random rng_;
  GeneratorOptions options_;
  Program p_;
  std::vector<bool> assignable_;
  std::vector<Type>* function_variables_ = nullptr;
  std::uint32_t kernel_variables_ = 0;
  std::uint32_t next_loop_id_ = 0;
  bool returned_ = false;
  bool functions_ready_ = false;
};

}  // namespace

Program generate(std::uint64_t seed, const GeneratorOptions& options) { return Generator(seed, options).run(seed); }

}  // namespace sprig::fuzz
