// Float expressions: exact ones (float_bits) for outf and everything else, approximate
// built-ins for outa only.
#include <algorithm>

#include "generator_internal.hpp"

namespace sprig::fuzz {

namespace {

// Whether every lane of `divisor` is a constant +-2^k, and the least and greatest k.
bool power_of_two_divisor(const Expr& divisor, int& least, int& greatest) {
  if (divisor.kind != ExprKind::Constant || !divisor.type.is_float()) return false;
  least = 127;
  greatest = -127;
  for (int lane = 0; lane < divisor.type.lanes; ++lane) {
    std::uint32_t bits = std::uint32_t(divisor.bits[std::size_t(lane)]);
    int exponent = int((bits >> 23) & 0xFF);
    if ((bits & 0x007FFFFFu) != 0 || exponent == 0 || exponent == 0xFF) return false;
    least = std::min(least, exponent - 127);
    greatest = std::max(greatest, exponent - 127);
  }
  return true;
}

}  // namespace

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
    case ExprKind::Construct: {
      FloatBits r = arg(0);
      for (std::size_t i = 1; i < e.args.size(); ++i)
        r = {std::max(r.magnitude, arg(i).magnitude), std::max(r.fraction, arg(i).fraction)};
      return r;
    }
    case ExprKind::Binary: {
      if (e.op == Op::FloorDiv || e.op == Op::Mod) {
        // By +-2^k: the quotient is exact, floor(a / 2^k) is below 2^(M - k + 1), and
        // mod(a, 2^k) = a - 2^k * floor(a / 2^k) is a multiple of 2^-max(F, -k) below 2^k.
        int least = 0, greatest = 0;
        if (!power_of_two_divisor(e.args.at(1), least, greatest)) return {99, 99};
        FloatBits a = arg(0);
        if (e.op == Op::FloorDiv) return {std::max(a.magnitude - least, 0) + 1, 0};
        return {std::max(greatest, 0), std::max(a.fraction, -std::min(least, 0))};
      }
      FloatBits a = arg(0), b = arg(1);
      if (e.op == Op::Mul) return {a.magnitude + b.magnitude, a.fraction + b.fraction};
      if (e.op == Op::Add || e.op == Op::Sub)
        return {std::max(a.magnitude, b.magnitude) + 1, std::max(a.fraction, b.fraction)};
      return {std::max(a.magnitude, b.magnitude), std::max(a.fraction, b.fraction)};
    }
    default: return {99, 99};
  }
}

Expr Generator::float_leaf(Type t, const Context& ctx) {
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
Expr Generator::integer_float(Type t, const Context& ctx) {
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
Expr Generator::float_expr(Type t, int depth, const Context& ctx) {
  Expr e = float_operation(t, depth, ctx);
  if (float_bits(e).exact()) return e;
  for (Expr& a : e.args)
    if (a.type == t && float_bits(a).exact()) return std::move(a);
  return integer_float(t, ctx);
}

Expr Generator::float_operation(Type t, int depth, const Context& ctx) {
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
Expr Generator::approx_expr(const Context& ctx) {
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

}  // namespace sprig::fuzz
