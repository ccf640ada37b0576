// Signed operations on values that are mostly negative, each stored straight into an
// output slot. Elsewhere most computed values end in a slot index, a loop bound or a
// condition, which hides a wrong signed division, shift, comparison, extension or float
// conversion (docs/fuzzing.md, Sensitivity).
#include "generator_internal.hpp"

namespace sprig::fuzz {

namespace {

std::uint64_t sign_bit(Type t) { return t.is_64bit() ? 1ull << 63 : 0x80000000ull; }

Type unsigned_of(Type t) { return t.with(t.is_64bit() ? Scalar::U64 : Scalar::U32); }

}  // namespace

// An input reinterpreted as signed; its sign bit forced half the time, so that with the
// inputs' own negative values (all ones, MIN, -1..-16, random bits) most of them are negative.
Expr Generator::signed_input(Type t, const Context& ctx) {
  Type raw = unsigned_of(t);
  Expr value = node(ExprKind::Input, raw, {u32_index(ctx)}, Op::Add, t.is_64bit() ? 1 : 0);
  if (rng_.chance(50)) value = node(ExprKind::Binary, raw, {value, constant(raw, sign_bit(t))}, Op::BitOr);
  return node(ExprKind::Bitcast, t, {value});
}

Expr Generator::signed_operand(Type t, int depth, const Context& ctx) {
  if (depth > 0 && rng_.chance(60)) return signed_operation(t, depth, ctx);
  switch (rng_.below(5)) {
    case 0: return random_constant(t);
    case 1: return leaf(t, ctx);
    default: return signed_input(t, ctx);
  }
}

// An operation whose result depends on its operands being signed.
Expr Generator::signed_operation(Type t, int depth, const Context& ctx) {
  auto operand = [&] { return signed_operand(t, depth - 1, ctx); };
  int width = t.is_64bit() ? 64 : 32;
  switch (rng_.below(12)) {
    case 0:
    case 1:
    case 2: return node(ExprKind::Binary, t, {operand(), operand()}, rng_.chance(50) ? Op::Div : Op::Rem);
    case 3: {
      Expr amount = rng_.chance(70) ? constant(t, std::uint64_t(rng_.between(1, width - 1))) : operand();
      return node(ExprKind::Binary, t, {operand(), amount}, Op::Shr);
    }
    case 4: return node(ExprKind::Binary, t, {operand(), operand()}, rng_.chance(50) ? Op::Min : Op::Max);
    case 5:
    case 6:
    case 7:
    case 8: {
      // A comparison's value itself, or the choice it makes.
      Type compared = rng_.chance(50) ? i32 : i64;
      Op op = rng_.pick(std::vector<Op>{Op::Lt, Op::Le, Op::Gt, Op::Ge});
      Expr less = node(ExprKind::Binary, boolean,
                       {signed_operand(compared, depth - 1, ctx), signed_operand(compared, depth - 1, ctx)}, op);
      if (rng_.chance(60)) return node(ExprKind::Cast, t, {less});
      return node(ExprKind::Select, t, {less, operand(), operand()});
    }
    case 9: {
      // 64-bit fields are shifts in SPIR-V; an int32 field, sign-extended, is OpBitFieldSExtract.
      if (t == i64 && rng_.chance(50)) return node(ExprKind::Cast, t, {signed_field(i32, depth, ctx)});
      return signed_field(t, depth, ctx);
    }
    case 10:
      // Sign extension; narrowing an int64 only truncates.
      if (t == i64) return node(ExprKind::Cast, t, {signed_operand(i32, depth - 1, ctx)});
      [[fallthrough]];
    default: return node(ExprKind::Cast, t, {large_float(t, ctx)});
  }
}

// bitfield_extract of a field inside the value most of the time, so that its top bit is
// extended.
Expr Generator::signed_field(Type t, int depth, const Context& ctx) {
  Expr value = signed_operand(t, depth - 1, ctx);
  if (!rng_.chance(70)) return node(ExprKind::BitfieldExtract, t, {value, small_u32(ctx), small_u32(ctx)});
  int width = t.is_64bit() ? 64 : 32;
  int offset = rng_.between(0, width - 2), count = rng_.between(1, width - offset);
  return node(ExprKind::BitfieldExtract, t,
              {value, constant(u32, std::uint64_t(offset)), constant(u32, std::uint64_t(count))});
}

// A float for a conversion to `target`: an integer with only its top 24 significant bits
// kept, so that the conversion to float is exact (Vulkan leaves the rounding of inexact ones
// to the device), often beyond the target's range or negative; or a small exact float with a
// fraction. Never fed into float arithmetic, which must stay exact (float_bits).
Expr Generator::large_float(Type target, const Context& ctx) {
  if (rng_.chance(20)) return float_expr(f32, 2, ctx);
  // An unsigned target from its own width's values, half of them beyond the signed range.
  Type from = !target.is_signed() && rng_.chance(60) ? target : rng_.pick(std::vector<Type>{u32, u64, i32, i64});
  Expr integer = from.is_signed() ? signed_operand(from, 1, ctx)
                                  : node(ExprKind::Input, from, {u32_index(ctx)}, Op::Add, from == u64 ? 1 : 0);
  std::uint64_t top_bits = from.is_64bit() ? 0xFFFFFF0000000000ull : 0xFFFFFF00ull;
  if (from.is_signed()) top_bits = std::uint64_t(from.is_64bit() ? std::int64_t(top_bits) : std::int32_t(top_bits));
  Expr exact = node(ExprKind::Binary, from, {integer, constant(from, top_bits)}, Op::BitAnd);
  // Halved before and doubled after the conversion (both exact), which keeps a driver from
  // folding the conversions back to the integer: lavapipe does, which also hides a wrong
  // float -> integer opcode. Or just halved.
  bool restore = rng_.chance(70);
  if (restore) exact = node(ExprKind::Binary, from, {exact, constant(from, 1)}, Op::Shr);
  Expr f = node(ExprKind::Cast, f32, {exact});
  if (rng_.chance(25)) f = node(ExprKind::Unary, f32, {f}, Op::Neg);
  std::uint64_t two = 0x40000000, half = 0x3F000000;
  return node(ExprKind::Binary, f32, {f, constant(f32, restore ? two : half)}, Op::Mul);
}

// A conversion to an unsigned type that a signedness mix-up would change: the sign extension
// of a negative int32, the zero extension of a uint32 with its top bit set, a float beyond
// 2^31 or 2^63.
Expr Generator::unsigned_conversion(Type t, const Context& ctx) {
  if (t == u64 && rng_.chance(50)) {
    if (rng_.chance(60)) return node(ExprKind::Cast, t, {signed_operand(i32, 1, ctx)});
    return node(ExprKind::Cast, t, {node(ExprKind::Input, u32, {u32_index(ctx)}, Op::Add, 0)});
  }
  return node(ExprKind::Cast, t, {large_float(t, ctx)});
}

// out32/out64[slot] = a signed operation's bits (or an unsigned conversion), in the slots
// below those the final values are stored to, so that later statements rarely overwrite it.
Stmt Generator::signed_store(const Context& ctx) {
  bool wide = rng_.chance(50);
  Type stored = wide ? u64 : u32;
  Expr value = rng_.chance(35) ? unsigned_conversion(stored, ctx)
                               : node(ExprKind::Bitcast, stored, {signed_operation(wide ? i64 : i32, 2, ctx)});
  std::uint32_t& slot = wide ? signed_slot64_ : signed_slot32_;
  Stmt s;
  s.kind = StmtKind::Store;
  s.target = std::uint32_t(wide ? OutputBuffer::Out64 : OutputBuffer::Out32);
  s.exprs = {constant(u32, slot), std::move(value)};
  slot = (slot + 1) % (slots_per_invocation / 2);
  return s;
}

}  // namespace sprig::fuzz
