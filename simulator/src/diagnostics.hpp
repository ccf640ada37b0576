// Errors and warnings of one launch, each recorded once per (problem, source line) with a
// count and the first invocation that hit it; errors count toward Options::error_limit.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sprig/dsl/ir.hpp"
#include "sprig/simulator/report.hpp"

namespace sprig::sim {

class DiagnosticLog {
 public:
  DiagnosticLog(const ir::Kernel& kernel, std::uint32_t error_limit) : kernel_(kernel), error_limit_(error_limit) {}

  // Records one occurrence at `loc`; `message()` is only called for the first one. Returns
  // false once the launch has to stop (the error limit is reached).
  template <class F>
  bool add(Problem problem, bool is_error, const SourceLoc& loc, const std::array<std::uint32_t, 3>& invocation,
           F&& message) {
    if (stopped_) return false;
    Key key{problem, loc.file, loc.line, loc.column};
    auto it = index_.find(key);
    if (it != index_.end()) {
      ++entries_[it->second].occurrences;
    } else {
      index_.emplace(key, entries_.size());
      entries_.push_back(Diagnostic{problem, is_error, kernel_.name, loc, message(), invocation, 1});
    }
    if (!is_error) return true;
    return ++errors_ < error_limit_ || stop_at_limit(loc, invocation);
  }

  const std::vector<Diagnostic>& entries() const { return entries_; }
  std::uint64_t errors() const { return errors_; }

 private:
  using Key = std::tuple<Problem, const char*, std::uint32_t, std::uint32_t>;
  bool stop_at_limit(const SourceLoc& loc, const std::array<std::uint32_t, 3>& invocation);

  const ir::Kernel& kernel_;
  std::uint32_t error_limit_;
  std::uint64_t errors_ = 0;
  bool stopped_ = false;
  std::vector<Diagnostic> entries_;
  std::map<Key, std::size_t> index_;
};

}  // namespace sprig::sim
