// scrypt's ROMix (RFC 7914 section 5) over the scratch buffers V and X, with N and r as
// device values, in launches of a bounded number of steps (scrypt_params.hpp says why).
//
// Step s < N of a lane is V[s+1] = BlockMix(V[s]) (the last one writes X slot 0 instead);
// step N + t is X[slot (t+1)&1] = BlockMix(X[slot t&1] ^ V[Integerify(X) mod N]). N is even,
// so the result lands in X slot 0. BlockMix reads its input's 64-byte blocks in order and
// keeps the running Salsa20/8 state in variables; block i of the output goes to position
// i/2 (even i) or r + i/2 (odd i).
//
// Two ways to spread the work over invocations, chosen at trace time:
// * one invocation per lane, holding all 16 words of the Salsa state;
// * cooperative: four neighbouring invocations of a subgroup per lane, invocation q holding
//   the words 5q, 5q+4, 5q+8, 5q+12 (mod 16) of each 64-byte block — one Salsa quarter-column
//   each, so the column quarter-rounds need no exchange and the row quarter-rounds take
//   three subgroup shuffles in and three back. Each invocation reads and writes only its own
//   words of the scratch memory, so no barrier is needed; Integerify's word (word 0, held by
//   q = 0) reaches the others by a shuffle.
// Cooperating pays on a GPU: a quarter of the state per invocation (fewer registers, more
// invocations in flight) and four invocations reading one 64-byte block together
// (docs/benchmarks.md, "scrypt", compares it with one invocation per lane).
//
// Two forms of the steps: the generic one below (any r; X in the scratch buffer, re-read each
// step) and, for r <= scrypt_register_r_max, scrypt_romix_register_steps (X in registers, V
// as uvec4s), which scrypt_romix picks.
#pragma once

#include <string>
#include <vector>

#include "sprig/stdlib/hash/salsa20_8.hpp"
#include "sprig/stdlib/hash/scrypt_params.hpp"
#include "sprig/stdlib/hash/word_vars.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

namespace detail {

using ScryptWords = std::vector<UInt>;

// How the invocations of a lane share the Salsa state: the word offsets (within a 64-byte
// block) this invocation holds, the Salsa20/8 core on them, and Integerify's broadcast.
struct ScryptMixer {
  std::vector<std::uint32_t> fixed_offsets;  // per-invocation: 0..15
  ScryptWords offsets;                       // device values (cooperative: depend on q)
  bool cooperative = false;
  UInt group_base = 0u, quarter = 0u;  // cooperative: lane ids in the subgroup

  // The lane id of the group member `k` places after this one (mod 4).
  UInt partner(std::uint32_t k) const { return group_base + ((quarter + k) & 3u); }

  ScryptWords mix(const ScryptWords& in) const {
    if (!cooperative) {
      SalsaWords x = zero_words<16>();
      for (std::size_t w = 0; w < 16; ++w) x[w] = in[w];
      SalsaWords out = salsa20_8(x);
      return ScryptWords(out.begin(), out.end());
    }
    // a, b, c, d: words 5q, 5q+4, 5q+8, 5q+12 — a column quarter-round's inputs. For the rows,
    // invocation q needs b from q+1's d, c from q+2's c and d from q+3's b.
    UInt a = in[0], b = in[1], c = in[2], d = in[3];
    for (int round = 0; round < 8; round += 2) {
      salsa20_quarter_round(a, b, c, d);
      UInt row_b = subgroup_shuffle(d, partner(1));
      UInt row_c = subgroup_shuffle(c, partner(2));
      UInt row_d = subgroup_shuffle(b, partner(3));
      salsa20_quarter_round(a, row_b, row_c, row_d);
      d = subgroup_shuffle(row_b, partner(3));
      c = subgroup_shuffle(row_c, partner(2));
      b = subgroup_shuffle(row_d, partner(1));
    }
    return {a + in[0], b + in[1], c + in[2], d + in[3]};
  }

