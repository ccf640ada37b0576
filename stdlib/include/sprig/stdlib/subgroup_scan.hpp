// Scans and exchanges across the lanes of one subgroup, for any associative operator and
// any subgroup size (read at run time from subgroup_size(), never assumed):
//
//   * operators with a native instruction (plus, minimum, ... on scalars) use it, unless the
//     form (subgroup_scan_form.hpp) asks for shuffle-ups;
//   * other operators on scalars and vectors use a Hillis-Steele scan over shuffles,
//     unrolled shuffle-ups where the form gives the largest subgroup size;
//   * structs go through shared memory, one slot per invocation, ordered by subgroup
//     barriers.
//
// Every call must be made by all lanes of the subgroup (uniform control flow within it).
#pragma once

#include <optional>

#include "sprig/stdlib/device_constant.hpp"
#include "sprig/stdlib/operators.hpp"
#include "sprig/stdlib/subgroup_scan_form.hpp"

namespace sprig::detail {

template <DeviceValue T, AssociativeOperator Op>
class SubgroupScan {
 public:
  enum class Path { Native, Shuffle, Shared };
  static constexpr Path path = !ScalarOrVector<T> ? Path::Shared : Path::Shuffle;

  // Construct at the top level of the kernel: it reads the subgroup builtins once, and the
  // shared path declares `workgroup_invocations` slots of T. Kernels that take `form` key
  // it into their cache names.
  SubgroupScan(const Op& op, std::uint32_t workgroup_invocations, SubgroupScanForm form = {})
      : op_(op),
        form_(form),
        lane_(subgroup_invocation_id()),
        size_(subgroup_size()),
        first_slot_(subgroup_id() * subgroup_size()) {
    if constexpr (path == Path::Shared) scratch_.emplace(shared_array<T>(workgroup_invocations, "subgroup_exchange"));
  }

  const Op& op() const { return op_; }
  UInt lane() const { return lane_; }
  UInt size() const { return size_; }
  Expr<T> identity() const { return device_constant<T>(op_.identity); }
  bool native() const { return ScalarOrVector<T> && op_.native != NativeOp::None; }
  bool shuffles_up() const { return ScalarOrVector<T> && form_.shuffle_up_lanes != 0; }

  // x of lanes 0..lane folded in lane order.
  Expr<T> inclusive(const Expr<T>& x) const {
    if constexpr (ScalarOrVector<T>)
      if (shuffles_up()) return shuffle_up_scan(x);
    if (native()) return native_scan(x, ir::GroupOperation::InclusiveScan);
    if constexpr (path == Path::Shared) {
      Var<T> s = x;
      Var<std::uint32_t> offset = 1u;
      while_([&] { return offset < size_; }, [&] {
        slot(lane_) = s;
        subgroup_barrier(Orders::Shared);
        if_(lane_ >= offset, [&] { s = op_(Expr<T>(slot(lane_ - offset)), s.load()); });
        subgroup_barrier(Orders::Shared);
        offset = offset << 1u;
      });
      return s.load();
    } else {
      Var<T> s = x;
      Var<std::uint32_t> offset = 1u;
      while_([&] { return offset < size_; }, [&] {
        Bool takes = lane_ >= offset;
        // Lanes that take nothing read their own value, so every shuffle reads an active lane.
        Expr<T> earlier = subgroup_shuffle(s.load(), select(takes, lane_ - offset, lane_));
        s = select(takes, op_(earlier, s.load()), s.load());
        offset = offset << 1u;
      });
      return s.load();
    }
  }

  // The inclusive scan of the lane before (the identity in lane 0): the exclusive scan of
  // the values whose inclusive scan is `scanned`. `x` is the original value (native path).
  Expr<T> exclusive(const Expr<T>& x, const Expr<T>& scanned) const {
    if (native() && !shuffles_up()) return native_scan(x, ir::GroupOperation::ExclusiveScan);
    return from_lane(scanned, lane_ - 1u, lane_ > 0u);
  }

  // The value of the last lane, in every lane.
  Expr<T> last(const Expr<T>& x) const {
    if constexpr (path == Path::Shared) return from_lane(x, size_ - 1u, Bool(true));
    else return subgroup_shuffle(x, size_ - 1u);
  }

  // The value of lane (size - 1 - lane).
  Expr<T> reversed(const Expr<T>& x) const {
    if constexpr (path == Path::Shared) return from_lane(x, size_ - 1u - lane_, Bool(true));
    else return subgroup_shuffle(x, size_ - 1u - lane_);
  }

