// Field elements on the host, laid out as the device reads them: `limbs` 32-bit words,
// least significant first, so an element's 4 * limbs bytes are its little-endian bytes and
// a std::vector of elements uploads into a Buffer of them like any struct.
//
//   Canonical<P>   the value itself, 0 <= x < p
//   Montgomery<P>  x * R mod p with R = 2^(32 * limbs): the device's working form
//
// The two are distinct types (and distinct device struct types), so a buffer of one can
// never be read as the other. Converting between them costs one Montgomery product, on the
// host (to_montgomery / to_canonical here) or on the device (Fp<P>, fp.hpp).
//
// Every way of making a Canonical<P> from text, bytes or limbs checks the value and throws
// std::invalid_argument, naming the field, for one that is not below p. (The aggregate
// itself can hold any limbs; the device's conversion reduces those modulo p.)
#pragma once

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/dsl/reflect.hpp"
#include "sprig/stdlib/field/modulus.hpp"

namespace sprig::field {

template <PrimeModulus P>
struct Montgomery;

template <PrimeModulus P>
struct Canonical {
  using Limbs = typename FieldConstants<P>::Limbs;
  static constexpr std::size_t byte_count = 4 * limb_count<P>;

  Limbs limbs{};

  // The value of a decimal or 0x-hexadecimal string, checked to be below p.
  static Canonical parse(std::string_view text) {
    detail::Limbs<detail::max_parsed_limbs> value{};
    try {
      value = detail::parse_number(text);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(P::name) + ": '" + std::string(text) + "' is not a number: " + e.what());
    }
    if (detail::compare(value, detail::resize<detail::max_parsed_limbs>(FieldConstants<P>::modulus)) >= 0)
      throw std::invalid_argument(std::string(P::name) + ": " + std::string(text) + " is not below the modulus " +
                                  detail::to_hex(FieldConstants<P>::modulus));
    return Canonical{detail::resize<limb_count<P>>(value)};
  }
  static Canonical from_u64(std::uint64_t value) {
    Limbs limbs{};
    limbs[0] = std::uint32_t(value);
    if constexpr (limb_count<P> > 1) limbs[1] = std::uint32_t(value >> 32);
    else if (value >> 32)
      throw std::invalid_argument(std::string(P::name) + ": " + std::to_string(value) + " is not below the modulus");
    return from_limbs(limbs);
  }
  // Limbs least significant first, checked to be below p.
  static Canonical from_limbs(const Limbs& limbs) {
    if (detail::compare(limbs, FieldConstants<P>::modulus) >= 0)
      throw std::invalid_argument(std::string(P::name) + ": " + detail::to_hex(limbs) + " is not below the modulus " +
                                  detail::to_hex(FieldConstants<P>::modulus));
    return Canonical{limbs};
  }
  // Exactly byte_count little-endian bytes, checked to be below p.
  static Canonical from_bytes_le(std::span<const std::uint8_t> bytes) {
    if (bytes.size() != byte_count)
      throw std::invalid_argument(std::string(P::name) + ": an element is " + std::to_string(byte_count) +
                                  " little-endian bytes, not " + std::to_string(bytes.size()));
    Limbs limbs{};
    for (std::size_t k = 0; k < byte_count; ++k) limbs[k / 4] |= std::uint32_t(bytes[k]) << (8 * (k % 4));
    return from_limbs(limbs);
  }

  std::array<std::uint8_t, byte_count> to_bytes_le() const {
    std::array<std::uint8_t, byte_count> bytes{};
    for (std::size_t k = 0; k < byte_count; ++k) bytes[k] = std::uint8_t(limbs[k / 4] >> (8 * (k % 4)));
    return bytes;
  }
  std::string hex() const { return detail::to_hex(limbs); }

  friend bool operator==(const Canonical&, const Canonical&) = default;
};

template <PrimeModulus P>
struct Montgomery {
  typename FieldConstants<P>::Limbs limbs{};
  friend bool operator==(const Montgomery&, const Montgomery&) = default;
};

// Device struct names: the field's name and the form, e.g. "bn254_fq_canonical".
template <PrimeModulus P>
auto sprig_reflect(const Canonical<P>*) {
  static const std::string name = std::string(P::name) + "_canonical";
  return ::sprig::detail::reflection<Canonical<P>>(name, "limbs", &Canonical<P>::limbs);
}
template <PrimeModulus P>
auto sprig_reflect(const Montgomery<P>*) {
  static const std::string name = std::string(P::name) + "_montgomery";
  return ::sprig::detail::reflection<Montgomery<P>>(name, "limbs", &Montgomery<P>::limbs);
}

// x * R mod p. Reduces any limbs, so it also maps an unchecked aggregate to the element it
// is congruent to.
template <PrimeModulus P>
Montgomery<P> to_montgomery(const Canonical<P>& x) {
  using K = FieldConstants<P>;
  return {detail::montgomery_product(K::r2_mod_p, x.limbs, K::modulus, K::inverse)};
}

// The canonical value of a Montgomery form (reduced modulo p whatever the limbs hold).
template <PrimeModulus P>
Canonical<P> to_canonical(const Montgomery<P>& x) {
  using K = FieldConstants<P>;
  typename K::Limbs one{};
  one[0] = 1;
  return {detail::montgomery_product(x.limbs, one, K::modulus, K::inverse)};
}

template <PrimeModulus P>
std::vector<Montgomery<P>> to_montgomery(const std::vector<Canonical<P>>& xs) {
  std::vector<Montgomery<P>> out(xs.size());
  std::transform(xs.begin(), xs.end(), out.begin(), [](const Canonical<P>& x) { return to_montgomery(x); });
  return out;
}
template <PrimeModulus P>
std::vector<Canonical<P>> to_canonical(const std::vector<Montgomery<P>>& xs) {
  std::vector<Canonical<P>> out(xs.size());
  std::transform(xs.begin(), xs.end(), out.begin(), [](const Montgomery<P>& x) { return to_canonical(x); });
  return out;
}

}  // namespace sprig::field
