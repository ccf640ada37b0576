// Which Montgomery product the field's device functions are traced with: 32-bit limbs
// (every device), 64-bit limbs or 29-bit limbs summed in 64-bit columns (devices with
// Int64). All compute the same a * b * R^-1 mod p with R = 2^(32 N) on the same 32-bit
// words in memory, so only the code differs. On an H100 (driver 580) BN254 product chains
// ran 2.10x the 32-bit product's speed with 64-bit limbs and 3.00x with 29-bit ones; on
// lavapipe 0.65x and 1.55x, and BLS12-381's 1.10x and 2.68x (bench_msm, docs/fields.md).
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
  Bits29,  // 29-bit limbs summed in 64-bit columns, carries taken once (devices with Int64)
};

namespace detail {
inline thread_local ProductLimbs traced_product_limbs = ProductLimbs::Bits32;

// Appended to the cache keys of traced field and curve code: "" for 32-bit limbs.
inline std::string product_limbs_key() {
  switch (traced_product_limbs) {
    case ProductLimbs::Bits64: return "/limbs64";
    case ProductLimbs::Bits29: return "/limbs29";
    default: return "";
  }
}
}  // namespace detail

// The limbs `wanted` resolves to on `device`; Bits64 or Bits29 on a device without Int64
// throws. Auto takes 29-bit limbs wherever the device has Int64, the fastest of the three
// on every device measured, GPU and CPU, and for every field: an MSM of 2^20 BN254 points
// on the H100 took 14.4 ms against 25.3 with 64-bit limbs (docs/fields.md).
inline ProductLimbs product_limbs_for(const DeviceInfo& device, std::size_t /*field_limbs*/,
                                      ProductLimbs wanted = ProductLimbs::Auto) {
  if (wanted == ProductLimbs::Auto) return device.supported.int64 ? ProductLimbs::Bits29 : ProductLimbs::Bits32;
  if ((wanted == ProductLimbs::Bits64 || wanted == ProductLimbs::Bits29) && !device.supported.int64)
    throw std::invalid_argument(std::string("field products with ") +
                                (wanted == ProductLimbs::Bits64 ? "64-bit limbs" : "29-bit limbs in 64-bit sums") +
                                " need 64-bit integers (shaderInt64), which " + device.name + " does not offer");
  return wanted;
}

// Field and curve code traced on this thread while it lives uses `limbs` (not Auto).
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
