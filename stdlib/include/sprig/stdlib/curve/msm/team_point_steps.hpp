// Point doublings and additions whose field products are spread over a team of lanes: a
// team of msm_team_lanes invocations holds the same point in every lane, and each step of
// a formula hands its independent products out, one a lane, to meet again in shared
// memory. A doubling's nine products take three steps and a full addition's fourteen take
// four, so a chain of dependent operations (Horner's rule, the top of the bucket tree)
// waits for three or four products an operation instead of nine or fourteen. The formulas
// are point_functions.hpp's (dbl-2008-s-1 and add-2008-s, a = 0), their products grouped
// by what each one needs.
//
// Every lane of a team computes the same values from the same operands, and the addition
// has no branch (it doubles its first operand beside its own products, in lanes its steps
// leave idle), so teams of one workgroup run the same steps and meet at every barrier.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sprig/stdlib/curve/point_functions.hpp"

namespace sprig::curve::detail {

// The most products a step has: the addition's first (six), with the doubling's first two.
inline constexpr std::uint32_t msm_team_lanes = 8;

template <ShortWeierstrass C>
using ProductPairs = std::vector<std::pair<Element<C>, Element<C>>>;

// The field products of `teams` teams of one workgroup, team t being its invocations
// [t msm_team_lanes, (t + 1) msm_team_lanes).
template <ShortWeierstrass C>
class TeamProducts {
  using M = field::Montgomery<typename C::Base>;

 public:
  // Declares the teams' exchange in the calling kernel.
  TeamProducts(std::uint32_t teams, const SourceLoc& loc)
      : lane_(local_index() % msm_team_lanes),
        base_(local_index() / msm_team_lanes * (2 * msm_team_lanes)),
        exchange_(shared_array<M>(2 * msm_team_lanes * teams, "team_products")),
        parity_(0u),
        loc_(loc) {}

  // a_j b_j for each of at most msm_team_lanes pairs: lane j computes the j-th (lanes past
  // the last repeat the first). Two halves of a team's exchange alternate, so a step's
  // writes never meet a slower lane's reads of the step before: one barrier a step.
  std::vector<Element<C>> operator()(const ProductPairs<C>& pairs) {
    if (pairs.empty() || pairs.size() > msm_team_lanes)
      throw TraceError("a team step of " + std::to_string(pairs.size()) + " field products: a team's " +
                           std::to_string(msm_team_lanes) + " lanes take 1 to " + std::to_string(msm_team_lanes),
                       loc_);
    Element<C> a = pairs[0].first, b = pairs[0].second;
    for (std::uint32_t j = 1; j < pairs.size(); ++j) {
      Bool mine = lane_ == j;
      a = select(mine, pairs[j].first, a);
      b = select(mine, pairs[j].second, b);
    }
    UInt half = base_ + parity_.load() * msm_team_lanes;
    exchange_[half + lane_] = product<C>(a, b, loc_);
    barrier();
    std::vector<Element<C>> products;
    for (std::uint32_t j = 0; j < pairs.size(); ++j) products.push_back(exchange_[half + j].load());
    parity_ = 1u - parity_.load();
    return products;
  }

  const SourceLoc& loc() const { return loc_; }

 private:
  UInt lane_, base_;
  SharedArray<M> exchange_;
  Var<std::uint32_t> parity_;
  SourceLoc loc_;
};

// 2P (dbl-2008-s-1, a = 0) as three steps of products, so that an addition can run them
// beside its own: each call takes the products of the pairs the previous call asked for.
template <ShortWeierstrass C>
class DoublingSteps {
 public:
  DoublingSteps(const Expr<Xyzz<C>>& point, const SourceLoc& loc)
      : p_(parts_of(point)), u_(sum<C>(p_.y, p_.y, loc)), loc_(loc) {}

