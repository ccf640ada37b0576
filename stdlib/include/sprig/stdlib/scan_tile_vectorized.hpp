// A full tile of a scan of 4-byte scalars read and written as 4-vectors: each item of an
// invocation is a vector of 4 consecutive elements, scanned serially in registers, so a
// tile needs a quarter of the subgroup scans of scan_tile.hpp and a quarter of the load
// and store instructions (each still fully coalesced: lane l of a subgroup takes vector l
// of a run). Partial tiles use scan_tile.hpp.
#pragma once

#include "sprig/stdlib/scan_tile.hpp"

namespace sprig::detail {

template <class T>
using vector4_t = vec<T, 4>;

template <class T>
concept VectorizableScalar = ScalarValue<T> && sizeof(T) == 4 && !std::same_as<T, bool>;

// The scan of one full tile; as scan_tile, with `vectors_in`/`vectors_out` the same
// buffers as 4-vectors. shape.items must be a multiple of 4.
template <VectorizableScalar T, AssociativeOperator Op, class PrefixSource>
void scan_full_tile_vectorized(const Op& op, const TileShape& shape, ScanKind kind,
                               const ReadBuffer<vector4_t<T>>& vectors_in, const WriteBuffer<vector4_t<T>>& vectors_out,
                               const UInt& tile, const SubgroupScan<T, Op>& lanes,
                               SubgroupTotalsScan<T, Op>& totals, PrefixSource&& prefix_of,
                               const SpinSafeBarrier* closing) {
  using V = vector4_t<T>;
  const std::uint32_t vectors = shape.items / 4;
  auto tile_prefix = shared<T>("tile_prefix_vectorized");
  UInt first_vector = tile * (shape.elements() / 4);
  std::vector<UInt> index;
  std::vector<std::array<Expr<T>, 4>> running;  // inclusive scan inside each vector
  std::vector<Expr<T>> scanned, run_totals;
  for (std::uint32_t j = 0; j < vectors; ++j) {
    index.push_back(striped_index(first_vector, vectors, j));
    Expr<V> v = vectors_in[index[j]];
    Expr<T> a = v.x(), b = op(a, v.y()), c = op(b, v.z()), d = op(c, v.w());
    running.push_back({a, b, c, d});
    Expr<T> s = lanes.inclusive(d);
    run_totals.push_back(lanes.last(s));
    scanned.push_back(lanes.exclusive(d, s));  // the vectors before this one in the run
  }
  std::vector<Expr<T>> before{scanned[0]};
  Expr<T> carry = run_totals[0];
  for (std::uint32_t j = 1; j < vectors; ++j) {
    before.push_back(op(carry, scanned[j]));
    carry = op(carry, run_totals[j]);
  }
  totals.scan(carry, [&](const Expr<T>& aggregate) {
    Expr<T> p = prefix_of(aggregate);
    if_(lanes.lane() == 0u, [&] { tile_prefix = p; });
  }, closing);
  Expr<T> prefix = op(tile_prefix.load(), totals.exclusive_prefix());
  for (std::uint32_t j = 0; j < vectors; ++j) {
    Expr<T> base = op(prefix, before[j]);
    Var<V> result;
    if (kind == ScanKind::Inclusive) {
      for (int k = 0; k < 4; ++k) result[std::uint32_t(k)] = op(base, running[j][k]);
    } else {
      result[0u] = base;
      for (int k = 1; k < 4; ++k) result[std::uint32_t(k)] = op(base, running[j][k - 1]);
    }
    vectors_out[index[j]] = result.load();
  }
}

}  // namespace sprig::detail
