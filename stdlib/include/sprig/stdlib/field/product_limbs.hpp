// Which Montgomery product the field's device functions are traced with: 32-bit limbs
// (every device) or 64-bit limbs (devices with Int64). Both compute the same a * b * R^-1
// mod p with R = 2^(32 N) on the same 32-bit words in memory, so only the code differs. On
// an H100 (driver 580) the 64-bit product ran 2.13x the 32-bit one for BN254 and 1.93x for
// BLS12-381, on lavapipe 1.03x and 0.79x (bench_msm, docs/fields.md).
//
// The choice is made at trace time, for the calling thread: code that knows its device
// (curve::msm) traces inside a ProductLimbsScope, and every cached device function and
// kernel of the field and curve libraries keys its cache by the choice, so the two never mix.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "sprig/runtime/backend.hpp"

namespace sprig::field {

enum class ProductLimbs {
  Auto,    // what product_limbs_for picks for the device and field
  Bits32,  // every device
  Bits64,  // devices with Int64 (shaderInt64)
};

namespace detail {
inline thread_local ProductLimbs traced_product_limbs = ProductLimbs::Bits32;

// Appended to the cache keys of traced field and curve code: "" for 32-bit limbs.
inline std::string product_limbs_key() { return traced_product_limbs == ProductLimbs::Bits64 ? "/limbs64" : ""; }
}  // namespace detail

// The limbs `wanted` resolves to on `device` for a field of `field_limbs` 32-bit limbs;
// Bits64 on a device without Int64 throws. Auto takes 64-bit limbs on devices with Int64:
// an MSM of 2^20 BN254 points ran 1.8x as fast on the H100, of 2^13 to 2^18 BLS12-381 points
// 1.7x to 1.9x. On CPU devices and the simulator it keeps fields of more than 8 limbs
// (BLS12-381's base field) on 32-bit limbs: lavapipe's BLS12-381 product chains ran 0.79x
// as fast with 64-bit ones (docs/fields.md).
inline ProductLimbs product_limbs_for(const DeviceInfo& device, std::size_t field_limbs,
                                      ProductLimbs wanted = ProductLimbs::Auto) {
  if (wanted == ProductLimbs::Auto) {
    const bool on_cpu = device.kind == DeviceKind::Cpu || device.kind == DeviceKind::Simulator;
    return device.supported.int64 && (field_limbs <= 8 || !on_cpu) ? ProductLimbs::Bits64 : ProductLimbs::Bits32;
  }
  if (wanted == ProductLimbs::Bits64 && !device.supported.int64)
    throw std::invalid_argument("field products with 64-bit limbs need 64-bit integers (shaderInt64), which " +
                                device.name + " does not offer");
  return wanted;
}

// Field and curve code traced on this thread while it lives uses `limbs` (Bits32 or Bits64).
class ProductLimbsScope {
 public:
  explicit ProductLimbsScope(ProductLimbs limbs) : saved_(detail::traced_product_limbs) {
    if (limbs == ProductLimbs::Auto) throw std::logic_error("ProductLimbsScope: resolve Auto with product_limbs_for");
    detail::traced_product_limbs = limbs;
  }
  ~ProductLimbsScope() { detail::traced_product_limbs = saved_; }
  ProductLimbsScope(const ProductLimbsScope&) = delete;
  ProductLimbsScope& operator=(const ProductLimbsScope&) = delete;

 private:
  ProductLimbs saved_;
};

}  // namespace sprig::field
