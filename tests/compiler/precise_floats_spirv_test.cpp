// Precise-float kernels: every float + - * and negation carries NoContraction, division
// and square root are calls of integer-only helpers (no OpFDiv, no Sqrt), each helper is
// emitted once; plain kernels are unchanged; the flag reaches the hash and the printer.
#include <set>

#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

namespace {

bool calls(const test::Module& m, const std::string& name) { return m.text.find(" " + name + " ") != std::string::npos; }

// Result ids of the module's float + - * and negations.
std::set<std::uint32_t> float_arithmetic_results(const test::Module& m) {
  std::set<std::uint32_t> ids;
  for (spv::Op code : {spv::Op::OpFAdd, spv::Op::OpFSub, spv::Op::OpFMul, spv::Op::OpFNegate})
    for (const auto& operands : m.instructions(code)) ids.insert(operands.at(1));
  return ids;
}

std::set<std::uint32_t> no_contraction_targets(const test::Module& m) {
  std::set<std::uint32_t> ids;
  for (const auto& operands : m.instructions(spv::Op::OpDecorate))
    if (operands.at(1) == std::uint32_t(spv::Decoration::NoContraction)) ids.insert(operands.at(0));
  return ids;
}

template <class Options>
auto float_kernel(Options options) {
  return kernel("floats", [](ReadBuffer<float> a, ReadBuffer<vec4> v, WriteBuffer<float> out) {
    UInt i = global_id().x();
    Float x = a[i], y = a[i + 1u];
    Vec4 w = v[i] * v[i + 1u] + v[i] / v[i + 2u];
    out[i] = x * y + x / y - sqrt(x) + (-y) / x + sqrt(y) + w.x() + dot(w, w) + length(w);
  }, options);
}

}  // namespace

TEST_CASE("precise kernels decorate every float + - * NoContraction and emit no OpFDiv or Sqrt") {
  test::Module m = valid_module(float_kernel(workgroup(64).precise()));
  std::set<std::uint32_t> arithmetic = float_arithmetic_results(m);
  CHECK(arithmetic.size() >= 8);
  CHECK(no_contraction_targets(m) == arithmetic);
  CHECK_FALSE(m.contains(spv::Op::OpFDiv));
  CHECK_FALSE(m.contains(spv::Op::OpDot));
  CHECK_FALSE(calls(m, "Sqrt"));
  CHECK_FALSE(calls(m, "InverseSqrt"));
  // main, one division helper and one square-root helper, however often they are called.
  CHECK(m.count(spv::Op::OpFunction) == 3);
  CHECK(m.count(spv::Op::OpFunctionCall) >= 8);
  // 32-bit integer operations only: no Int64 or Float64.
  CHECK_FALSE(m.has_capability(spv::Capability::Int64));
  CHECK_FALSE(m.has_capability(spv::Capability::Float64));
}

TEST_CASE("plain kernels keep OpFDiv, Sqrt and contraction") {
  test::Module m = valid_module(float_kernel(workgroup(64).precise(false)));  // whatever SPRIG_PRECISE_FLOATS says
  CHECK(no_contraction_targets(m).empty());
  CHECK(m.contains(spv::Op::OpFDiv));
  CHECK(calls(m, "Sqrt"));
  CHECK(m.contains(spv::Op::OpDot));
  CHECK(m.count(spv::Op::OpFunction) == 1);
}

TEST_CASE("precise and plain kernels hash apart and print their mode") {
  auto plain = float_kernel(workgroup(64).precise(false));
  auto precise = float_kernel(workgroup(64).precise());
  CHECK(plain.hash() != precise.hash());
  CHECK(precise.hash() == float_kernel(workgroup(64).precise(true)).hash());
  CHECK(ir::print(*precise.ir(), false).find("precise_floats") != std::string::npos);
  CHECK(ir::print(*plain.ir(), false).find("precise_floats") == std::string::npos);
}

