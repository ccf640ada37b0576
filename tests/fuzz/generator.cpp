// The program and its statements; expressions are in generate_*.cpp.
#include <stdexcept>
#include <string>

#include "generator_internal.hpp"

namespace sprig::fuzz {

Program Generator::run(std::uint64_t seed) {
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
  if (options_.version >= 3) add_operations(seed);
  return std::move(p_);
}

Function Generator::function() {
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

const std::vector<Type>& Generator::variables(const Context& ctx) const {
  return ctx.in_callable ? *function_variables_ : p_.variables;
}

// A variable of type t visible in ctx (assignable ones only if `assign`), or -1.
int Generator::variable_of(Type t, const Context& ctx, bool assign) {
  const std::vector<Type>& vars = variables(ctx);
  std::vector<int> found;
  for (std::uint32_t i = 0; i < ctx.visible_variables && i < vars.size(); ++i) {
    if (vars[i] != t) continue;
    if (assign && !ctx.in_callable && !assignable_[i]) continue;
    found.push_back(int(i));
  }
  return found.empty() ? -1 : rng_.pick(found);
}

// A value for a u32 or u64 output: of that type, or the bits of a signed value, or a lane
// of a vector, so that signed and vector arithmetic reach the outputs directly.
Expr Generator::stored_value(Type t, const Context& ctx) {
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

std::vector<Stmt> Generator::block(Context ctx, int min, int max) {
  ctx.depth += 1;
  std::vector<Stmt> out;
  int n = rng_.between(min, max);
  for (int i = 0; i < n; ++i) out.push_back(statement(ctx));
  return out;
}

std::uint32_t Generator::new_counter() {
  p_.variables.push_back(u32);
  p_.initial_values.push_back(constant(u32, 0));
  assignable_.push_back(false);
  return std::uint32_t(p_.variables.size() - 1);
}

Stmt Generator::jump_if(StmtKind kind, const Context& ctx) {
  Stmt s;
  s.kind = StmtKind::If;
  s.exprs.push_back(expr(boolean, 2, ctx));
  if (kind == StmtKind::Return && !ctx.in_callable) {
    // Most conditions hold in every invocation; one that returns them all would hide the
    // rest of the kernel. Only a quarter of the invocations may leave.
    Expr lane = node(ExprKind::Builtin, u32, {}, Op::Add, std::uint32_t(Builtin::LocalIndex));
    Expr quarter = node(ExprKind::Binary, boolean,
                        {node(ExprKind::Binary, u32, {lane, constant(u32, 4)}, Op::Rem), constant(u32, 3)}, Op::Eq);
    s.exprs[0] = node(ExprKind::Binary, boolean, {std::move(quarter), std::move(s.exprs[0])}, Op::LogicalAnd);
  }
  Stmt jump;
  jump.kind = kind;
  if (kind == StmtKind::Return && ctx.in_callable) jump.exprs.push_back(expr(u32, 2, ctx));
  s.body.push_back(jump);
  return s;
}

Stmt Generator::statement(const Context& ctx) {
  bool kernel = !ctx.in_callable;
  bool uniform = kernel && ctx.depth == 0 && !returned_;
  for (;;) {
    Stmt s;
    switch (rng_.below(25)) {
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
      case 18:
      case 19:
      case 20:
      case 21:
      case 22:
      case 23:
      case 24:
        if (!kernel) continue;
        return signed_store(ctx);
      default: continue;
    }
  }
}

bool Generator::subgroup(Stmt& s, const Context& ctx) {
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
void Generator::dump_variables() {
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

Program generate(std::uint64_t seed, const GeneratorOptions& options) {
  if (options.version < 2 || options.version > latest_generator_version)
    throw std::invalid_argument("fuzz: no generator version " + std::to_string(options.version) + " (2 to " +
                                std::to_string(latest_generator_version) + ")");
  return Generator(seed, options).run(seed);
}

}  // namespace sprig::fuzz
