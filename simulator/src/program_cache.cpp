#include "program_cache.hpp"

namespace sprig::sim {

std::shared_ptr<const Program> ProgramCache::get(const std::shared_ptr<const ir::Kernel>& kernel) {
  auto it = programs_.find(kernel.get());
  if (it != programs_.end()) {
    order_.splice(order_.begin(), order_, it->second.second);
    return it->second.first;
  }
  std::shared_ptr<const Program> program = compile_program(kernel);
  order_.push_front(kernel.get());
  programs_.emplace(kernel.get(), std::make_pair(program, order_.begin()));
  // The program holds its kernel, so a cached key can never be a recycled address.
  while (programs_.size() > capacity_) {
    programs_.erase(order_.back());
    order_.pop_back();
  }
  return program;
}

}  // namespace sprig::sim
