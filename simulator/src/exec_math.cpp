// GLSL.std.450 math (ir::MathFn). Rounding, min/max/clamp/step, fract, abs and sign are
// the semantics table's functions (semantics.hpp); the other float functions use the C++
// library, whose results are within the Vulkan spec's precision of a GPU's.
#include <cmath>
#include <type_traits>

#include "context.hpp"
#include "program_builder.hpp"
#include "sprig/dsl/semantics.hpp"

namespace sprig::sim {

namespace {

template <class T>
constexpr bool is_int = semantics::Integer<T>;
template <class T>
constexpr bool is_float = std::is_same_v<T, float>;
template <class T>
constexpr bool is_number = is_int<T> || is_float<T>;

// ---- component-wise functions
template <float (*fn)(float)>
struct FloatUnary {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static T apply(T x) { return fn(x); }
};

float sqrt_f(float x) { return std::sqrt(x); }
float inverse_sqrt_f(float x) { return 1.0f / std::sqrt(x); }
float exp_f(float x) { return std::exp(x); }
float exp2_f(float x) { return std::exp2(x); }
float log_f(float x) { return std::log(x); }
float log2_f(float x) { return std::log2(x); }
float sin_f(float x) { return std::sin(x); }
float cos_f(float x) { return std::cos(x); }
float tan_f(float x) { return std::tan(x); }
float asin_f(float x) { return std::asin(x); }
float acos_f(float x) { return std::acos(x); }
float atan_f(float x) { return std::atan(x); }

struct Abs {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T x) { return semantics::abs(x); }
};
struct Sign {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T x) { return semantics::sign(x); }
};
struct IsNan {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static bool apply(T x) { return std::isnan(x); }
};
struct IsInf {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static bool apply(T x) { return std::isinf(x); }
};
struct Min {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T x, T y) { return semantics::min(x, y); }
};
struct Max {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T x, T y) { return semantics::max(x, y); }
};
struct Clamp {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T x, T lo, T hi) { return semantics::clamp(x, lo, hi); }
};
struct Pow {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static T apply(T x, T y) { return std::pow(x, y); }
};
struct Atan2 {  // operands (y, x)
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static T apply(T y, T x) { return std::atan2(y, x); }
};
struct Step {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static T apply(T edge, T x) { return semantics::step(edge, x); }
};
struct Mix {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static T apply(T x, T y, T a) { return x * (1.0f - a) + y * a; }
};
struct SmoothStep {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static T apply(T e0, T e1, T x) {
    T t = semantics::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
  }
};
struct Fma {
  template <class T> static constexpr bool accepts = is_float<T>;
  template <class T> static T apply(T a, T b, T c) { return std::fma(a, b, c); }
};

// An operand with one component while the result has several is broadcast (aux bit i for
// operand i), as GLSL allows for mix's weight.
template <class T, class F>
void unary(Context& c, const Instr& in) {
  const std::size_t n = std::size_t(in.count) * c.width;
  Word* d = c.reg(in.dst);
  const Word* x = c.reg(in.src[0]);
  for (std::size_t i = 0; i < n; ++i) d[i] = put(F::template apply<T>(get<T>(x[i])));
}

template <class T, class F>
void binary(Context& c, const Instr& in) {
  for (std::uint32_t k = 0; k < in.count; ++k) {
    Word* d = c.reg(in.dst + k);
    const Word* x = c.reg(in.src[0] + ((in.aux & 1) ? 0 : k));
    const Word* y = c.reg(in.src[1] + ((in.aux & 2) ? 0 : k));
    for (std::uint32_t l = 0; l < c.width; ++l) d[l] = put(F::template apply<T>(get<T>(x[l]), get<T>(y[l])));
  }
}

