#include "runner.hpp"

#include <bit>
#include <cmath>
#include <sstream>

#include "fuzz_kernel.hpp"

namespace sprig::fuzz {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Match: return "match";
    case Verdict::Mismatch: return "mismatch";
    case Verdict::GeneratorBug: return "generator bug";
    case Verdict::InvalidSpirv: return "invalid SPIR-V";
    case Verdict::SimulatorFailure: return "simulator failure";
    case Verdict::DeviceFailure: return "device failure";
  }
  return "?";
}

namespace {

// Exactly computed floats may still differ where Vulkan lets devices differ: NaN payloads,
// the sign of zero (min/max of -0 and +0) and denormals (flushed to zero).
std::uint32_t canonical_float_bits(std::uint32_t bits) {
  float f = std::bit_cast<float>(bits);
  if (std::isnan(f)) return 0x7FC00000u;
  if (f == 0.0f || std::fpclassify(f) == FP_SUBNORMAL) return 0;
  return bits;
}

// The tolerance for float built-ins without exact results: Vulkan's precision for division
// (2.5 ulp), sqrt, exp and log (a few ulp), sin and cos (2^-11 absolute in [-pi, pi]) all
// fall well inside 2^-9 relative to max(1, |a|, |b|).
bool close_enough(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  double scale = std::max({1.0, std::fabs(double(a)), std::fabs(double(b))});
  return std::fabs(double(a) - double(b)) <= scale / 512.0;
}

std::string hex(std::uint64_t v) {
  std::ostringstream out;
  out << "0x" << std::hex << v;
  return out.str();
}

template <class T, class Same, class Show>
void compare_buffer(std::ostringstream& out, int& reported, const char* name, const std::vector<T>& a,
                    const std::vector<T>& b, Same same, Show show) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (same(a[i], b[i])) continue;
    if (reported++ < 8)
      out << name << "[" << i << "] (invocation " << i / slots_per_invocation << ", slot " << i % slots_per_invocation
          << "): simulator " << show(a[i]) << ", device " << show(b[i]) << "\n";
  }
}

std::vector<std::uint32_t> atomic_initial32() {
  std::vector<std::uint32_t> v(atomic_counters * 7);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint32_t(0x9E3779B9u * (i + 1));
  return v;
}
std::vector<std::uint64_t> atomic_initial64() {
  std::vector<std::uint64_t> v(atomic_counters * 7);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0x9E3779B97F4A7C15ull * (i + 1);
  return v;
}

}  // namespace

Outputs execute(sprig::Device& dev, const FuzzKernel& k, const Program& p) {
  std::size_t slots = std::size_t(invocations(p)) * slots_per_invocation;
  auto in32 = dev.upload(p.in32);
  auto in64 = dev.upload(p.in64);
  auto out32 = dev.upload(std::vector<std::uint32_t>(slots, 0));
  auto out64 = dev.upload(std::vector<std::uint64_t>(slots, 0));
  auto outf = dev.upload(std::vector<std::uint32_t>(slots, 0));
  auto outa = dev.upload(std::vector<float>(slots, 0.0f));
  auto atom32 = dev.upload(atomic_initial32());
  auto atom64 = dev.upload(atomic_initial64());
  dev.run(k, grid(invocations(p)), in32, in64, out32, out64, outf, outa, atom32, atom64, p.param);
  return {dev.download(out32), dev.download(outf), dev.download(atom32),
          dev.download(out64), dev.download(atom64), dev.download(outa)};
}

std::string compare_outputs(const Outputs& a, const Outputs& b) {
  std::ostringstream out;
  int reported = 0;
  auto equal = [](auto x, auto y) { return x == y; };
  auto show_hex = [](auto x) { return hex(std::uint64_t(x)); };
  compare_buffer(out, reported, "out32", a.out32, b.out32, equal, show_hex);
  compare_buffer(out, reported, "out64", a.out64, b.out64, equal, show_hex);
  compare_buffer(
      out, reported, "outf", a.outf, b.outf,
      [](std::uint32_t x, std::uint32_t y) { return canonical_float_bits(x) == canonical_float_bits(y); },
      [](std::uint32_t x) {
        std::ostringstream s;
        s << std::bit_cast<float>(x) << " (" << hex(x) << ")";
        return s.str();
      });
  compare_buffer(out, reported, "outa", a.outa, b.outa, close_enough, [](float x) {
    std::ostringstream s;
    s.precision(9);
    s << x;
    return s.str();
  });
  compare_buffer(out, reported, "atom32", a.atom32, b.atom32, equal, show_hex);
  compare_buffer(out, reported, "atom64", a.atom64, b.atom64, equal, show_hex);
  if (reported > 8) out << "... " << reported - 8 << " more\n";
  return out.str();
}

Runner::Runner(vk::Device& device) : device_(device), subgroup_size_(device.info().subgroup_size) {
  sim::Options options;
  options.strict = true;
  options.subgroup_size = subgroup_size_;
  simulator_ = std::make_unique<sim::Device>(options);
}

Outcome Runner::run(const Program& program) {
  // Devices with a choice of subgroup sizes are pinned to the one the simulator uses.
  std::uint32_t required = device_.info().min_subgroup_size != device_.info().max_subgroup_size ? subgroup_size_ : 0;
  std::optional<FuzzKernel> k;
  try {
    k.emplace(trace_program(program, required));
  } catch (const std::exception& e) {
    return {Verdict::GeneratorBug, e.what()};
  }
  try {
    std::string errors = compiler::validation_errors(compiler::emit(*k->ir()));
    if (!errors.empty()) return {Verdict::InvalidSpirv, errors};
  } catch (const std::exception& e) {
    return {Verdict::InvalidSpirv, e.what()};
  }
  Outputs expected, got;
  try {
    expected = execute(*simulator_, *k, program);
  } catch (const std::exception& e) {
    simulator_->clear_report();
    return {Verdict::SimulatorFailure, e.what()};
  }
  simulator_->clear_report();
  try {
    got = execute(device_, *k, program);
  } catch (const std::exception& e) {
    return {Verdict::DeviceFailure, e.what()};
  }
  std::string differences = compare_outputs(expected, got);
  if (!differences.empty()) return {Verdict::Mismatch, differences};
  return {};
}

}  // namespace sprig::fuzz