TEST_CASE("set_precise_floats is the default of kernels that do not choose") {
  bool before = precise_floats_default();
  set_precise_floats(true);
  auto by_default = float_kernel(workgroup(64));
  auto opted_out = float_kernel(workgroup(64).precise(false));
  set_precise_floats(false);
  auto plain = float_kernel(workgroup(64));
  set_precise_floats(before);
  CHECK(by_default.ir()->precise_floats);
  CHECK_FALSE(opted_out.ir()->precise_floats);
  CHECK_FALSE(plain.ir()->precise_floats);
}

TEST_CASE("every float math function validates in precise kernels, scalars and vectors") {
  auto scalars = kernel("precise_float_math", [](Float x, Float y, WriteBuffer<float> out) {
    out[0] = abs(x) + min(x, y) + max(x, y) + clamp(x, 0.0f, 1.0f) + floor(x) + ceil(x) + fract(x) + round(x) +
             trunc(x) + sqrt(x) + inversesqrt(x) + exp(x) + exp2(x) + log(x) + log2(x) + pow(x, y);
    out[1] = sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x) + atan2(y, x) + mix(x, y, 0.25f) + step(y, x) +
             smoothstep(0.0f, 1.0f, x) + fma(x, y, 1.0f) + sign(x) + length(x) + distance(x, y) + normalize(x) +
             dot(x, y) + reflect(x, y) + refract(x, y, 0.5f);
  }, workgroup(64).precise());
  test::Module s = valid_module(scalars);
  CHECK(no_contraction_targets(s) == float_arithmetic_results(s));
  CHECK_FALSE(s.contains(spv::Op::OpFDiv));
  CHECK_FALSE(calls(s, "Sqrt"));
  CHECK_FALSE(calls(s, "FMix"));
  auto vectors = kernel("precise_vector_math", [](Vec4 x, Vec4 y, Float t, WriteBuffer<vec4> out) {
    Vec3 c = cross(x.xyz(), y.xyz());
    Float d = dot(x, y) + length(x) + distance(x, y);
    out[0] = normalize(x) + reflect(x, y) + refract(x, y, 0.9f) + mix(x, y, t) + mix(x, y, y) + smoothstep(x, y, y) +
             clamp(x, y, y) + min(x, y) + max(x, 0.5f) + step(x, y) + fract(y) + inversesqrt(y) + d + c.x();
  }, workgroup(64).precise());
  test::Module v = valid_module(vectors);
  CHECK(no_contraction_targets(v) == float_arithmetic_results(v));
  CHECK_FALSE(v.contains(spv::Op::OpDot));
  CHECK_FALSE(calls(v, "Cross"));
  CHECK_FALSE(calls(v, "Normalize"));
  CHECK_FALSE(calls(v, "Sqrt"));
}

TEST_CASE("precise kernels declare the float controls the device allows, plain kernels none") {
  compiler::CompileOptions options;
  options.float32_denorm_preserve = options.float32_signed_zero_inf_nan_preserve = options.float32_rounding_mode_rte = true;
  auto modes = [&](const auto& k) {
    test::Module m;
    m.words = compiler::compile(*k.ir(), options);  // validates
    std::set<std::uint32_t> declared;
    for (const auto& operands : m.instructions(spv::Op::OpExecutionMode))
      if (operands.at(1) != std::uint32_t(spv::ExecutionMode::LocalSize) && operands.at(2) == 32) declared.insert(operands.at(1));
    CHECK(m.has_capability(spv::Capability::DenormPreserve) == !declared.empty());
    return declared;
  };
  CHECK(modes(float_kernel(workgroup(64).precise())) ==
        std::set<std::uint32_t>{std::uint32_t(spv::ExecutionMode::DenormPreserve),
                                std::uint32_t(spv::ExecutionMode::SignedZeroInfNanPreserve),
                                std::uint32_t(spv::ExecutionMode::RoundingModeRTE)});
  CHECK(modes(float_kernel(workgroup(64).precise(false))).empty());
  options.float32_denorm_preserve = options.float32_signed_zero_inf_nan_preserve = options.float32_rounding_mode_rte = false;
  CHECK(modes(float_kernel(workgroup(64).precise())).empty());
}
