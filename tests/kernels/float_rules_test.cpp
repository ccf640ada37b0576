// semantics.hpp's float rules on both backends, against the written-out values of
// float_rule_cases.hpp: round half to even, floor, ceil, trunc, fract, abs and sign;
// min, max, clamp and step with NaN and signed-zero operands. Precise kernels must give
// every bit (NaN and signed-zero operands included, sign(NaN) excepted); plain kernels the
// values of the operands whose results Vulkan does not leave to the device.
#include <cmath>

#include "backends.hpp"
#include "float_rule_cases.hpp"

using namespace sprig;
using test::ChoiceCase;
using test::RoundingCase;

namespace {

constexpr std::size_t rounding_results = 7;  // floor, ceil, trunc, round, fract, abs, sign
constexpr std::size_t choice_results = 4;    // min, max, step, clamp

auto rounding_kernel(bool precise) {
  return kernel("float_rounding_rules", [](ReadBuffer<float> x, WriteBuffer<float> out) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] {
      Float v = x[i];
      UInt o = i * std::uint32_t(rounding_results);
      out[o] = floor(v);
      out[o + 1u] = ceil(v);
      out[o + 2u] = trunc(v);
      out[o + 3u] = round(v);
      out[o + 4u] = fract(v);
      out[o + 5u] = abs(v);
      out[o + 6u] = sign(v);
    });
  }, workgroup(64).precise(precise));
}

auto choice_kernel(bool precise) {
  return kernel("float_choice_rules", [](ReadBuffer<float> x, ReadBuffer<float> y, ReadBuffer<float> z,
                                         WriteBuffer<float> out) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] {
      Float a = x[i], b = y[i], c = z[i];
      UInt o = i * std::uint32_t(choice_results);
      out[o] = min(a, b);
      out[o + 1u] = max(a, b);
      out[o + 2u] = step(a, b);
      out[o + 3u] = clamp(a, b, c);
    });
  }, workgroup(64).precise(precise));
}

std::vector<float> rounding_outputs(sprig::Device& dev, bool precise) {
  std::vector<float> x;
  for (const RoundingCase& c : test::rounding_cases()) x.push_back(c.x);
  auto out = dev.upload(std::vector<float>(x.size() * rounding_results));
  dev.run(rounding_kernel(precise), grid(x.size()), dev.upload(x), out);
  return dev.download(out);
}

std::vector<float> choice_outputs(sprig::Device& dev, bool precise) {
  std::vector<float> x, y, z;
  for (const ChoiceCase& c : test::choice_cases()) {
    x.push_back(c.x);
    y.push_back(c.y);
    z.push_back(c.z);
  }
  auto out = dev.upload(std::vector<float>(x.size() * choice_results));
  dev.run(choice_kernel(precise), grid(x.size()), dev.upload(x), dev.upload(y), dev.upload(z), out);
  return dev.download(out);
}

std::vector<float> expected(const RoundingCase& c) {
  return {c.floor, c.ceil, c.trunc, c.round, c.fract, c.abs, c.sign};
}
std::vector<float> expected(const ChoiceCase& c) { return {c.min, c.max, c.step, c.clamp}; }

}  // namespace

TEST_CASE("precise kernels round, truncate, take fract, abs and sign of halves, signed zeros and NaN bit for bit") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<float> got = rounding_outputs(dev, true);
  std::vector<RoundingCase> cases = test::rounding_cases();
  const char* names[] = {"floor", "ceil", "trunc", "round", "fract", "abs", "sign"};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<float> want = expected(cases[i]);
    for (std::size_t r = 0; r < rounding_results; ++r) {
      if (r == 6 && std::isnan(cases[i].x)) continue;  // sign(NaN): GLSL leaves FSign's to the device
      INFO(names[r] << "(" << cases[i].x << (std::signbit(cases[i].x) ? ", negative" : "") << ") = "
                    << got[i * rounding_results + r] << ", expected " << want[r]);
      CHECK(test::same_float(got[i * rounding_results + r], want[r]));
    }
  }
}

TEST_CASE("precise kernels' min, max, step and clamp pick GLSL's side for NaN and signed zeros") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<float> got = choice_outputs(dev, true);
  std::vector<ChoiceCase> cases = test::choice_cases();
  const char* names[] = {"min", "max", "step", "clamp"};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<float> want = expected(cases[i]);
    for (std::size_t r = 0; r < choice_results; ++r) {
      INFO(names[r] << " of (" << cases[i].x << ", " << cases[i].y << ", " << cases[i].z << ") = "
                    << got[i * choice_results + r] << ", expected " << want[r]);
      CHECK(test::same_float(got[i * choice_results + r], want[r]));
    }
  }
}

// Plain kernels use GLSL.std.450's instructions and declare no float controls, which
// leaves NaN and infinite operands, the sign of a zero and clamp with lo > hi to the
// device: these compare the values of the rest.
TEST_CASE("plain kernels round halves to even and agree on ordered operands") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<float> rounded = rounding_outputs(dev, false);
  std::vector<RoundingCase> rounding = test::rounding_cases();
  for (std::size_t i = 0; i < rounding.size(); ++i) {
    const RoundingCase& c = rounding[i];
    if (!std::isfinite(c.x)) continue;
    std::vector<float> want = expected(c);
    for (std::size_t r = 0; r < rounding_results; ++r) {
      INFO("result " << r << " for x = " << c.x);
      CHECK(rounded[i * rounding_results + r] == want[r]);
    }
  }
  std::vector<float> chosen = choice_outputs(dev, false);
  std::vector<ChoiceCase> choices = test::choice_cases();
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const ChoiceCase& c = choices[i];
    if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) continue;
    std::vector<float> want = expected(c);
    for (std::size_t r = 0; r < choice_results; ++r) {
      if (r == 3 && c.y > c.z) continue;  // clamp with lo > hi
      INFO("result " << r << " for (" << c.x << ", " << c.y << ", " << c.z << ")");
      CHECK(chosen[i * choice_results + r] == want[r]);
    }
  }
}
