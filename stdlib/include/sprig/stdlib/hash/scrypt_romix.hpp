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
// lanes in flight) and four invocations reading one 64-byte block together. On an H100 it
// was 3x faster than one invocation per lane (ScryptOptions in scrypt_params.hpp has the figures).
#pragma once

#include <string>
#include <vector>

#include "sprig/stdlib/hash/salsa20_8.hpp"
#include "sprig/stdlib/hash/scrypt_params.hpp"
#include "sprig/stdlib/hash/word_vars.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

namespace detail {

using ScryptWords = std::vector<Expr<std::uint32_t>>;

// How the invocations of a lane share the Salsa state: the word offsets (within a 64-byte
// block) this invocation holds, the Salsa20/8 core on them, and Integerify's broadcast.
struct ScryptMixer {
  std::vector<std::uint32_t> fixed_offsets;  // per-invocation: 0..15
  ScryptWords offsets;                       // device values (cooperative: depend on q)
  bool cooperative = false;
  Expr<std::uint32_t> group_base = 0u, quarter = 0u;  // cooperative: lane ids in the subgroup

  // The lane id of the group member `k` places after this one (mod 4).
  Expr<std::uint32_t> partner(std::uint32_t k) const { return group_base + ((quarter + k) & 3u); }

  ScryptWords mix(const ScryptWords& in) const {
    if (!cooperative) {
      SalsaWords x = zero_words<16>();
      for (std::size_t w = 0; w < 16; ++w) x[w] = in[w];
      SalsaWords out = salsa20_8(x);
      return ScryptWords(out.begin(), out.end());
    }
    // a, b, c, d: words 5q, 5q+4, 5q+8, 5q+12 — a column quarter-round's inputs. For the rows,
    // invocation q needs b from q+1's d, c from q+2's c and d from q+3's b.
    Expr<std::uint32_t> a = in[0], b = in[1], c = in[2], d = in[3];
    for (int round = 0; round < 8; round += 2) {
      salsa20_quarter_round(a, b, c, d);
      Expr<std::uint32_t> row_b = subgroup_shuffle(d, partner(1));
      Expr<std::uint32_t> row_c = subgroup_shuffle(c, partner(2));
      Expr<std::uint32_t> row_d = subgroup_shuffle(b, partner(3));
      salsa20_quarter_round(a, row_b, row_c, row_d);
      d = subgroup_shuffle(row_b, partner(3));
      c = subgroup_shuffle(row_c, partner(2));
      b = subgroup_shuffle(row_d, partner(1));
    }
    return {a + in[0], b + in[1], c + in[2], d + in[3]};
  }

