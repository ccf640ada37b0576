#include "sprig/stdlib/pos/params.hpp"

#include <stdexcept>
#include <string>

namespace sprig::pos {

const char* mode_name(Mode mode) { return mode == Mode::Abundance ? "Abundance" : "Subspace"; }

void check_k(int k) {
  if (k < min_k || k > max_k)
    throw std::invalid_argument("proof of space: K = " + std::to_string(k) + " is out of range (supported: " +
                                std::to_string(min_k) + ".." + std::to_string(max_k) + ")");
}

void check_k(int k, Mode mode) {
  check_k(k);
  if (mode == Mode::Subspace && k > max_subspace_k)
    throw std::invalid_argument("proof of space: K = " + std::to_string(k) + " is out of range for Subspace's rules " +
                                "(supported: " + std::to_string(min_k) + ".." + std::to_string(max_subspace_k) + ")");
}

}  // namespace sprig::pos
