// Subgroup operations against a CPU reference, for full and partial (divergent) masks, on
// Vulkan (whatever subgroup size the device has) and on the simulator at sizes 8, 16, 32
// and 64. Lanes of a subgroup are consecutive local invocation indices.
#include <cmath>
#include <functional>

#include "sprig/dsl/semantics.hpp"

#include "backends.hpp"

using namespace sprig;

namespace {

constexpr std::uint32_t group_size = 64;
constexpr std::uint32_t invocations = 128;

struct Target {
  sprig::Device* device;
  std::uint32_t subgroup_size;
};

Target target(int which) {
  if (which == 0) return {&test::vulkan(), test::vulkan().info().subgroup_size};
  std::uint32_t size = 8u << (which - 1);  // 8, 16, 32, 64
  return {&test::simulator(size), size};
}

// A lane takes part in the partial-mask variant unless lane % 3 == 1.
bool active(std::uint32_t lane, bool partial) { return !partial || lane % 3 != 1; }

// The reference: `op` folded over the active lanes of each subgroup (all of them, those up
// to and including this lane, or those before it), `identity` for none.
template <class T>
std::vector<T> reference(const std::vector<T>& x, std::uint32_t subgroup, bool partial, ir::GroupOperation group,
                         std::function<T(T, T)> op, T identity) {
  std::vector<T> out(x.size(), T{});
  for (std::uint32_t i = 0; i < x.size(); ++i) {
    std::uint32_t lane = (i % group_size) % subgroup, first = i - lane;
    if (!active(lane, partial)) continue;
    T acc = identity;
    for (std::uint32_t j = 0; j < subgroup; ++j) {
      if (!active(j, partial)) continue;
      bool take = group == ir::GroupOperation::Reduce || (group == ir::GroupOperation::InclusiveScan && j <= lane) ||
                  (group == ir::GroupOperation::ExclusiveScan && j < lane);
      if (take) acc = op(acc, x[first + j]);
    }
    out[i] = acc;
  }
  return out;
}

// Input values whose sums, products, minima and maxima are exact in every type.
template <class T>
T input(std::uint32_t i) {
  // Powers of two keep float sums and products exact in any order.
  if constexpr (std::is_same_v<T, float>) return std::ldexp(1.0f, int(i % 5) - 2);
  else if constexpr (std::is_signed_v<T>) return T(i % 7) - 3 + (i % 11 == 0 ? T(-1000) : T(0));
  else return T(i % 13 + 1) + (i % 17 == 0 ? T(1) << (sizeof(T) * 8 - 2) : T(0));
}

// Runs one group operation over the inputs and returns every invocation's result.
template <class T, class F>
std::vector<T> run_group_op(const Target& t, bool partial, F&& op_in_dsl) {
  auto k = kernel("group_op", [&](ReadBuffer<T> in, Buffer<T> out) {
    UInt i = global_id().x();
    UInt lane = subgroup_invocation_id();
    if (partial) {
      if_(lane % 3u != 1u, [&] { out[i] = op_in_dsl(Expr<T>(in[i])); });
    } else {
      out[i] = op_in_dsl(Expr<T>(in[i]));
    }
  }, workgroup(group_size));
  std::vector<T> x(invocations);
  for (std::uint32_t i = 0; i < invocations; ++i) x[i] = input<T>(i);
  auto in = t.device->upload(x);
  auto out = t.device->upload(std::vector<T>(invocations, T{}));
  t.device->run(k, grid(invocations), in, out);
  return t.device->download(out);
}

template <class T>
void check_arithmetic(const Target& t, bool partial) {
  std::vector<T> x(invocations);
  for (std::uint32_t i = 0; i < invocations; ++i) x[i] = input<T>(i);
  using G = ir::GroupOperation;
  // Integers wrap (semantics.hpp); floats here are exact.
  auto add = [](T a, T b) {
    if constexpr (std::is_integral_v<T>) return semantics::add<T>(a, b);
    else return T(a + b);
  };
  auto mul = [](T a, T b) {
    if constexpr (std::is_integral_v<T>) return semantics::mul<T>(a, b);
    else return T(a * b);
  };
  auto mn = [](T a, T b) { return std::min(a, b); };
  auto mx = [](T a, T b) { return std::max(a, b); };
  const T lowest = std::numeric_limits<T>::lowest(), highest = std::numeric_limits<T>::max();
  const T inf = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : highest;
  const T neg_inf = std::numeric_limits<T>::has_infinity ? -inf : lowest;
  std::uint32_t s = t.subgroup_size;
  // clang-format off
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_add(v); }) == reference<T>(x, s, partial, G::Reduce, add, T(0)));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_inclusive_add(v); }) == reference<T>(x, s, partial, G::InclusiveScan, add, T(0)));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_exclusive_add(v); }) == reference<T>(x, s, partial, G::ExclusiveScan, add, T(0)));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_mul(v); }) == reference<T>(x, s, partial, G::Reduce, mul, T(1)));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_exclusive_mul(v); }) == reference<T>(x, s, partial, G::ExclusiveScan, mul, T(1)));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_min(v); }) == reference<T>(x, s, partial, G::Reduce, mn, inf));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_inclusive_min(v); }) == reference<T>(x, s, partial, G::InclusiveScan, mn, inf));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_max(v); }) == reference<T>(x, s, partial, G::Reduce, mx, neg_inf));
  CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_exclusive_max(v); }) == reference<T>(x, s, partial, G::ExclusiveScan, mx, neg_inf));
  if constexpr (std::is_integral_v<T>) {
    auto band = [](T a, T b) { return T(a & b); };
    auto bor = [](T a, T b) { return T(a | b); };
    auto bxor = [](T a, T b) { return T(a ^ b); };
    CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_and(v); }) == reference<T>(x, s, partial, G::Reduce, band, T(~T(0))));
    CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_inclusive_or(v); }) == reference<T>(x, s, partial, G::InclusiveScan, bor, T(0)));
    CHECK(run_group_op<T>(t, partial, [](Expr<T> v) { return subgroup_exclusive_xor(v); }) == reference<T>(x, s, partial, G::ExclusiveScan, bxor, T(0)));
  }
  // clang-format on
}

}  // namespace

