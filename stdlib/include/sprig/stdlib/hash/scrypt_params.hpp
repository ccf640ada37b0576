// scrypt's cost parameters (RFC 7914: N, r, p), their validation on the host, and the two
// layouts of the scratch memory every scrypt kernel shares: V (N blocks of 128 r bytes per
// lane) and X (two such blocks per lane: BlockMix's input and output).
//
// A "lane" is one of the p independent ROMix computations of one hash; a batch of h hashes
// has h * p lanes. Word w of block j of lane l lives at
//   contiguous:  (l * blocks + j) * words_per_block + w   (each lane's memory in one piece)
//   interleaved: (j * words_per_block + w) * lanes + l    (neighbouring lanes, neighbouring words)
// The interleaved layout makes the words that a subgroup's lanes touch together adjacent,
// so their loads coalesce; the test suite measures both on the simulator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"

namespace sprig::hash {

struct ScryptParams {
  std::uint32_t N = 1024;  // CPU/memory cost: a power of two, 2 <= N < 2^(16 r)
  std::uint32_t r = 1;     // block size: blocks are 128 r bytes
  std::uint32_t p = 1;     // parallelisation: independent lanes per hash
};

enum class ScryptLayout {
  Contiguous,   // each lane's V is one 128 r N-byte region
  Interleaved,  // word-interleaved across the lanes of a launch (coalesced)
};

// "contiguous" or "interleaved": the layout's name in kernel names and reports.
const char* scrypt_layout_name(ScryptLayout layout);

// The defaults are the layout and split that measured fastest (docs/benchmarks.md, "scrypt",
// has every combination). The interleaved layout coalesces every access but ROMix's data-dependent V reads, where
// each lane's 16-byte vector then costs a sector of its own; contiguous lanes read those
// 64-byte blocks whole. Cooperating quarters the registers per invocation, so four times as
// many invocations keep the same hashes in flight (that count is capped by the scratch memory).
struct ScryptOptions {
  ScryptLayout layout = ScryptLayout::Contiguous;
  // Four invocations per lane, one per Salsa20 quarter-column, exchanging words through
  // subgroup shuffles (scrypt_romix.hpp); needs subgroups of 4 to 64 invocations.
  bool cooperative = true;
  // Device memory the scratch (V and X) may take in all, which is how many hashes are in
  // flight at once. 0: one scratch buffer's worth (up to 3 GiB, scrypt_scratch_limit). More
  // is split evenly over several scratch sets (each within one buffer) whose rounds run side
  // by side, up to four sets in one ROMix launch (r <= 4); less makes rounds smaller. On a
  // large GPU more pays: 12 GiB made Litecoin's parameters 1.14-1.24x faster than one
  // buffer on an H100 (docs/benchmarks.md, "scrypt"), where a smaller GPU would run out of
  // memory, hence the modest default.
  std::uint64_t scratch_bytes = 0;
};

namespace detail {

constexpr std::uint32_t scrypt_workgroup = 64;

// Loop back-edges one invocation may take in one launch. lavapipe stops every loop of an
// invocation after 65535 back-edges in all (see pbkdf2_sha256.hpp), so ROMix runs in launches
// of at most this many BlockMix iterations (each takes 2r + 1 back-edges); on a GPU it also
// keeps each launch short of a display watchdog.
constexpr std::uint32_t scrypt_loop_budget = 60000;

bool scrypt_loops_capped(const DeviceInfo& info);

void check_scrypt_params(const char* what, const ScryptParams& params);

// Bytes of V one hash needs: p lanes of N blocks of 128 r bytes.
std::uint64_t scrypt_v_bytes_per_hash(const ScryptParams& params);

// Scratch buffers hold at most this many bytes: the device's per-binding limit, and 3 GiB.
// DeviceInfo does not carry maxMemoryAllocationSize, which is below maxStorageBufferRange on
// some drivers (NVIDIA: 2^32 - 2^21 bytes against 2^32 - 2^17); 3 GiB stays below it there
// and keeps every word index within 32 bits.
std::uint64_t scrypt_scratch_limit(const DeviceInfo& info);

// How many hashes one round of launches takes: as many as fit in the scratch limit and in
// the grid (`invocations_per_lane` invocations per lane), at most `wanted`.
std::size_t scrypt_hashes_per_round(const char* what, const DeviceInfo& info, const ScryptParams& params,
                                    std::size_t wanted, std::uint32_t invocations_per_lane);

// How a batch of `count` hashes runs: in waves of `sets` rounds side by side, each round of
// at most `per_set` hashes in a scratch set of its own (a set: at most one buffer's worth;
// ScryptOptions::scratch_bytes is split evenly over the fewest sets that hold it). Waves are
// filled evenly, so a batch just past a multiple of the wave does not end nearly empty.
struct ScryptRounds {
  std::size_t per_set = 1, sets = 1;
};

ScryptRounds scrypt_rounds(const char* what, const DeviceInfo& info, const ScryptParams& params, std::size_t count,
                           std::uint32_t invocations_per_lane, std::uint64_t scratch_bytes);

// ROMix steps (2N in all) per launch, so that each launch stays within the loop budget.
std::uint32_t scrypt_steps_per_launch(const char* what, const DeviceInfo& info, const ScryptParams& params);

// Where word `word` of block `block` of lane `lane` lives in a scratch buffer of `lanes`
// lanes of `blocks` blocks of `block_words` words (device values).
struct ScryptScratchIndex {
  ScryptLayout layout;
  UInt block_words, blocks, lanes;

  UInt operator()(const UInt& lane, const UInt& block,
                                 const UInt& word) const {
    if (layout == ScryptLayout::Contiguous) return (lane * blocks + block) * block_words + word;
    return (block * block_words + word) * lanes + lane;
  }
};

}  // namespace detail

}  // namespace sprig::hash
