// Point doublings and additions whose field products are spread over a team of lanes: a
// workgroup of msm_team_lanes invocations holds the same point in every lane, and each step
// of a formula hands its independent products out, one a lane, to meet again in shared
// memory. A doubling's nine products take three steps and a full addition's fourteen take
// four, so a chain of dependent operations (Horner's rule) waits for three products a
// doubling instead of nine. The formulas are point_functions.hpp's (dbl-2008-s-1 and
// add-2008-s, a = 0), their products regrouped by what each one needs.
//
// Every lane computes the same values from the same operands, so branches on them (the
// addition's exceptions) are uniform across the team and may hold barriers.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sprig/stdlib/curve/point_functions.hpp"

namespace sprig::curve::detail {

// The most products a step has (the addition's first) rounded up to a power of two.
inline constexpr std::uint32_t msm_team_lanes = 8;

template <ShortWeierstrass C>
class TeamProducts {
  using M = field::Montgomery<typename C::Base>;

 public:
  // Declares the team's exchange in the calling kernel, whose workgroups are one team each.
  explicit TeamProducts(const SourceLoc& loc)
      : lane_(local_index()),
        exchange_(shared_array<M>(2 * msm_team_lanes, "team_products")),
        parity_(0u),
        loc_(loc) {}

  // a_j b_j for each of at most msm_team_lanes pairs: lane j computes the j-th (lanes past
  // the last repeat the first). Two halves of the exchange alternate, so a step's writes
  // never meet a slower lane's reads of the step before: one barrier a step.
  std::vector<Element<C>> operator()(const std::vector<std::pair<Element<C>, Element<C>>>& pairs) {
    Element<C> a = pairs[0].first, b = pairs[0].second;
    for (std::uint32_t j = 1; j < pairs.size(); ++j) {
      Bool mine = lane_ == j;
      a = select(mine, pairs[j].first, a);
      b = select(mine, pairs[j].second, b);
    }
    UInt half = parity_.load() * msm_team_lanes;
    exchange_[half + lane_] = product<C>(a, b, loc_);
    barrier();
    std::vector<Element<C>> products;
    for (std::uint32_t j = 0; j < pairs.size(); ++j) products.push_back(exchange_[half + j].load());
    parity_ = 1u - parity_.load();
    return products;
  }

  const SourceLoc& loc() const { return loc_; }

 private:
  UInt lane_;
  SharedArray<M> exchange_;
  Var<std::uint32_t> parity_;
  SourceLoc loc_;
};

// 2P in three steps of products (dbl-2008-s-1 with a = 0).
template <ShortWeierstrass C>
Expr<Xyzz<C>> team_double(TeamProducts<C>& products, const Expr<Xyzz<C>>& point) {
  const SourceLoc& loc = products.loc();
  XyzzParts<C> p = parts_of(point);
  Element<C> u = sum<C>(p.y, p.y, loc);
  auto first = products({{u, u}, {p.x, p.x}});
  Element<C> v = first[0], xx = first[1];
  Element<C> m = sum<C>(sum<C>(xx, xx, loc), xx, loc);
  auto second = products({{u, v}, {p.x, v}, {m, m}, {v, p.zz}});
  Element<C> w = second[0], s = second[1];
  Element<C> x3 = difference<C>(second[2], sum<C>(s, s, loc), loc);
  auto third = products({{m, difference<C>(s, x3, loc)}, {w, p.y}, {w, p.zzz}});
  Element<C> y3 = difference<C>(third[0], third[1], loc);
  return point_of(normalized(XyzzParts<C>{x3, y3, second[3], third[2]}, loc), loc);
}

// P + Q in four steps of products (add-2008-s), with the exceptions of with_exceptions:
// the other operand where one is at infinity, 2P where the two are the same point.
template <ShortWeierstrass C>
Expr<Xyzz<C>> team_add(TeamProducts<C>& products, const Expr<Xyzz<C>>& first, const Expr<Xyzz<C>>& second) {
  const SourceLoc& loc = products.loc();
  XyzzParts<C> p = parts_of(first), q = parts_of(second);
  auto crossed = products({{p.x, q.zz}, {q.x, p.zz}, {p.y, q.zzz}, {q.y, p.zzz}, {p.zz, q.zz}, {p.zzz, q.zzz}});
  Element<C> u1 = crossed[0], s1 = crossed[2];
  Element<C> pd = difference<C>(crossed[1], u1, loc), r = difference<C>(crossed[3], s1, loc);
  auto squares = products({{pd, pd}, {r, r}});
  Element<C> pp = squares[0];
  auto third = products({{pd, pp}, {u1, pp}, {crossed[4], pp}});
  Element<C> ppp = third[0], qq = third[1];
  Element<C> x3 = difference<C>(difference<C>(squares[1], ppp, loc), sum<C>(qq, qq, loc), loc);
  auto fourth = products({{r, difference<C>(qq, x3, loc)}, {s1, ppp}, {crossed[5], ppp}});
  XyzzParts<C> total{x3, difference<C>(fourth[0], fourth[1], loc), third[2], fourth[2]};

  Bool first_infinite = is_infinity(p), second_infinite = is_infinity(q);
  XyzzParts<C> chosen = choose(second_infinite, p, choose(first_infinite, q, total));
  Var<Xyzz<C>> result = point_of(normalized(chosen, loc), loc);
  Bool same = pd.is_zero() && r.is_zero() && !first_infinite && !second_infinite;
  if_(same, [&] { result = team_double(products, first); });
  return result.load();
}

}  // namespace sprig::curve::detail
