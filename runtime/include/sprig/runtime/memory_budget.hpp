// How much device memory sprig may hold. Every buffer a backend allocates is charged to its
// device's ledger until the buffer is destroyed; a budget set on the ledger makes an
// allocation that would pass it fail with MemoryBudgetExceeded, before the driver is asked.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "sprig/dsl/error.hpp"

namespace sprig {

// An allocation or a plan that does not fit a budget. The message says how many bytes
// were asked for, what the budget allows and what is already held or the largest buffer.
class MemoryBudgetExceeded : public DeviceError {
 public:
  MemoryBudgetExceeded(const std::string& message, std::uint64_t asked, std::uint64_t allowed)
      : DeviceError(message), asked_(asked), allowed_(allowed) {}
  std::uint64_t asked() const { return asked_; }
  std::uint64_t allowed() const { return allowed_; }

 private:
  std::uint64_t asked_, allowed_;
};

// Bytes held, the high-water mark and the budget of one device. Thread-safe.
class MemoryLedger {
 public:
  // Counts `bytes` as held; throws MemoryBudgetExceeded (naming `what`) if that would pass
  // the budget, leaving the ledger unchanged.
  void charge(std::uint64_t bytes, const std::string& what);
  void refund(std::uint64_t bytes) noexcept { in_use_.fetch_sub(bytes, std::memory_order_relaxed); }

  void set_budget(std::uint64_t bytes) { budget_.store(bytes, std::memory_order_relaxed); }  // 0: none
  std::uint64_t budget() const { return budget_.load(std::memory_order_relaxed); }
  std::uint64_t in_use() const { return in_use_.load(std::memory_order_relaxed); }
  std::uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  // Starts a new high-water mark at what is held now (before a measured section).
  void reset_peak() { peak_.store(in_use(), std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> in_use_{0}, peak_{0}, budget_{0};
};

// A charge on a ledger, refunded when it is destroyed: buffers own one.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  MemoryCharge(std::shared_ptr<MemoryLedger> ledger, std::uint64_t bytes, const std::string& what)
      : ledger_(std::move(ledger)), bytes_(bytes) {
    ledger_->charge(bytes_, what);
  }
  MemoryCharge(MemoryCharge&& other) noexcept : ledger_(std::move(other.ledger_)), bytes_(other.bytes_) {
    other.ledger_.reset();
  }
  MemoryCharge& operator=(MemoryCharge&& other) noexcept {
    if (this != &other) {
      release();
      ledger_ = std::move(other.ledger_);
      bytes_ = other.bytes_;
      other.ledger_.reset();
    }
    return *this;
  }
  ~MemoryCharge() { release(); }
  std::uint64_t bytes() const { return ledger_ ? bytes_ : 0; }

 private:
  void release() noexcept {
    if (ledger_) ledger_->refund(bytes_);
    ledger_.reset();
  }
  std::shared_ptr<MemoryLedger> ledger_;
  std::uint64_t bytes_ = 0;
};

// "1.50 MiB (1572864 bytes)": sizes in messages and reports.
std::string byte_size_text(std::uint64_t bytes);

}  // namespace sprig
