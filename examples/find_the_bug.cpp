// find_the_bug: the kernel that docs/debugging-a-kernel.md takes from symptom to fix. A
// three-point moving average through a shared-memory tile, written with two bugs: no
// barrier between filling the tile and reading a neighbour's element (a race), and a store
// that forgets the grid is rounded up to whole workgroups (an out-of-bounds write).
//
//   find_the_bug            the symptom on the best Vulkan device, the simulator's
//                           findings, a device_print of one invocation, then the fix
//
// Exits 0 when the simulator finds both bugs in the buggy kernel, and the fixed kernel is
// clean there and matches the CPU on both devices.
#include <cstdio>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>

using namespace sprig;

constexpr std::uint32_t group = 128;
constexpr std::uint32_t n = 1000;  // not a multiple of the workgroup size

// out[i] = (in[i-1] + in[i] + in[i+1]) / 3, with zeros beyond both ends.
auto moving_average(bool fixed) {
  return kernel(fixed ? "average3_fixed" : "average3", [fixed](ReadBuffer<std::uint32_t> in,
                                                              WriteBuffer<std::uint32_t> out) {
    // The workgroup's elements and one on each side.
    auto tile = shared_array<std::uint32_t>(group + 2, "tile");
    UInt i = global_id().x(), l = local_id().x();
    UInt size = in.size();
    auto load = [&](UInt at, UInt element) {
      Var<UInt> value = 0u;
      if_(element < size, [&] { value = in[element]; });
      tile[at] = value;
    };
    load(l + 1u, i);
    if_(l == 0u, [&] {
      Var<UInt> left = 0u;
      if_(i > 0u, [&] { left = in[i - 1u]; });
      tile[0u] = left;
    });
    if_(l == group - 1, [&] { load(group + 1, i + 1u); });
    if (fixed) barrier();  // the bug: without it, a neighbour's element may not be there yet
    UInt sum = tile[l] + tile[l + 1u] + tile[l + 2u];
    device_print("tile[{}..{}] = {} {} {}", l, l + 2u, tile[l], tile[l + 1u], tile[l + 2u]);
    if (fixed) {
      if_(i < size, [&] { out[i] = sum / 3u; });
    } else {
      out[i] = sum / 3u;  // the bug: the last workgroup's invocations past n write past the end
    }
  }, workgroup(group).names("in", "out"));
}

std::vector<std::uint32_t> expected(const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    std::uint32_t left = i > 0 ? in[i - 1] : 0, right = i + 1 < in.size() ? in[i + 1] : 0;
    out[i] = (left + in[i] + right) / 3;
  }
  return out;
}

std::size_t mismatches(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < want.size(); ++i) count += got[i] != want[i];
  return count;
}

// Runs the kernel over `input` with every print switched off but those of `printing`; the
// first n outputs. On a GPU, `out` has room for the whole grid, so that the buggy kernel's
// stray stores land in it rather than in whatever buffer follows (on the simulator it has n
// elements, and the stray stores are caught).
std::vector<std::uint32_t> run(sprig::Device& device, bool fixed, const std::vector<std::uint32_t>& input,
                               PrintFilter printing) {
  PrintOptions prints;
  prints.filter = printing;
  device.set_print_options(prints);
  const bool simulated = device.info().backend == "simulator";
  auto out = device.alloc<std::uint32_t>(simulated ? n : (n + group - 1) / group * group);
  device.run(moving_average(fixed), grid(n), device.upload(input), out);
  std::vector<std::uint32_t> got = device.download(out);
  got.resize(n);
  return got;
}

int main() {
  std::vector<std::uint32_t> input(n);
  for (std::uint32_t i = 0; i < n; ++i) input[i] = (i * 2654435761u) >> 20;
  const std::vector<std::uint32_t> want = expected(input);
  const PrintFilter nobody = PrintFilter::invocation(n + group);  // an invocation that does not exist

  vk::Device gpu = vk::Device::best();
  std::printf("1. The symptom, on %s: %zu of %u averages differ from the CPU's\n", gpu.name().c_str(),
              mismatches(run(gpu, false, input, nobody), want), n);

  std::printf("\n2. The simulator's findings:\n");
  sim::Device simulator;
  run(simulator, false, input, nobody);
  const sim::Report buggy = simulator.report();
  try {
    sim::require_clean(buggy);
  } catch (const sim::AnalysisFailure& e) {
    std::printf("%s\n", e.what());
  }
  const bool found_race = !buggy.races.empty();
  const bool found_overrun = buggy.find(sim::Problem::OutOfBounds) != nullptr;

  std::printf("3. What invocation 31 read, on the simulator and on %s:\n", gpu.name().c_str());
  run(simulator, false, input, PrintFilter::invocation(31));
  run(gpu, false, input, PrintFilter::invocation(31));

  std::printf("\n4. The fix (a barrier, and a guarded store):\n");
  sim::Device checked;
  const std::size_t sim_wrong = mismatches(run(checked, true, input, nobody), want);
  const bool clean = checked.report().clean();
  const std::size_t gpu_wrong = mismatches(run(gpu, true, input, nobody), want);
  std::printf("simulator: %zu of %u differ, report %s; %s: %zu differ\n", sim_wrong, n,
              clean ? "clean" : "NOT clean", gpu.name().c_str(), gpu_wrong);

  const bool ok = found_race && found_overrun && clean && sim_wrong == 0 && gpu_wrong == 0;
  if (!ok) std::printf("unexpected: race found %d, overrun found %d\n", found_race, found_overrun);
  return ok ? 0 : 1;
}
