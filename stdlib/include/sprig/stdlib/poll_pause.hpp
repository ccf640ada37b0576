// How a look-back waits before it reads a pending predecessor's status word again. SPIR-V
// has no sleep, so a pause is arithmetic the compiler cannot remove, in one of two forms:
//
// - On GPUs, for scans and compactions of many tiles, an idle loop: on the H100 polls that
//   come back at once slow large look-backs by 10-20% (docs/benchmarks.md, "Look-back
//   polls"); with few tiles a pause only adds latency.
// - Where the driver caps loops (lavapipe: every loop of an invocation stops after 65,535
//   back-edges in all, Quirk::LoopBackEdgeCap), straight-line divisions. Each poll spends
//   a back-edge, so a look-back that polls at once gives up after a few milliseconds of
//   waiting for a predecessor whose thread the OS has parked, and takes the pending
//   predecessor for a finished one: a silently wrong prefix. A loop would spend the cap
//   itself; 128 dependent divisions (about 15 us on lavapipe) stretch the wait it allows
//   to about a second.
#pragma once

#include <cstdint>
#include <string>

#include "sprig/dsl.hpp"
#include "sprig/runtime/backend.hpp"

namespace sprig::detail {

struct PollPause {
  std::uint32_t idle_iterations = 0;     // dependent multiply-adds in a loop
  std::uint32_t straight_divisions = 0;  // dependent divisions, no loop
  std::string key() const {
    return (idle_iterations ? "/idle" + std::to_string(idle_iterations) : std::string()) +
           (straight_divisions ? "/pause" + std::to_string(straight_divisions) : std::string());
  }
};

// A GPU's idle loop between polls, in dependent multiply-adds (a few cycles each), and the
// fewest tiles for which it pays; the straight-line pause where loops are capped.
constexpr std::uint32_t gpu_poll_idle_iterations = 384;
constexpr std::size_t gpu_poll_idle_min_tiles = 1024;
constexpr std::uint32_t capped_loop_poll_divisions = 512;

// The pause of a look-back over `tiles` tiles on `device` (0: the look-back of each digit
// in the radix sort, where the idle loop measured no gain).
inline PollPause poll_pause(const DeviceInfo& device, std::size_t tiles) {
  PollPause pause;
  if (device.quirks.has(Quirk::LoopBackEdgeCap)) pause.straight_divisions = capped_loop_poll_divisions;
  bool gpu = device.type == "discrete" || device.type == "integrated";
  if (gpu && tiles >= gpu_poll_idle_min_tiles) pause.idle_iterations = gpu_poll_idle_iterations;
  return pause;
}

// Spends the pause in the calling lanes. `seed` must be read from memory (the status word
// just polled): a divisor the compiler can see, such as a lane index on lavapipe, turns the
// divisions into cheap multiplications. The result feeds a store that (almost) never
// happens, under a condition that compares with `seed` too: against a constant, LLVM proves
// from the divisions' range that the store cannot happen and drops them all.
inline void pause_before_next_poll(const PollPause& pause, const UInt& seed) {
  if (!pause.idle_iterations && !pause.straight_divisions) return;
  Var<std::uint32_t> x = seed | 0x80000000u;
  if (pause.idle_iterations) for_(0u, pause.idle_iterations, [&](UInt) { x = x * 1664525u + 1013904223u; });
  UInt divisor = (seed & 7u) + 3u;
  for (std::uint32_t i = 0; i < pause.straight_divisions; ++i) x = x / divisor + 0xfff00000u;
  auto sink = shared<std::uint32_t>("poll_pause_sink");
  if_(x.load() == (seed ^ 0x9e3779b9u), [&] { sink = x.load(); });
}

}  // namespace sprig::detail