template <class T, class F>
void ternary(Context& c, const Instr& in) {
  for (std::uint32_t k = 0; k < in.count; ++k) {
    Word* d = c.reg(in.dst + k);
    const Word* x = c.reg(in.src[0] + ((in.aux & 1) ? 0 : k));
    const Word* y = c.reg(in.src[1] + ((in.aux & 2) ? 0 : k));
    const Word* z = c.reg(in.src[2] + ((in.aux & 4) ? 0 : k));
    for (std::uint32_t l = 0; l < c.width; ++l)
      d[l] = put(F::template apply<T>(get<T>(x[l]), get<T>(y[l]), get<T>(z[l])));
  }
}

template <class F, std::size_t arity>
Handler componentwise_for(ir::ScalarKind k) {
  return with_scalar_type(k, []<class T>() -> Handler {
    if constexpr (!F::template accepts<T>) return nullptr;
    else if constexpr (arity == 1) return &unary<T, F>;
    else if constexpr (arity == 2) return &binary<T, F>;
    else return &ternary<T, F>;
  });
}

// ---- geometry: float vectors (aux = the operands' component count)
struct Lane {
  Context& c;
  const Instr& in;
  std::uint32_t l;
  float operand(std::uint32_t i, std::uint32_t k) const { return get<float>(c.reg(in.src[i] + k)[l]); }
  void result(std::uint32_t k, float v) const { c.reg(in.dst + k)[l] = put(v); }
  // Summed from the first product, not from 0 (0 + -0 would be +0), left to right: the
  // order precise-float kernels emit (compiler/src/emit_precise_math.cpp).
  float dot(std::uint32_t a, std::uint32_t b) const {
    float s = operand(a, 0) * operand(b, 0);
    for (std::uint32_t k = 1; k < in.aux; ++k) s += operand(a, k) * operand(b, k);
    return s;
  }
};

template <class F>
void geometric(Context& c, const Instr& in) {
  for (std::uint32_t l = 0; l < c.width; ++l) F::apply(Lane{c, in, l});
}

struct Dot {
  static void apply(const Lane& x) { x.result(0, x.dot(0, 1)); }
};
struct Length {
  static void apply(const Lane& x) { x.result(0, std::sqrt(x.dot(0, 0))); }
};
struct Distance {
  static void apply(const Lane& x) {
    float s = 0;
    for (std::uint32_t k = 0; k < x.in.aux; ++k) {
      float d = x.operand(0, k) - x.operand(1, k);
      s = k == 0 ? d * d : s + d * d;
    }
    x.result(0, std::sqrt(s));
  }
};
struct Normalize {
  static void apply(const Lane& x) {
    float len = std::sqrt(x.dot(0, 0));
    for (std::uint32_t k = 0; k < x.in.aux; ++k) x.result(k, x.operand(0, k) / len);
  }
};
struct Cross {
  static void apply(const Lane& x) {
    auto a = [&](std::uint32_t k) { return x.operand(0, k); };
    auto b = [&](std::uint32_t k) { return x.operand(1, k); };
    x.result(0, a(1) * b(2) - b(1) * a(2));
    x.result(1, a(2) * b(0) - b(2) * a(0));
    x.result(2, a(0) * b(1) - b(0) * a(1));
  }
};
struct Reflect {  // I - 2 dot(N, I) N
  static void apply(const Lane& x) {
    float d = x.dot(1, 0);
    for (std::uint32_t k = 0; k < x.in.aux; ++k) x.result(k, x.operand(0, k) - 2.0f * d * x.operand(1, k));
  }
};
struct Refract {  // operands I, N, eta
  static void apply(const Lane& x) {
    float d = x.dot(1, 0), eta = x.operand(2, 0);
    float k = 1.0f - eta * eta * (1.0f - d * d);
    for (std::uint32_t i = 0; i < x.in.aux; ++i)
      x.result(i, k < 0.0f ? 0.0f : eta * x.operand(0, i) - (eta * d + std::sqrt(k)) * x.operand(1, i));
  }
};

// aux = the operands' component count.
template <class F>
Handler geometric_for(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  if (!n.operands[0]->type->is_float()) b.unsupported(n, "geometric functions of non-float values");
  in.aux = n.operands[0]->type->components();
  return geometric<F>;
}

}  // namespace

