// Math functions in precise-float kernels, rebuilt from NoContraction + - * and the exact
// division and square root, in the order the simulator evaluates them (exec_math.cpp), so
// that both backends round the same intermediate results. Functions whose GPU results
// are exact already (abs, floor, ceil, trunc, round, sign) keep their instruction, and so
// do the transcendentals and fma, which precise mode does not cover (docs/language.md).
#include <bit>

#include "emitter.hpp"

namespace sprig::compiler {

Id Emitter::emit_precise_math(const ir::Node& n) {
  using M = ir::MathFn;
  ir::TypeRef arg = n.operands.at(0)->type, scalar = ir::scalar_type(ir::ScalarKind::F32);
  Id f32 = type(scalar), bt = bool_type();
  std::uint32_t width = arg->components();
  // Operand i, component k; an operand of one component is broadcast.
  std::vector<std::vector<Id>> x;
  for (ir::NodeRef o : n.operands) x.push_back(components(value(o), o->type));
  auto at = [&](std::size_t i, std::uint32_t k) { return x[i].size() == 1 ? x[i][0] : x[i][k]; };
  auto add = [&](Id a, Id b) { return float_op(spv::Op::OpFAdd, f32, {a, b}); };
  auto sub = [&](Id a, Id b) { return float_op(spv::Op::OpFSub, f32, {a, b}); };
  auto mul = [&](Id a, Id b) { return float_op(spv::Op::OpFMul, f32, {a, b}); };
  auto div = [&](Id a, Id b) { return precise_divide(a, b, scalar); };
  auto less = [&](Id a, Id b) { return op(spv::Op::OpFOrdLessThan, bt, {a, b}); };
  auto pick = [&](Id cond, Id a, Id b) { return op(spv::Op::OpSelect, f32, {cond, a, b}); };
  auto constant = [&](float v) { return splat(scalar, std::bit_cast<std::uint32_t>(v)); };
  auto min = [&](Id a, Id b) { return pick(less(b, a), b, a); };  // semantics::min
  auto max = [&](Id a, Id b) { return pick(less(a, b), b, a); };  // semantics::max
  auto dot = [&](std::size_t i, std::size_t j) {
    Id sum = mul(at(i, 0), at(j, 0));
    for (std::uint32_t k = 1; k < width; ++k) sum = add(sum, mul(at(i, k), at(j, k)));
    return sum;
  };
  auto each = [&](const std::function<Id(std::uint32_t)>& component) {
    std::vector<Id> parts;
    for (std::uint32_t k = 0; k < n.type->components(); ++k) parts.push_back(component(k));
    return compose(n.type, parts);
  };

  switch (M(n.a)) {
    case M::Sqrt: return precise_sqrt(value(n.operands[0]), arg);
    case M::InverseSqrt: return each([&](std::uint32_t k) { return div(constant(1), precise_sqrt(at(0, k), scalar)); });
    case M::Fract:  // semantics::fract
      return each([&](std::uint32_t k) { return sub(at(0, k), glsl(GLSLstd450Floor, f32, {at(0, k)})); });
    case M::Min: return each([&](std::uint32_t k) { return min(at(0, k), at(1, k)); });
    case M::Max: return each([&](std::uint32_t k) { return max(at(0, k), at(1, k)); });
    case M::Clamp:  // semantics::clamp
      return each([&](std::uint32_t k) { return min(max(at(0, k), at(1, k)), at(2, k)); });
    case M::Step:  // semantics::step
      return each([&](std::uint32_t k) { return pick(less(at(1, k), at(0, k)), constant(0), constant(1)); });
    case M::Mix:
      return each([&](std::uint32_t k) { return add(mul(at(0, k), sub(constant(1), at(2, k))), mul(at(1, k), at(2, k))); });
    case M::SmoothStep:
      return each([&](std::uint32_t k) {
        Id t = min(max(div(sub(at(2, k), at(0, k)), sub(at(1, k), at(0, k))), constant(0)), constant(1));
        return mul(mul(t, t), sub(constant(3), mul(constant(2), t)));
      });
    case M::Dot: return dot(0, 1);
    case M::Length: return precise_sqrt(dot(0, 0), scalar);
    case M::Distance: {
      Id sum = 0;
      for (std::uint32_t k = 0; k < width; ++k) {
        Id d = sub(at(0, k), at(1, k));
        sum = k == 0 ? mul(d, d) : add(sum, mul(d, d));
      }
      return precise_sqrt(sum, scalar);
    }
    case M::Normalize: {
      Id length = precise_sqrt(dot(0, 0), scalar);
      return each([&](std::uint32_t k) { return div(at(0, k), length); });
    }
    case M::Cross:
      return each([&](std::uint32_t k) {
        std::uint32_t i = (k + 1) % 3, j = (k + 2) % 3;
        return sub(mul(at(0, i), at(1, j)), mul(at(1, i), at(0, j)));
      });
    case M::Reflect: {  // I - 2 dot(N, I) N
      Id twice = mul(constant(2), dot(1, 0));
      return each([&](std::uint32_t k) { return sub(at(0, k), mul(twice, at(1, k))); });
    }
    case M::Refract: {  // operands I, N, eta
      Id d = dot(1, 0), eta = at(2, 0);
      Id kk = sub(constant(1), mul(mul(eta, eta), sub(constant(1), mul(d, d))));
      Id scale = add(mul(eta, d), precise_sqrt(kk, scalar));
      Id total_reflection = less(kk, constant(0));
      return each([&](std::uint32_t k) {
        return pick(total_reflection, constant(0), sub(mul(eta, at(0, k)), mul(scale, at(1, k))));
      });
    }
    default: return 0;
  }
}

}  // namespace sprig::compiler