  // Integerify's word (word 0 of the last 64-byte block), given this invocation's first
  // held word of that block.
  Expr<std::uint32_t> word_zero(const Expr<std::uint32_t>& first_held) const {
    return cooperative ? subgroup_shuffle(first_held, group_base) : first_held;
  }
};

// One BlockMix: src(i, w) is word w of input block i (0 <= i < 2r), dst(i, w, value) writes
// word w of output block i; w runs over the mixer's offsets.
template <class Src, class Dst>
void scrypt_blockmix(const ScryptMixer& mixer, const Expr<std::uint32_t>& r, const Src& src, const Dst& dst) {
  using U = Expr<std::uint32_t>;
  std::size_t held = mixer.offsets.size();
  std::vector<Var<std::uint32_t>> x;
  x.reserve(held);
  for (std::size_t k = 0; k < held; ++k) x.emplace_back(src(r * 2u - 1u, mixer.offsets[k]));
  for_(0u, r * 2u, [&](U i) {
    ScryptWords in;
    for (std::size_t k = 0; k < held; ++k) in.push_back(src(i, mixer.offsets[k]) ^ x[k].load());
    ScryptWords out = mixer.mix(in);
    U position = (i >> 1u) + (i & 1u) * r;
    for (std::size_t k = 0; k < held; ++k) {
      x[k] = out[k];
      dst(position, mixer.offsets[k], out[k]);
    }
  });
}

// Steps [begin, end) of ROMix for every lane below `lanes`.
inline void scrypt_romix_steps(const ScryptMixer& mixer, ScryptLayout layout, const Buffer<std::uint32_t>& v,
                               const Buffer<std::uint32_t>& x, const Expr<std::uint32_t>& lane,
                               const Expr<std::uint32_t>& r, const Expr<std::uint32_t>& n,
                               const Expr<std::uint32_t>& lanes, const Expr<std::uint32_t>& begin,
                               const Expr<std::uint32_t>& end) {
  using U = Expr<std::uint32_t>;
  U block_words = r * 32u;
  ScryptScratchIndex v_at{layout, block_words, n, lanes};
  ScryptScratchIndex x_at{layout, block_words, U(2u), lanes};
  auto v_block = [&](const U& j) {
    return [&, j](const U& i, const U& w) { return v[v_at(lane, j, i * 16u + w)].load(); };
  };

  // Phase 1: V[s+1] = BlockMix(V[s]); the last step writes X slot 0.
  for_(begin, min(end, n - 1u), [&](U s) {
    scrypt_blockmix(mixer, r, v_block(s),
                    [&](const U& i, const U& w, const U& value) { v[v_at(lane, s + 1u, i * 16u + w)] = value; });
  });
  if_(begin <= n - 1u && end > n - 1u, [&] {
    scrypt_blockmix(mixer, r, v_block(n - 1u),
                    [&](const U& i, const U& w, const U& value) { x[x_at(lane, 0u, i * 16u + w)] = value; });
  });

  // Phase 2: X = BlockMix(X ^ V[Integerify(X) mod N]), alternating between the X slots.
  for_(max(begin, n), end, [&](U s) {
    U from = (s - n) & 1u, to = from ^ 1u;
    U last_first = x[x_at(lane, from, (r * 2u - 1u) * 16u + mixer.offsets[0])].load();
    U j = mixer.word_zero(last_first) & (n - 1u);
    scrypt_blockmix(
        mixer, r,
        [&](const U& i, const U& w) {
          return x[x_at(lane, from, i * 16u + w)].load() ^ v[v_at(lane, j, i * 16u + w)].load();
        },
        [&](const U& i, const U& w, const U& value) { x[x_at(lane, to, i * 16u + w)] = value; });
  });
}

inline const auto& scrypt_romix_kernel(ScryptLayout layout, bool cooperative) {
  std::string name = std::string("scrypt_romix_") + scrypt_layout_name(layout) + (cooperative ? "_cooperative" : "");
  auto trace = [=] {
    return kernel(
        name,
        [=](Buffer<std::uint32_t> v, Buffer<std::uint32_t> x, Expr<std::uint32_t> r, Expr<std::uint32_t> n,
            Expr<std::uint32_t> lanes, Expr<std::uint32_t> begin, Expr<std::uint32_t> end) {
          using U = Expr<std::uint32_t>;
          ScryptMixer mixer;
          U lane = global_id().x();
          if (cooperative) {
            // Numbered by subgroup so that a lane's four invocations share one subgroup
            // whatever order the device gives local ids to subgroup lanes.
            U sid = subgroup_invocation_id();
            U t = workgroup_id().x() * scrypt_workgroup + subgroup_id() * subgroup_size() + sid;
            lane = t >> 2u;
            mixer.cooperative = true;
            mixer.quarter = sid & 3u;
            mixer.group_base = sid - mixer.quarter;
            for (std::uint32_t k = 0; k < 4; ++k) mixer.offsets.push_back((mixer.quarter * 5u + k * 4u) & 15u);
          } else {
            for (std::uint32_t w = 0; w < 16; ++w) mixer.offsets.push_back(U(w));
          }
          if_(lane < lanes, [&] { scrypt_romix_steps(mixer, layout, v, x, lane, r, n, lanes, begin, end); });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

// Cooperative ROMix needs whole groups of four in a subgroup and whole subgroups in a workgroup.
inline void check_scrypt_cooperative(const char* what, const DeviceInfo& info) {
  std::uint32_t s = info.subgroup_size;
  if (s < 4 || s > scrypt_workgroup || (s & (s - 1)) != 0)
    throw std::invalid_argument(std::string(what) +
                                ": cooperative scrypt needs a subgroup size that is a power of two from 4 to " +
                                std::to_string(scrypt_workgroup) + "; " + info.name + " has " + std::to_string(s));
}

// Records all of ROMix (2N steps) for `lanes` lanes, in launches within the loop budget.
inline void scrypt_romix(Sequence& sequence, const DeviceInfo& info, const ScryptParams& params,
                         const ScryptOptions& options, const DeviceBuffer<std::uint32_t>& v,
                         const DeviceBuffer<std::uint32_t>& x, std::uint32_t lanes) {
  const auto& k = scrypt_romix_kernel(options.layout, options.cooperative);
  std::uint64_t steps = 2ull * params.N;
  std::uint64_t per_launch = scrypt_steps_per_launch("scrypt", info, params);
  std::uint64_t invocations = std::uint64_t(lanes) * (options.cooperative ? 4 : 1);
  for (std::uint64_t begin = 0; begin < steps; begin += per_launch) {
    std::uint64_t end = std::min(steps, begin + per_launch);
    sequence.run(k, grid(invocations), v, x, params.r, params.N, lanes, std::uint32_t(begin), std::uint32_t(end));
  }
}

}  // namespace detail

}  // namespace sprig::hash
