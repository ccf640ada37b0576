// What the device tests of the fields share: elements to and from GMP values, and the
// check that a device's results equal the oracle's element by element.
#pragma once

#include <vector>

#include "backends.hpp"
#include "gmp_reference.hpp"

namespace field_test {

template <class P>
std::vector<sprig::field::Montgomery<P>> montgomery_elements(const std::vector<mpz_class>& values) {
  std::vector<sprig::field::Montgomery<P>> elements;
  for (const mpz_class& v : values) elements.push_back(Reference<P>::montgomery(v));
  return elements;
}

template <class P>
std::vector<mpz_class> values_of(const std::vector<sprig::field::Montgomery<P>>& elements) {
  std::vector<mpz_class> values;
  for (const auto& e : elements) values.push_back(Reference<P>::value(e));
  return values;
}

// `got` (Montgomery forms, as the device wrote them) against the expected values: the
// forms must be the canonical Montgomery forms, limb for limb, so that both backends and
// GMP agree bit for bit. `what` names the operation in a failure.
template <class P>
void check_elements(const std::vector<sprig::field::Montgomery<P>>& got, const std::vector<mpz_class>& expected,
                    const char* what) {
  REQUIRE(got.size() == expected.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == Reference<P>::montgomery(expected[i])) continue;
    if (++wrong <= 3) {
      INFO(what << " of element " << i << ": expected " << expected[i].get_str(16) << ", got Montgomery limbs of "
                << to_mpz(got[i].limbs).get_str(16) << " (value " << Reference<P>::value(got[i]).get_str(16) << ")");
      CHECK(false);
    }
  }
  INFO(what << ": " << wrong << " of " << got.size() << " wrong");
  CHECK(wrong == 0);
}

}  // namespace field_test
