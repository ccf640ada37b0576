// Leaves: constants with corner values, variables, inputs, builtins, loop indices.
#include <bit>

#include "generator_internal.hpp"

namespace sprig::fuzz {

// Values that find corner cases: 0, 1, all ones, the signed extremes, shift counts around
// the width, small numbers and random bits.
std::uint64_t Generator::interesting(Type t) {
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

Expr Generator::random_constant(Type t) {
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

Expr Generator::u32_index(const Context& ctx) { return expr(u32, 1, ctx); }

Expr Generator::leaf(Type t, const Context& ctx) {
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
        if (t == i32 || t == i64) return signed_input(t, ctx);
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

// An offset or count for bitfield operations: often in range, sometimes beyond the width.
Expr Generator::small_u32(const Context& ctx) {
  if (rng_.chance(60)) return constant(u32, std::uint64_t(rng_.between(0, 40)));
  return node(ExprKind::Binary, u32, {expr(u32, 1, ctx), constant(u32, 70)}, Op::Rem);
}

}  // namespace sprig::fuzz
