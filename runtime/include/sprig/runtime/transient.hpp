// The storage behind a transient buffer: a name and a size, and no memory until the
// sequence that made it is submitted. Then the sequence's planner places it in scratch
// memory shared with the sequence's other transients and hands the backend a view of it.
#pragma once

#include <cstdint>
#include <string>

#include "sprig/runtime/buffer.hpp"

namespace sprig {

class SequenceMemory;

class TransientStorage final : public BufferStorage {
 public:
  TransientStorage(const SequenceMemory* owner, std::string name, std::uint64_t bytes)
      : owner_(owner), name_(std::move(name)), bytes_(bytes) {}

  const SequenceMemory* owner() const { return owner_; }  // null once its sequence is gone or submitted
  const std::string& name() const { return name_; }
  std::uint64_t bytes() const { return bytes_; }
  // Once the owner is planned: the view of scratch memory the commands use instead.
  const RawBuffer& placed() const { return placed_; }
  void place(RawBuffer view) { placed_ = std::move(view); }
  void forget_owner() { owner_ = nullptr; }

 private:
  const SequenceMemory* owner_;
  std::string name_;
  std::uint64_t bytes_;
  RawBuffer placed_;
};

// The transient storage of `buffer`, or null.
inline TransientStorage* transient_storage(const RawBuffer& buffer) {
  return dynamic_cast<TransientStorage*>(buffer.storage());
}

// Why a backend cannot use `buffer` directly when it is transient ("the buffer is the
// transient 'keys', which exists only inside the sequence that made it ..."), or empty.
std::string transient_misuse(const RawBuffer& buffer);

}  // namespace sprig
