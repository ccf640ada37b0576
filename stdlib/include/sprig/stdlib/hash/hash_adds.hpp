// How a hash's rounds add words: plainly, or as multiply-adds by a one the driver cannot
// fold. The form is chosen per device and keyed into the cache names of the kernels that
// take it.
//
// SHA-256's rounds and schedule are adds, logic and rotates. On NVIDIA's GPUs the adds
// compete with the logic and rotates for one integer pipe while the pipe that runs 32-bit
// multiply-adds has little to do; written as x * one + y, an add goes to the latter. With
// every add of the rounds and schedule so, the search of 7-byte candidates (hashcat's -m
// 1400 benchmark) went from 14.17 to 16.0 G hashes/s on an H100, in the same command;
// rotates moved the same way (as the two halves of a 64-bit product) made it slower, and
// scrypt's Salsa20/8 adds did not move it. BLAKE3 takes the form for the two adds into a
// of its quarter-round (1.13x at 1 KiB messages on an H100), not for those into c, which lost
// (docs/benchmarks.md, "Adds on the multiply-add pipe" and the paragraphs after it). A CPU
// multiplies slower than it adds, so other devices add plainly.
#pragma once

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sprig/dsl.hpp"
#include "sprig/runtime/backend.hpp"

namespace sprig::hash {

struct HashAddForm {
  bool multiply_add = false;
  std::string key() const { return multiply_add ? "/madd" : ""; }
};

// Multiply-adds on NVIDIA's proprietary driver, plain adds elsewhere. SPRIG_HASH_ADDS=plain
// or =multiply-add overrides it (for measurements and tests); any other value throws
// std::invalid_argument.
inline HashAddForm hash_add_form(const DeviceInfo& device) {
  if (const char* value = std::getenv("SPRIG_HASH_ADDS"); value && *value) {
    const std::string_view v = value;
    if (v == "plain") return {};
    if (v == "multiply-add") return {true};
    throw std::invalid_argument("SPRIG_HASH_ADDS=" + std::string(v) + ": expected \"plain\" or \"multiply-add\"");
  }
  return {device.driver == DriverId::NvidiaProprietary};
}

// Adds in a kernel being traced, in the form given. Construct it inside the kernel's body:
// the multiply-add form traces its one there.
class HashAdder {
 public:
  HashAdder() = default;  // plain adds
  explicit HashAdder(HashAddForm form) {
    // At least one workgroup runs wherever an invocation does, so this is 1; the driver
    // cannot know that, and keeps the multiplies.
    if (form.multiply_add) one_ = min(num_workgroups().x(), 1u);
  }
  UInt operator()(const UInt& x, const UInt& y) const { return one_ ? x * *one_ + y : x + y; }

 private:
  std::optional<UInt> one_;
};

}  // namespace sprig::hash
