// The memory side of a Sequence: which buffers each recorded command touches, the
// transient buffers the sequence was asked for, and, at submit, the plan that places the
// transients in shared scratch memory. Commands go straight to the backend until the first
// transient is asked for; from then on they wait here until submit, when every transient's
// live range is known and each command can be given its placed view.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "sprig/runtime/backend.hpp"
#include "sprig/runtime/memory_plan.hpp"
#include "sprig/runtime/transient.hpp"
#include "sprig/runtime/workspace.hpp"

namespace sprig {

struct CopyCommand {
  RawBuffer src;
  std::size_t src_offset;
  RawBuffer dst;
  std::size_t dst_offset;
  std::size_t bytes;
};
struct FillCommand {
  RawBuffer dst;
  std::size_t offset;
  std::size_t bytes;
  std::uint32_t word;
};
using SequenceCommand = std::variant<Launch, CopyCommand, FillCommand>;

class SequenceMemory {
 public:
  explicit SequenceMemory(std::shared_ptr<DeviceBackend> device) : device_(std::move(device)) {}
  ~SequenceMemory();
  SequenceMemory(const SequenceMemory&) = delete;
  SequenceMemory& operator=(const SequenceMemory&) = delete;

  RawBuffer add_transient(std::uint64_t bytes, ir::TypeRef element, std::string name);
  // Notes the buffers `command` touches, then sends it to `backend` or keeps it for submit.
  void record(SequenceCommand command, SequenceBackend& backend);
  // Plans the transients, checks the budget, places them and sends the kept commands.
  void flush(SequenceBackend& backend);

  void set_placement(TransientPlacement placement) { placement_ = placement; }
  void set_budget(std::uint64_t bytes, OverBudget over) { budget_ = bytes, over_budget_ = over; }
  void set_scratch_budget(std::optional<std::uint64_t> bytes) { scratch_budget_ = bytes; }
  void use_workspace(Workspace workspace) { workspace_ = std::move(workspace); }
  // The plan of the commands recorded so far (offsets are final once flushed).
  MemoryPlan plan() const;

 private:
  void touch(const RawBuffer& buffer, const char* what);
  std::uint64_t persistent_bytes() const;
  // Places `transients` (device scratch, and host scratch where the budget spills some).
  ScratchBytes place(std::vector<PlannedBuffer>& transients) const;
  void check_budget(const MemoryPlan& plan) const;
  void substitute(SequenceCommand& command) const;
  void send(SequenceCommand command, SequenceBackend& backend) const;

  std::shared_ptr<DeviceBackend> device_;
  std::vector<PlannedBuffer> buffers_;                           // every buffer touched, and every transient
  std::unordered_map<const BufferStorage*, std::size_t> index_;  // storage -> buffers_
  std::vector<std::shared_ptr<TransientStorage>> transients_;
  std::vector<std::size_t> transient_buffer_;  // transient index -> buffers_ index
  std::vector<SequenceCommand> kept_;
  std::size_t commands_ = 0;
  ScratchBytes scratch_bytes_;
  bool flushed_ = false;
  bool failed_ = false;  // a flush threw: the backend may hold only some of the commands
  TransientPlacement placement_ = TransientPlacement::Shared;
  std::uint64_t budget_ = 0;
  OverBudget over_budget_ = OverBudget::Refuse;
  std::optional<std::uint64_t> scratch_budget_;  // device scratch; transients past it spill
  std::optional<Workspace> workspace_;
};

}  // namespace sprig