  ProductPairs<C> first() const { return {{u_, u_}, {p_.x, p_.x}}; }
  // After first(): V = U^2, XX = X^2.
  ProductPairs<C> second(const Element<C>& v, const Element<C>& xx) {
    m_ = sum<C>(sum<C>(xx, xx, loc_), xx, loc_);
    return {{u_, v}, {p_.x, v}, {*m_, *m_}, {v, p_.zz}};
  }
  // After second(): W = U V, S = X V, M^2, ZZ3 = V ZZ.
  ProductPairs<C> third(const Element<C>& w, const Element<C>& s, const Element<C>& mm, const Element<C>& zz3) {
    zz3_ = zz3;
    x3_ = difference<C>(mm, sum<C>(s, s, loc_), loc_);
    return {{*m_, difference<C>(s, *x3_, loc_)}, {w, p_.y}, {w, p_.zzz}};
  }
  // After third(): M (S - X3), W Y, ZZZ3 = W ZZZ.
  XyzzParts<C> result(const Element<C>& msx, const Element<C>& wy, const Element<C>& zzz3) const {
    return normalized(XyzzParts<C>{*x3_, difference<C>(msx, wy, loc_), *zz3_, zzz3}, loc_);
  }

 private:
  XyzzParts<C> p_;
  Element<C> u_;
  std::optional<Element<C>> m_, x3_, zz3_;  // set by the steps that compute them
  SourceLoc loc_;
};

template <ShortWeierstrass C>
ProductPairs<C> joined(ProductPairs<C> a, const ProductPairs<C>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// 2P in three steps of products.
template <ShortWeierstrass C>
Expr<Xyzz<C>> team_double(TeamProducts<C>& products, const Expr<Xyzz<C>>& point) {
  const SourceLoc& loc = products.loc();
  DoublingSteps<C> doubling(point, loc);
  auto first = products(doubling.first());
  auto second = products(doubling.second(first[0], first[1]));
  auto third = products(doubling.third(second[0], second[1], second[2], second[3]));
  return point_of(doubling.result(third[0], third[1], third[2]), loc);
}

// P + Q in four steps of products (add-2008-s), with the exceptions of with_exceptions:
// the other operand where one is at infinity, 2P where the two are the same point. 2P is
// computed beside the sum in every call (its products fill the steps' idle lanes) and
// selected, so that no team branches.
template <ShortWeierstrass C>
Expr<Xyzz<C>> team_add(TeamProducts<C>& products, const Expr<Xyzz<C>>& first, const Expr<Xyzz<C>>& second) {
  const SourceLoc& loc = products.loc();
  XyzzParts<C> p = parts_of(first), q = parts_of(second);
  DoublingSteps<C> doubling(first, loc);
  auto one = products(joined<C>(
      {{p.x, q.zz}, {q.x, p.zz}, {p.y, q.zzz}, {q.y, p.zzz}, {p.zz, q.zz}, {p.zzz, q.zzz}}, doubling.first()));
  Element<C> u1 = one[0], s1 = one[2];
  Element<C> pd = difference<C>(one[1], u1, loc), r = difference<C>(one[3], s1, loc);
  auto two = products(joined<C>({{pd, pd}, {r, r}}, doubling.second(one[6], one[7])));
  Element<C> pp = two[0];
  auto three = products(joined<C>({{pd, pp}, {u1, pp}, {one[4], pp}}, doubling.third(two[2], two[3], two[4], two[5])));
  Element<C> ppp = three[0], qq = three[1];
  Element<C> x3 = difference<C>(difference<C>(two[1], ppp, loc), sum<C>(qq, qq, loc), loc);
  auto four = products({{r, difference<C>(qq, x3, loc)}, {s1, ppp}, {one[5], ppp}});
  XyzzParts<C> total{x3, difference<C>(four[0], four[1], loc), three[2], four[2]};
  XyzzParts<C> doubled = doubling.result(three[3], three[4], three[5]);

  Bool first_infinite = is_infinity(p), second_infinite = is_infinity(q);
  Bool same = pd.is_zero() && r.is_zero() && !first_infinite && !second_infinite;
  XyzzParts<C> chosen = choose(second_infinite, p, choose(first_infinite, q, choose(same, doubled, total)));
  return point_of(normalized(chosen, loc), loc);
}

}  // namespace sprig::curve::detail
