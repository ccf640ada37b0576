// How a look-back waits before it reads a pending predecessor's status word again. SPIR-V
// has no sleep, so a pause is arithmetic the compiler cannot remove, in one of two forms:
//
// - An idle loop, on request only (ScanOptions::lookback_idle_iterations). In one H100
//   build it took large scans and compactions 7-16% faster; in a later build, measured in
//   the same run against polling at once, it changed nothing (docs/benchmarks.md, "Look-back
//   polls"), so no device idles by default.
// - Where the driver caps loops (lavapipe: every loop of an invocation stops after 65,535
//   back-edges in all, Quirk::LoopBackEdgeCap), straight-line divisions. Each poll spends
//   a back-edge, so a look-back that polls at once gives up after a few milliseconds of
//   waiting for a predecessor whose thread the OS has parked, and takes the pending
//   predecessor for a finished one: a silently wrong prefix. A loop would spend the cap
//   itself; 512 dependent divisions (about 8 us on lavapipe) stretch the wait it allows to
//   about half a second.
#pragma once

#include <cstdint>
#include <string>

#include "sprig/dsl.hpp"
#include "sprig/runtime/backend.hpp"

namespace sprig::detail {

struct PollPause {
  std::uint32_t idle_iterations = 0;     // dependent multiply-adds in a loop
  std::uint32_t straight_divisions = 0;  // dependent divisions, no loop
  bool any() const { return idle_iterations || straight_divisions; }
  std::string key() const {
    return (idle_iterations ? "/idle" + std::to_string(idle_iterations) : std::string()) +
           (straight_divisions ? "/pause" + std::to_string(straight_divisions) : std::string());
  }
};

// The straight-line pause where loops are capped.
constexpr std::uint32_t capped_loop_poll_divisions = 512;

inline PollPause poll_pause(const DeviceInfo& device) {
  PollPause pause;
  if (device.quirks.has(Quirk::LoopBackEdgeCap)) pause.straight_divisions = capped_loop_poll_divisions;
  return pause;
}

// Spends the pause in the calling lanes. `seed` must be read from memory (the status word
// just polled): a divisor the compiler can see, such as a lane index on lavapipe, turns the
// divisions into cheap multiplications. The result feeds a store that (almost) never
// happens, under a condition that compares with `seed` too: against a constant, LLVM proves
// from the divisions' range that the store cannot happen and drops them all.
inline void pause_before_next_poll(const PollPause& pause, const UInt& seed) {
  if (!pause.any()) return;
  Var<std::uint32_t> x = seed | 0x80000000u;
  if (pause.idle_iterations) for_(0u, pause.idle_iterations, [&](UInt) { x = x * 1664525u + 1013904223u; });
  UInt divisor = (seed & 7u) + 3u;
  for (std::uint32_t i = 0; i < pause.straight_divisions; ++i) x = x / divisor + 0xfff00000u;
  auto sink = shared<std::uint32_t>("poll_pause_sink");
  if_(x.load() == (seed ^ 0x9e3779b9u), [&] { sink = x.load(); });
}

}  // namespace sprig::detail