TEMPLATE_TEST_CASE("subgroup reductions and scans match the CPU reference", "", std::uint32_t, std::int32_t, float,
                   std::int64_t, std::uint64_t) {
  int which = SPRIG_TARGET_NUMBER(4);
  bool partial = GENERATE(false, true);
  Target t = target(which);
  INFO("target " << which << " subgroup size " << t.subgroup_size << (partial ? " partial mask" : " full mask"));
  check_arithmetic<TestType>(t, partial);
}

TEST_CASE("votes, ballots, broadcasts and shuffles match the CPU reference") {
  int which = SPRIG_TARGET_NUMBER(4);
  Target t = target(which);
  const std::uint32_t s = t.subgroup_size;
  INFO("subgroup size " << s);
  auto k = kernel("votes", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt lane = subgroup_invocation_id();
    UInt base = i * 16u;
    out[base + 0u] = select(subgroup_elect(), 1u, 0u);
    out[base + 1u] = select(subgroup_all(lane < 1000u), 1u, 0u);
    out[base + 2u] = select(subgroup_any(lane == 3u), 1u, 0u);
    out[base + 3u] = select(subgroup_all_equal(i / 2u), 1u, 0u);
    UVec4 ballot = subgroup_ballot(lane % 2u == 0u);
    out[base + 4u] = ballot.x();
    out[base + 5u] = ballot_bit_count(ballot);
    out[base + 6u] = ballot_inclusive_bit_count(ballot);
    out[base + 7u] = ballot_exclusive_bit_count(ballot);
    out[base + 8u] = ballot_find_lsb(subgroup_ballot(lane >= 2u));
    out[base + 9u] = ballot_find_msb(ballot);
    out[base + 10u] = subgroup_broadcast(i, 2u);
    out[base + 11u] = subgroup_broadcast_first(i * 7u);
    out[base + 12u] = subgroup_shuffle(i, (lane + 1u) % subgroup_size());
    out[base + 13u] = subgroup_shuffle_xor(i, 1u);
    out[base + 14u] = subgroup_shuffle_up(i, 1u);    // undefined in lane 0
    out[base + 15u] = subgroup_shuffle_down(i, 1u);  // undefined in the last lane
    if_(lane % 3u == 1u, [&] { out[base + 0u] = 100u + select(subgroup_elect(), 1u, 0u); });
  }, workgroup(group_size));
  std::vector<std::uint32_t> got = test::outputs<std::uint32_t>(*t.device, k, invocations * 16, grid(invocations));
  for (std::uint32_t i = 0; i < invocations; ++i) {
    std::uint32_t lane = (i % group_size) % s, first = i - lane;
    const std::uint32_t* r = &got[i * 16];
    INFO("invocation " << i << " lane " << lane);
    std::uint32_t even_mask_low = 0;
    for (std::uint32_t j = 0; j < std::min(s, 32u); j += 2) even_mask_low |= 1u << j;
    std::uint32_t evens_up_to = lane / 2 + 1;
    // Lane 1 is the first lane with lane % 3 == 1, so it is elected in the divergent branch.
    CHECK(r[0] == (lane % 3 == 1 ? 100u + (lane == 1 ? 1u : 0u) : (lane == 0 ? 1u : 0u)));
    CHECK(r[1] == 1u);
    CHECK(r[2] == (s > 3 ? 1u : 0u));
    CHECK(r[3] == 0u);
    CHECK(r[4] == even_mask_low);
    CHECK(r[5] == s / 2);
    CHECK(r[6] == evens_up_to);
    CHECK(r[7] == (lane + 1) / 2);
    CHECK(r[8] == 2u);
    CHECK(r[9] == s - 2);
    CHECK(r[10] == first + 2);
    CHECK(r[11] == first * 7);
    CHECK(r[12] == first + (lane + 1) % s);
    CHECK(r[13] == (i ^ 1u));
    if (lane >= 1) CHECK(r[14] == i - 1);
    if (lane + 1 < s) CHECK(r[15] == i + 1);
  }
}
