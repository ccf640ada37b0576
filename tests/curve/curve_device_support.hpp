// What the device tests of the curves share: points in both coordinate forms for the
// device, and the checks of what a device wrote against the reference.
#pragma once

#include <vector>

#include "backends.hpp"
#include "curve_reference.hpp"

namespace curve_test {

template <class C>
std::vector<sprig::curve::Affine<C>> affine_points(const std::vector<RefPoint>& points) {
  std::vector<sprig::curve::Affine<C>> out;
  for (const RefPoint& a : points) out.push_back(CurveReference<C>::affine(a));
  return out;
}

// The points in XYZZ coordinates, each with its own random z (fixed seed).
template <class C>
std::vector<sprig::curve::Xyzz<C>> xyzz_points(const std::vector<RefPoint>& points, unsigned long seed) {
  using Ref = CurveReference<C>;
  field_test::Random random(seed);
  std::vector<sprig::curve::Xyzz<C>> out;
  for (const RefPoint& a : points) out.push_back(Ref::xyzz(a, 1 + random.below(Ref::p() - 1)));
  return out;
}

// Affine points as the device wrote them against the expected points, limb for limb: the
// point at infinity must be (0, 0) and coordinates the canonical Montgomery forms.
template <class C>
void check_affine(const std::vector<sprig::curve::Affine<C>>& got, const std::vector<RefPoint>& expected,
                  const char* what) {
  REQUIRE(got.size() == expected.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == CurveReference<C>::affine(expected[i])) continue;
    if (++wrong <= 3) {
      INFO(what << " of pair " << i << ": expected " << expected[i].str() << ", got "
                << CurveReference<C>::point(got[i]).str());
      CHECK(false);
    }
  }
  INFO(what << ": " << wrong << " of " << got.size() << " wrong");
  CHECK(wrong == 0);
}

// XYZZ points as the device wrote them: the expected points, with ZZ^3 = ZZZ^2, and the
// point at infinity as all zeros.
template <class C>
void check_xyzz(const std::vector<sprig::curve::Xyzz<C>>& got, const std::vector<RefPoint>& expected,
                const char* what) {
  using Ref = CurveReference<C>;
  REQUIRE(got.size() == expected.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    bool right = Ref::point(got[i]) == expected[i] && Ref::consistent(got[i]) &&
                 (!expected[i].infinity || got[i] == sprig::curve::Xyzz<C>{});
    if (right) continue;
    if (++wrong <= 3) {
      INFO(what << " of pair " << i << ": expected " << expected[i].str() << ", got " << Ref::point(got[i]).str()
                << (Ref::consistent(got[i]) ? "" : " with ZZ^3 != ZZZ^2"));
      CHECK(false);
    }
  }
  INFO(what << ": " << wrong << " of " << got.size() << " wrong");
  CHECK(wrong == 0);
}

}  // namespace curve_test