  // Folds x over all lanes in the order lane size-1, ..., 1, 0 (highest lane first). The
  // look-back walks predecessors from the nearest (lane 0) to the farthest, so this is
  // their sequence order.
  //
  // Never the native reduce, even for commutative operators: on the H100 (driver 580) an
  // OpGroupNonUniformIAdd Reduce in the look-back loop of compaction kernels with 9 or more
  // items per invocation dropped lanes — lane 0 held 1536 and the reduce returned 0 — so
  // later tiles got short prefixes. The scan-based fold gives the right prefix there
  // (docs/benchmarks.md); it runs once per look-back window, so its cost does not show.
  Expr<T> fold_descending(const Expr<T>& x) const {
    return last(inclusive(reversed(x)));
  }

  // Folds x over all lanes in lane order.
  Expr<T> fold(const Expr<T>& x) const {
    if (native() && op_.commutative) return native_scan(x, ir::GroupOperation::Reduce);
    return last(inclusive(x));
  }

 private:
  // log2(shuffle_up_lanes) steps, each taking the partial fold of the lane `offset` below.
  // Lanes below `offset` read their own value (delta 0), so no shuffle reads outside the
  // subgroup, and keep theirs; in subgroups smaller than the form's, the last steps take
  // nothing.
  Expr<T> shuffle_up_scan(const Expr<T>& x) const {
    Var<T> s = x;
    for (std::uint32_t offset = 1; offset < form_.shuffle_up_lanes; offset <<= 1) {
      Bool takes = lane_ >= offset;
      Expr<T> earlier = subgroup_shuffle_up(s.load(), select(takes, UInt(offset), UInt(0u)));
      s = select(takes, op_(earlier, s.load()), s.load());
    }
    return s.load();
  }

  Place<T, Access::ReadWrite> slot(const UInt& lane) const { return (*scratch_)[first_slot_ + lane]; }

  // x of lane `source` where `valid`, else the identity. Through shared memory for structs.
  Expr<T> from_lane(const Expr<T>& x, const UInt& source, const Bool& valid) const {
    if constexpr (path == Path::Shared) {
      slot(lane_) = x;
      subgroup_barrier(Orders::Shared);
      Var<T> r = identity();
      if_(valid, [&] { r = Expr<T>(slot(source)); });
      subgroup_barrier(Orders::Shared);
      return r.load();
    } else {
      Expr<T> v = subgroup_shuffle(x, select(valid, source, lane_));
      return select(valid, v, identity());
    }
  }

  Expr<T> native_scan(const Expr<T>& x, ir::GroupOperation group) const {
    if constexpr (ScalarOrVector<T>) {
      using G = ir::GroupOperation;
      auto pick = [&](auto reduce, auto incl, auto excl) -> Expr<T> {
        return group == G::Reduce ? reduce(x) : group == G::InclusiveScan ? incl(x) : excl(x);
      };
      switch (op_.native) {
        case NativeOp::Add:
          return pick([](auto v) { return subgroup_add(v); }, [](auto v) { return subgroup_inclusive_add(v); },
                      [](auto v) { return subgroup_exclusive_add(v); });
        case NativeOp::Min:
          return pick([](auto v) { return subgroup_min(v); }, [](auto v) { return subgroup_inclusive_min(v); },
                      [](auto v) { return subgroup_exclusive_min(v); });
        case NativeOp::Max:
          return pick([](auto v) { return subgroup_max(v); }, [](auto v) { return subgroup_inclusive_max(v); },
                      [](auto v) { return subgroup_exclusive_max(v); });
        default:
          if constexpr (IntegerLike<T>) {
            switch (op_.native) {
              case NativeOp::And:
                return pick([](auto v) { return subgroup_and(v); }, [](auto v) { return subgroup_inclusive_and(v); },
                            [](auto v) { return subgroup_exclusive_and(v); });
              case NativeOp::Or:
                return pick([](auto v) { return subgroup_or(v); }, [](auto v) { return subgroup_inclusive_or(v); },
                            [](auto v) { return subgroup_exclusive_or(v); });
              case NativeOp::Xor:
                return pick([](auto v) { return subgroup_xor(v); }, [](auto v) { return subgroup_inclusive_xor(v); },
                            [](auto v) { return subgroup_exclusive_xor(v); });
              default:
                break;
            }
          }
      }
    }
    throw TraceError("internal: no native subgroup operation for operator " + op_.name, SourceLoc{});
  }

  Op op_;
  SubgroupScanForm form_;
  UInt lane_, size_, first_slot_;
  std::optional<SharedArray<T>> scratch_;
};

}  // namespace sprig::detail
