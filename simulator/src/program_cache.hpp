// Compiled programs, one per traced kernel, kept while the kernel is in use.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>

#include "program.hpp"

namespace sprig::sim {

class ProgramCache {
 public:
  explicit ProgramCache(std::size_t capacity = 256) : capacity_(capacity) {}
  // The program for `kernel`, compiled on first use.
  std::shared_ptr<const Program> get(const std::shared_ptr<const ir::Kernel>& kernel);

 private:
  // Keyed by the kernel object, not only its semantic hash: two kernels with the same
  // hash differ in source lines, and diagnostics must name the right ones.
  using Key = const ir::Kernel*;
  std::size_t capacity_;
  std::list<Key> order_;  // most recently used first
  std::unordered_map<Key, std::pair<std::shared_ptr<const Program>, std::list<Key>::iterator>> programs_;
};

}  // namespace sprig::sim
