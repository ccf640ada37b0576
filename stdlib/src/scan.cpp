#include "sprig/stdlib/scan.hpp"

#include <stdexcept>

namespace sprig::detail {

ScanMode resolve_scan_mode(ScanMode requested, const DeviceInfo& device) {
  if (requested != ScanMode::Auto) return requested;
  // The look-back's status words are 64-bit atomics; without them, take the pass that
  // never waits.
  return device.supported.int64_atomics ? ScanMode::DecoupledLookBack : ScanMode::ReduceThenScan;
}

void check_scan_sizes(std::size_t in, std::size_t out, const char* what) {
  if (out < in)
    throw std::invalid_argument(std::string(what) + ": the output holds " + std::to_string(out) +
                                " elements, fewer than the input's " + std::to_string(in));
  if (in > std::size_t(0xFFFFFFFFu) - (std::size_t(1) << 16))
    throw std::invalid_argument(std::string(what) + ": more than 2^32 - 2^16 elements");
}

}  // namespace sprig::detail