  // Integerify's word (word 0 of the last 64-byte block), given this invocation's first
  // held word of that block.
  UInt word_zero(const UInt& first_held) const {
    return cooperative ? subgroup_shuffle(first_held, group_base) : first_held;
  }
};

// One BlockMix: src(i, w) is word w of input block i (0 <= i < 2r), dst(i, w, value) writes
// word w of output block i; w runs over the mixer's offsets.
template <class Src, class Dst>
void scrypt_blockmix(const ScryptMixer& mixer, const UInt& r, const Src& src, const Dst& dst) {
  std::size_t held = mixer.offsets.size();
  std::vector<Var<std::uint32_t>> x;
  x.reserve(held);
  for (std::size_t k = 0; k < held; ++k) x.emplace_back(src(r * 2u - 1u, mixer.offsets[k]));
  for_(0u, r * 2u, [&](UInt i) {
    ScryptWords in;
    for (std::size_t k = 0; k < held; ++k) in.push_back(src(i, mixer.offsets[k]) ^ x[k].load());
    ScryptWords out = mixer.mix(in);
    UInt position = (i >> 1u) + (i & 1u) * r;
    for (std::size_t k = 0; k < held; ++k) {
      x[k] = out[k];
      dst(position, mixer.offsets[k], out[k]);
    }
  });
}

// Steps [begin, end) of ROMix for every lane below `lanes`.
inline void scrypt_romix_steps(const ScryptMixer& mixer, ScryptLayout layout, const Buffer<std::uint32_t>& v,
                               const Buffer<std::uint32_t>& x, const UInt& lane,
                               const UInt& r, const UInt& n,
                               const UInt& lanes, const UInt& begin,
                               const UInt& end) {
  UInt block_words = r * 32u;
  ScryptScratchIndex v_at{layout, block_words, n, lanes};
  ScryptScratchIndex x_at{layout, block_words, UInt(2u), lanes};
  auto v_block = [&](const UInt& j) {
    return [&, j](const UInt& i, const UInt& w) { return v[v_at(lane, j, i * 16u + w)].load(); };
  };

  // Phase 1: V[s+1] = BlockMix(V[s]); the last step writes X slot 0.
  for_(begin, min(end, n - 1u), [&](UInt s) {
    scrypt_blockmix(mixer, r, v_block(s),
                    [&](const UInt& i, const UInt& w, const UInt& value) { v[v_at(lane, s + 1u, i * 16u + w)] = value; });
  });
  if_(begin <= n - 1u && end > n - 1u, [&] {
    scrypt_blockmix(mixer, r, v_block(n - 1u),
                    [&](const UInt& i, const UInt& w, const UInt& value) { x[x_at(lane, 0u, i * 16u + w)] = value; });
  });

  // Phase 2: X = BlockMix(X ^ V[Integerify(X) mod N]), alternating between the X slots.
  for_(max(begin, n), end, [&](UInt s) {
    UInt from = (s - n) & 1u, to = from ^ 1u;
    UInt last_first = x[x_at(lane, from, (r * 2u - 1u) * 16u + mixer.offsets[0])].load();
    UInt j = mixer.word_zero(last_first) & (n - 1u);
    scrypt_blockmix(
        mixer, r,
        [&](const UInt& i, const UInt& w) {
          return x[x_at(lane, from, i * 16u + w)].load() ^ v[v_at(lane, j, i * 16u + w)].load();
        },
        [&](const UInt& i, const UInt& w, const UInt& value) { x[x_at(lane, to, i * 16u + w)] = value; });
  });
}

// ROMix with X held in registers, for r <= scrypt_register_r_max known at trace time (one
// kernel per r): BlockMix is unrolled, so its 2r blocks live in variables the compiler keeps
// in registers, and each step's only memory traffic is V — phase 1 writes X as V[s] before
// mixing it, phase 2 issues all 2r block loads of V[j] before the first Salsa core (more
// bytes in flight per lane). X goes through memory only between launches: the expansion
// writes B to X slot 0, each launch reads X from there and leaves it there for the next
// launch and the finish kernel. The generic form above re-reads X (and V[s]) from memory
// every step, and on a GPU that traffic, not V, sets the pace (docs/benchmarks.md, "scrypt").
//
// V is private to ROMix, so it is stored as uvec4s in whatever order suits the mixer: each
// invocation's held words of a 64-byte block, four to a vector (cooperative: its whole
// quarter-column in one 16-byte access; otherwise four). Vector v of block i of a V entry
// holds the held words 4m..4m+3 of invocation q where v = 4i + q + m.
constexpr std::uint32_t scrypt_register_r_max = 4;

inline UVec4 scrypt_pack(const UInt& a, const UInt& b,
                               const UInt& c, const UInt& d) {
  return UVec4(sprig::detail::pure(ir::Op::Construct, device_type<uvec4>(),
                                         {a.node(), b.node(), c.node(), d.node()}, a.node()->loc));
}

inline void scrypt_romix_register_steps(const ScryptMixer& mixer, ScryptLayout layout, std::uint32_t r,
                                        const Buffer<uvec4>& v, const Buffer<std::uint32_t>& x,
                                        const UInt& lane, const UInt& n,
                                        const UInt& lanes, const UInt& begin,
                                        const UInt& end) {
  const std::size_t held = mixer.offsets.size(), blocks = 2 * std::size_t(r), groups = held / 4;
  ScryptScratchIndex v_at{layout, UInt(r * 8u), n, lanes};
  ScryptScratchIndex x_at{layout, UInt(r * 32u), UInt(2u), lanes};
  auto word = [&](std::size_t i, std::size_t k) { return UInt(std::uint32_t(i) * 16u) + mixer.offsets[k]; };
  UInt first_group = mixer.cooperative ? mixer.quarter : UInt(0u);
  auto vector = [&](std::size_t i, std::size_t m) { return first_group + std::uint32_t(4 * i + m); };
  std::vector<std::vector<Var<std::uint32_t>>> state(blocks);
  for (std::size_t i = 0; i < blocks; ++i) {
    state[i].reserve(held);
    for (std::size_t k = 0; k < held; ++k) state[i].emplace_back(x[x_at(lane, 0u, word(i, k))].load());
  }
  // BlockMix of `in` (2r blocks of `held` words) into the state variables.
  auto blockmix = [&](const std::vector<ScryptWords>& in) {
    ScryptWords running = in[blocks - 1];
    std::vector<ScryptWords> out(blocks);
    for (std::size_t i = 0; i < blocks; ++i) {
      ScryptWords mixed;
      for (std::size_t k = 0; k < held; ++k) mixed.push_back(in[i][k] ^ running[k]);
      running = mixer.mix(mixed);
      out[i / 2 + (i & 1) * r] = running;
    }
    for (std::size_t i = 0; i < blocks; ++i)
      for (std::size_t k = 0; k < held; ++k) state[i][k] = out[i][k];
  };
  auto current = [&] {
    std::vector<ScryptWords> words(blocks);
    for (std::size_t i = 0; i < blocks; ++i)
      for (std::size_t k = 0; k < held; ++k) words[i].push_back(state[i][k].load());
    return words;
  };

  // Phase 1: V[s] = X; X = BlockMix(X).
  for_(begin, min(end, n), [&](UInt s) {
    std::vector<ScryptWords> words = current();
    for (std::size_t i = 0; i < blocks; ++i)
      for (std::size_t m = 0; m < groups; ++m)
        v[v_at(lane, s, vector(i, m))] =
            scrypt_pack(words[i][4 * m], words[i][4 * m + 1], words[i][4 * m + 2], words[i][4 * m + 3]);
    blockmix(words);
  });
  // Phase 2: X = BlockMix(X ^ V[Integerify(X) mod N]).
  for_(max(begin, n), end, [&](UInt) {
    std::vector<ScryptWords> words = current();
    UInt j = mixer.word_zero(words[blocks - 1][0]) & (n - 1u);
    std::vector<UVec4> loaded;
    for (std::size_t i = 0; i < blocks; ++i)
      for (std::size_t m = 0; m < groups; ++m) loaded.push_back(v[v_at(lane, j, vector(i, m))].load());
    for (std::size_t i = 0; i < blocks; ++i)
      for (std::size_t k = 0; k < held; ++k) words[i][k] = words[i][k] ^ loaded[i * groups + k / 4][int(k % 4)];
    blockmix(words);
  });
  for (std::size_t i = 0; i < blocks; ++i)
    for (std::size_t k = 0; k < held; ++k) x[x_at(lane, 0u, word(i, k))] = state[i][k].load();
}

// The mixer of this invocation: one invocation per lane, or four (cooperative), and the lane.
inline ScryptMixer scrypt_mixer(bool cooperative, UInt& lane) {
  ScryptMixer mixer;
  lane = global_id().x();
  if (cooperative) {
    // Numbered by subgroup so that a lane's four invocations share one subgroup
    // whatever order the device gives local ids to subgroup lanes.
    UInt sid = subgroup_invocation_id();
    UInt t = workgroup_id().x() * scrypt_workgroup + subgroup_id() * subgroup_size() + sid;
    lane = t >> 2u;
    mixer.cooperative = true;
    mixer.quarter = sid & 3u;
    mixer.group_base = sid - mixer.quarter;
    for (std::uint32_t k = 0; k < 4; ++k) mixer.offsets.push_back((mixer.quarter * 5u + k * 4u) & 15u);
  } else {
    for (std::uint32_t w = 0; w < 16; ++w) mixer.offsets.push_back(UInt(w));
  }
  return mixer;
}

// ROMix steps [begin, end) of every lane below `lanes`, in two forms.
//
// With X in registers, for one r: the lanes of up to scrypt_sets_per_launch scratch sets in
// one launch. Four V (uvec4s) and four X bindings (those past `sets` repeat set 0's and are
// not touched), then set_lanes, lanes, N, begin, end; lanes [k set_lanes, (k + 1) set_lanes)
// are set k's, so every set but the last is full. One launch keeps as many hashes in flight
// as the sets hold; launches of one set each, even without a barrier between them, ran one
// after the other (docs/benchmarks.md, "scrypt").
//
// The generic form, for any r, one set a launch: v, x, r, N, lanes, begin, end.
constexpr std::uint32_t scrypt_sets_per_launch = 4;
using ScryptRomixRegisterKernel =
    Kernel<Buffer<uvec4>, Buffer<uvec4>, Buffer<uvec4>, Buffer<uvec4>, Buffer<std::uint32_t>, Buffer<std::uint32_t>,
           Buffer<std::uint32_t>, Buffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt>;
const ScryptRomixRegisterKernel& scrypt_romix_register_kernel(ScryptLayout layout, bool cooperative, std::uint32_t r,
                                                              std::uint32_t sets);

using ScryptRomixKernel = Kernel<Buffer<std::uint32_t>, Buffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt>;
const ScryptRomixKernel& scrypt_romix_kernel(ScryptLayout layout, bool cooperative);

// Cooperative ROMix needs whole groups of four in a subgroup and whole subgroups in a workgroup.
void check_scrypt_cooperative(const char* what, const DeviceInfo& info);

// Whether ROMix of these parameters keeps X in registers (and V as uvec4s).
bool scrypt_in_registers(const ScryptParams& params);

// One scratch set: V and X for a round's lanes (V as words for the generic ROMix, as uvec4s
// for the register one), and the lanes its current round uses.
struct ScryptScratch {
  DeviceBuffer<std::uint32_t> v, x;
  DeviceBuffer<uvec4> v4;
  std::uint32_t lanes = 0;
};

std::vector<ScryptScratch> scrypt_scratch(Device& device, const ScryptParams& params, const ScryptRounds& rounds);

// Where the expansion writes B (as block 0 of a scratch buffer of `blocks` blocks per lane):
// V[0] for the generic ROMix, X slot 0 for the register one.
const DeviceBuffer<std::uint32_t>& scrypt_expand_target(const ScryptParams& params, const ScryptScratch& set);
std::uint32_t scrypt_expand_blocks(const ScryptParams& params);

// How many scratch sets each launch of the register ROMix takes, in order: at most
// scrypt_sets_per_launch, and no more lanes than one grid holds (one set always fits:
// scrypt_hashes_per_round). `set_lanes`: the lanes of the sets in use, all full but the last.
std::vector<std::size_t> scrypt_launch_groups(const DeviceInfo& info, std::uint32_t invocations_per_lane,
                                              const std::vector<std::uint32_t>& set_lanes);

// Records all of ROMix (2N steps) for the rounds of every scratch set with lanes, in launches
// within the loop budget: with X in registers, the sets of a launch group in one launch;
// the generic form, one launch a set.
void scrypt_romix(Sequence& sequence, const DeviceInfo& info, const ScryptParams& params, const ScryptOptions& options,
                  const std::vector<ScryptScratch>& sets);

}  // namespace detail

}  // namespace sprig::hash
