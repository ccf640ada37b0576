// Generator version 3: floor_div and mod, and vector constructors, added to version 2's
// finished program from a second random stream. Version 2's draws all happen first and
// unchanged, so a seed keeps its statements and most of its expressions: the additions turn
// some `/` and `%` into floor_div and mod and some splats into constructors, and wrap some
// integers in floor_div or mod, some vectors in a constructor and some exact floats in a
// floor division by a power of two.
#include <bit>
#include <cmath>

#include "generator_internal.hpp"

namespace sprig::fuzz {

namespace {

// Percent of the nodes of each kind that an addition changes.
constexpr std::uint32_t to_floor_division_percent = 40;            // integer / and %
constexpr std::uint32_t integer_division_percent = 3;              // any other integer
constexpr std::uint32_t splat_to_constructor_percent = 50;
constexpr std::uint32_t vector_in_constructor_percent = 8;         // any other vector
constexpr std::uint32_t float_vector_in_constructor_percent = 20;  // rarer, and often too wide to stay exact
constexpr std::uint32_t float_division_percent = 6;                // an exact float

bool floats_exact(const Expr& e) {
  if (e.type.is_float() && !float_bits(e).exact()) return false;
  for (const Expr& a : e.args)
    if (!floats_exact(a)) return false;
  return true;
}

// The lane counts of a constructor's parts: a split into two or more parts of fewer lanes
// than the vector, or one scalar (a splat).
const std::vector<std::vector<std::uint8_t>>& constructor_shapes(std::uint8_t lanes) {
  static const std::vector<std::vector<std::uint8_t>> two = {{1}, {1, 1}};
  static const std::vector<std::vector<std::uint8_t>> three = {{1}, {1, 1, 1}, {2, 1}, {1, 2}};
  static const std::vector<std::vector<std::uint8_t>> four = {{1},    {1, 1, 1, 1}, {2, 1, 1}, {1, 2, 1},
                                                              {1, 1, 2}, {2, 2},     {3, 1},    {1, 3}};
  return lanes == 2 ? two : lanes == 3 ? three : four;
}

// A kernel's return_() is guarded by `local_index() % 4 == 3 && cond` (jump_if): a quarter
// of the invocations, which only `cond` may change.
bool is_kernel_return_guard(const Stmt& s, const Context& ctx) {
  return !ctx.in_callable && s.kind == StmtKind::If && s.body.size() == 1 && s.body[0].kind == StmtKind::Return;
}

}  // namespace

void Generator::add_operations(std::uint64_t seed) {
  // Version 2's stream is finished; the additions draw from their own.
  rng_ = Random(Random(seed ^ 0xF100D1D5EC7A1D0Full).next());
  Context ctx;
  for (std::uint32_t i = 0; i < kernel_variables_; ++i) {
    ctx.visible_variables = i;
    add_to_root(p_.initial_values[i], ctx);
  }
  for (Function& f : p_.functions) {
    Context inner;
    inner.in_callable = true;
    inner.visible_variables = std::uint32_t(f.variables.size());
    function_variables_ = &f.variables;
    add_to_block(f.body, inner);
    add_to_root(f.result, inner);
    function_variables_ = nullptr;
  }
  ctx.visible_variables = kernel_variables_;
  add_to_block(p_.body, ctx);
}

void Generator::add_to_block(std::vector<Stmt>& block, const Context& ctx) {
  for (Stmt& s : block) add_to_statement(s, ctx);
}

void Generator::add_to_statement(Stmt& s, const Context& ctx) {
  switch (s.kind) {
    case StmtKind::For: {
      // The end is a constant or x % 6, a small bound: only x may change.
      if (s.exprs[1].kind == ExprKind::Binary) add_to_root(s.exprs[1].args[0], ctx);
      Context inner = ctx;
      inner.loop_ids.push_back(s.id);
      add_to_block(s.body, inner);
      return;
    }
    case StmtKind::Store:
      if (OutputBuffer(s.target) == OutputBuffer::OutApproxFloat) return;  // approximate floats stay as they are
      add_to_root(s.exprs[0], ctx);
      add_to_root(s.exprs[1], ctx);
      return;
    default:
      if (is_kernel_return_guard(s, ctx))
        add_to_root(s.exprs[0].args[1], ctx);
      else
        for (Expr& e : s.exprs) add_to_root(e, ctx);
      add_to_block(s.body, ctx);
      add_to_block(s.else_body, ctx);
      return;
  }
}

void Generator::add_to_root(Expr& e, const Context& ctx) {
  root_ = &e;
  add(e, ctx);
  root_ = nullptr;
}

// Children first, so that an addition's own new operands are left as they are made.
void Generator::add(Expr& e, const Context& ctx) {
  for (Expr& a : e.args) add(a, ctx);
  if (e.kind == ExprKind::Binary && (e.op == Op::Div || e.op == Op::Rem) && e.type.is_integer()) {
    if (rng_.chance(to_floor_division_percent)) to_floor_division(e, ctx);
    return;
  }
  if (e.type.is_vector() && e.kind != ExprKind::Constant) {  // a constructor of constants is one constant
    bool splat = e.kind == ExprKind::Splat;
    std::uint32_t percent = splat               ? splat_to_constructor_percent
                            : e.type.is_float() ? float_vector_in_constructor_percent
                                                : vector_in_constructor_percent;
    if (rng_.chance(percent)) {
      Expr original = e;
      Type t = e.type;
      Expr kept = splat ? std::move(e.args[0])
                        : node(ExprKind::Extract, t.component(), {original}, Op::Add, rng_.below(t.lanes));
      e = construct_around(t, std::move(kept), ctx);
      keep_if_exact(e, std::move(original));
      return;
    }
  }
  if (e.type.is_float() && rng_.chance(float_division_percent)) wrap_in_float_division(e);
  if (e.type.is_integer() && e.kind != ExprKind::Constant && rng_.chance(integer_division_percent))
    wrap_in_integer_division(e, ctx);
}

// `e` is part of the statement expression root_: if that now computes a float inexactly
// (float_bits), `e` goes back to `original`.
void Generator::keep_if_exact(Expr& e, Expr original) {
  if (!floats_exact(*root_)) e = std::move(original);
}

// x / y -> floor_div(x, y), x % y -> mod(x, y), over version 2's operands (signed stores'
// are negative two times in three; divisors 0 and -1 and a dividend MIN are already chosen
// on purpose), with more corner operands: the divisor a corner constant, a vector's divisor
// a scalar (broadcast), MIN / -1.
void Generator::to_floor_division(Expr& e, const Context& ctx) {
  e.op = e.op == Op::Div ? Op::FloorDiv : Op::Mod;
  Type t = e.type, c = t.component();
  if (rng_.chance(15)) {
    e.args[1] = constant(t, edge_divisor(t));
  } else if (t.is_vector() && rng_.chance(50)) {
    e.args[1] = rng_.chance(40) ? constant(c, edge_divisor(c)) : expr(c, 1, ctx);
  }
  if (t.is_signed() && rng_.chance(10)) {
    e.args[0] = constant(t, t.is_64bit() ? (1ull << 63) : 0xFFFFFFFF80000000ull);
    if (rng_.chance(50)) e.args[1] = constant(e.args[1].type, ~0ull);
  }
}

// e -> floor_div or mod of e and a new operand, e the dividend or the divisor: a signed
// scalar's new operand is negative two times in three (signed_operand), or a corner value.
void Generator::wrap_in_integer_division(Expr& e, const Context& ctx) {
  Type t = e.type;
  Expr other;
  if (rng_.chance(25))
    other = constant(t, edge_divisor(t));
  else if (t.is_signed() && !t.is_vector() && !ctx.in_callable)  // callables read no buffers
    other = signed_operand(t, 1, ctx);
  else
    other = expr(t, 1, ctx);
  Op op = rng_.chance(50) ? Op::FloorDiv : Op::Mod;
  if (rng_.chance(50))
    e = node(ExprKind::Binary, t, {e, other}, op);
  else
    e = node(ExprKind::Binary, t, {other, e}, op);
}

// A divisor that finds corner cases: 0, +-1, small ones of both signs (the emitter divides
// by some constants by multiplication), powers of two, MIN and MAX. Signed values are kept
// sign-extended, as random_constant keeps them.
std::uint64_t Generator::edge_divisor(Type t) {
  bool wide = t.is_64bit();
  std::uint64_t all = wide ? ~0ull : 0xFFFFFFFFull, min = wide ? 1ull << 63 : 0x80000000ull;
  static const std::vector<int> small = {0, 1, 2, 3, 7, 8, 10, 16};
  std::uint64_t v;
  switch (rng_.below(4)) {
    case 0: v = min; break;
    case 1: v = min - 1; break;
    default: {
      v = std::uint64_t(rng_.pick(small));
      if (t.is_signed() && rng_.chance(50)) v = std::uint64_t(-std::int64_t(v));
      break;
    }
  }
  v &= all;
  if (t.is_signed() && !wide) v = std::uint64_t(std::int64_t(std::int32_t(std::uint32_t(v))));
  return v;
}

// e -> floor_div(e, +-2^k) (k = 1..3) or mod(e, +-2^k) (k = -2..3): a division by a power of
// two is exact on every device (other quotients are not: Vulkan allows 2.5 ulp, and floor
// turns an ulp into a whole step). Never by zero: the fuzzer's kernels are plain ones, which
// a device may compile assuming no infinities and NaNs (lavapipe computes mod(x, 0) as x and
// floor_div(1, 0) as NaN). A vector's divisor is a scalar half the time.
void Generator::wrap_in_float_division(Expr& e) {
  Expr original = e;
  bool quotient = rng_.chance(40);
  auto power = [&] {
    float v = std::ldexp(1.0f, quotient ? rng_.between(1, 3) : rng_.between(-2, 3));
    return std::uint64_t(std::bit_cast<std::uint32_t>(rng_.chance(40) ? -v : v));
  };
  Type divisor_type = e.type.is_vector() && rng_.chance(50) ? f32 : e.type;
  Expr divisor = constant(divisor_type, 0);
  for (std::uint8_t lane = 0; lane < divisor_type.lanes; ++lane) divisor.bits[lane] = power();
  if (divisor_type.lanes == 1) divisor.bits.fill(divisor.bits[0]);
  Type t = e.type;
  e = node(ExprKind::Binary, t, {std::move(e), std::move(divisor)}, quotient ? Op::FloorDiv : Op::Mod);
  keep_if_exact(e, std::move(original));
}

// A constructor of `t` (Vec4(x, y, z, w), Vec4(xy, z, w), Vec3(x, yz), Vec4(x), ...) with
// `kept` (a scalar of t's component) as one of its scalars and new device values around it.
Expr Generator::construct_around(Type t, Expr kept, const Context& ctx) {
  const std::vector<std::uint8_t>& shape = rng_.pick(constructor_shapes(t.lanes));
  std::size_t holder = rng_.below(std::uint32_t(shape.size()));
  std::vector<Expr> parts;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    Type part{t.scalar, shape[i]};
    if (i != holder)
      parts.push_back(expr(part, rng_.between(1, 2), ctx));
    else if (shape[i] == 1)
      parts.push_back(std::move(kept));
    else
      parts.push_back(construct_around(part, std::move(kept), ctx));
  }
  return node(ExprKind::Construct, t, std::move(parts));
}

}  // namespace sprig::fuzz
