// Integer and bool expressions of every shape.
#include "generator_internal.hpp"

namespace sprig::fuzz {

Expr Generator::expr(Type t, int depth, const Context& ctx) {
  if (t.is_float()) return float_expr(t, std::min(depth, 3), ctx);
  if (depth <= 0 || rng_.chance(20)) return leaf(t, ctx);
  if (t.is_bool()) return bool_expr(t, depth, ctx);
  return integer_expr(t, depth, ctx);
}

Type Generator::numeric_shape(std::uint8_t lanes) {
  if (lanes > 1) return {rng_.pick(std::vector<Scalar>{Scalar::I32, Scalar::U32, Scalar::F32}), lanes};
  return {
      rng_.pick(std::vector<Scalar>{Scalar::I32, Scalar::U32, Scalar::U32, Scalar::F32, Scalar::I64, Scalar::U64}),
      1};
}

Expr Generator::bool_expr(Type t, int depth, const Context& ctx) {
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

Expr Generator::integer_expr(Type t, int depth, const Context& ctx) {
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

}  // namespace sprig::fuzz