void lower_math(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  using M = ir::MathFn;
  if (n.operands.empty()) b.unsupported(n, "math without operands");
  for (std::size_t i = 0; i < n.operands.size() && i < 3; ++i)
    if (n.operands[i]->type->components() == 1 && in.count > 1) in.aux |= 1u << i;
  const ir::ScalarKind k = n.operands[0]->type->scalar;
  switch (M(n.a)) {
    case M::Abs: in.run = componentwise_for<Abs, 1>(k); break;
    case M::Sign: in.run = componentwise_for<Sign, 1>(k); break;
    case M::IsNan: in.run = componentwise_for<IsNan, 1>(k); break;
    case M::IsInf: in.run = componentwise_for<IsInf, 1>(k); break;
    case M::Floor: in.run = componentwise_for<FloatUnary<semantics::floor>, 1>(k); break;
    case M::Ceil: in.run = componentwise_for<FloatUnary<semantics::ceil>, 1>(k); break;
    case M::Fract: in.run = componentwise_for<FloatUnary<semantics::fract>, 1>(k); break;
    case M::Round: in.run = componentwise_for<FloatUnary<semantics::round_even>, 1>(k); break;
    case M::Trunc: in.run = componentwise_for<FloatUnary<semantics::trunc>, 1>(k); break;
    case M::Sqrt: in.run = componentwise_for<FloatUnary<sqrt_f>, 1>(k); break;
    case M::InverseSqrt: in.run = componentwise_for<FloatUnary<inverse_sqrt_f>, 1>(k); break;
    case M::Exp: in.run = componentwise_for<FloatUnary<exp_f>, 1>(k); break;
    case M::Exp2: in.run = componentwise_for<FloatUnary<exp2_f>, 1>(k); break;
    case M::Log: in.run = componentwise_for<FloatUnary<log_f>, 1>(k); break;
    case M::Log2: in.run = componentwise_for<FloatUnary<log2_f>, 1>(k); break;
    case M::Sin: in.run = componentwise_for<FloatUnary<sin_f>, 1>(k); break;
    case M::Cos: in.run = componentwise_for<FloatUnary<cos_f>, 1>(k); break;
    case M::Tan: in.run = componentwise_for<FloatUnary<tan_f>, 1>(k); break;
    case M::Asin: in.run = componentwise_for<FloatUnary<asin_f>, 1>(k); break;
    case M::Acos: in.run = componentwise_for<FloatUnary<acos_f>, 1>(k); break;
    case M::Atan: in.run = componentwise_for<FloatUnary<atan_f>, 1>(k); break;
    case M::Min: in.run = componentwise_for<Min, 2>(k); break;
    case M::Max: in.run = componentwise_for<Max, 2>(k); break;
    case M::Pow: in.run = componentwise_for<Pow, 2>(k); break;
    case M::Atan2: in.run = componentwise_for<Atan2, 2>(k); break;
    case M::Step: in.run = componentwise_for<Step, 2>(k); break;
    case M::Clamp: in.run = componentwise_for<Clamp, 3>(k); break;
    case M::Mix: in.run = componentwise_for<Mix, 3>(k); break;
    case M::SmoothStep: in.run = componentwise_for<SmoothStep, 3>(k); break;
    case M::Fma: in.run = componentwise_for<Fma, 3>(k); break;
    case M::Dot: in.run = geometric_for<Dot>(b, n, in); break;
    case M::Length: in.run = geometric_for<Length>(b, n, in); break;
    case M::Distance: in.run = geometric_for<Distance>(b, n, in); break;
    case M::Normalize: in.run = geometric_for<Normalize>(b, n, in); break;
    case M::Cross: in.run = geometric_for<Cross>(b, n, in); break;
    case M::Reflect: in.run = geometric_for<Reflect>(b, n, in); break;
    case M::Refract: in.run = geometric_for<Refract>(b, n, in); break;
  }
  if (!in.run)
    b.unsupported(n, std::string(ir::math_function_name(M(n.a))) + " on " + ir::to_string(n.operands[0]->type));
}

}  // namespace sprig::sim
