#include "sprig/runtime/sequence_memory.hpp"

#include <algorithm>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/memory_budget.hpp"

namespace sprig {

namespace {

template <class F>
void for_each_buffer(const SequenceCommand& command, F&& f) {
  if (const auto* launch = std::get_if<Launch>(&command)) {
    for (const BindingArg& binding : launch->bindings)
      if (const auto* buffer = std::get_if<RawBuffer>(&binding)) f(*buffer);
  } else if (const auto* copy = std::get_if<CopyCommand>(&command)) {
    f(copy->src);
    f(copy->dst);
  } else {
    f(std::get<FillCommand>(command).dst);
  }
}

const char* command_name(const SequenceCommand& command) {
  if (std::holds_alternative<Launch>(command)) return "launch";
  return std::holds_alternative<CopyCommand>(command) ? "copy" : "fill";
}

}  // namespace

std::string transient_misuse(const RawBuffer& buffer) {
  const TransientStorage* t = transient_storage(buffer);
  if (t == nullptr) return {};
  return "the buffer is the transient '" + t->name() +
         "', which exists only inside the sequence that made it (keep data that must outlive a sequence in a buffer "
         "from Device::alloc)";
}

SequenceMemory::~SequenceMemory() {
  // A transient the user still holds must not be mistaken for one of a later sequence.
  for (auto& t : transients_) t->forget_owner();
}

RawBuffer SequenceMemory::add_transient(std::uint64_t bytes, ir::TypeRef element, std::string name) {
  if (flushed_) throw DeviceError("transient: the sequence was already submitted (or finished recording); record a new one");
  if (name.empty()) name = "transient " + std::to_string(transients_.size());
  auto storage = std::make_shared<TransientStorage>(this, name, bytes);
  PlannedBuffer planned;
  planned.name = std::move(name);
  planned.bytes = bytes;
  planned.transient = true;
  planned.used = false;
  transient_buffer_.push_back(buffers_.size());
  index_[storage.get()] = buffers_.size();
  buffers_.push_back(std::move(planned));
  transients_.push_back(storage);
  return RawBuffer(std::move(storage), bytes, element);
}

void SequenceMemory::touch(const RawBuffer& buffer, const char* what) {
  if (!buffer) return;  // the backend names the empty buffer
  if (const TransientStorage* t = transient_storage(buffer); t != nullptr && t->owner() != this) {
    throw DeviceError(std::string(what) + ": the transient '" + t->name() +
                      "' belongs to another sequence (transient buffers live only inside the sequence that made them)");
  }
  auto [found, fresh] = index_.try_emplace(buffer.storage(), buffers_.size());
  if (fresh) {
    PlannedBuffer planned;
    planned.name = buffer.storage()->label();
    planned.bytes = buffer.bytes();
    planned.host = buffer.storage()->host_memory();
    buffers_.push_back(std::move(planned));
    buffers_.back().used = false;
  }
  PlannedBuffer& b = buffers_[found->second];
  if (!b.used) {
    b.used = true;
    b.first_command = commands_;
    b.touches = 1;
  } else if (b.last_command != commands_) {
    ++b.touches;  // a command binding a buffer twice touches it once
  }
  b.last_command = commands_;
}

void SequenceMemory::record(SequenceCommand command, SequenceBackend& backend) {
  if (flushed_) throw DeviceError("the sequence was already submitted (or finished recording); record a new one");
  const char* what = command_name(command);
  for_each_buffer(command, [&](const RawBuffer& b) { touch(b, what); });
  ++commands_;
  if (transients_.empty()) {
    send(std::move(command), backend);
  } else {
    kept_.push_back(std::move(command));
  }
}

std::uint64_t SequenceMemory::persistent_bytes() const {
  std::uint64_t bytes = 0;
  for (const PlannedBuffer& b : buffers_)
    if (!b.transient && !b.host) bytes += b.bytes;
  return bytes;
}

ScratchBytes SequenceMemory::place(std::vector<PlannedBuffer>& transients) const {
  const std::uint64_t block = scratch_block_bytes(device_->info());
  std::optional<std::uint64_t> limit = scratch_budget_;
  if (budget_ > 0 && over_budget_ == OverBudget::SpillToHost) {
    const std::uint64_t persistent = persistent_bytes();
    const std::uint64_t left = budget_ > persistent ? budget_ - persistent : 0;
    limit = limit ? std::min(*limit, left) : left;
  }
  if (!limit) return {place_transients(transients, placement_, block), 0};
  return place_transients_within(transients, placement_, block, *limit);
}

MemoryPlan SequenceMemory::plan() const {
  MemoryPlan plan;
  plan.commands = commands_;
  std::vector<PlannedBuffer> transients;
  for (const PlannedBuffer& b : buffers_) {
    if (b.transient) {
      transients.push_back(b);
    } else {
      plan.buffers.push_back(b);
      if (!b.host) plan.persistent_bytes += b.bytes;
    }
  }
  const ScratchBytes scratch = flushed_ ? scratch_bytes_ : place(transients);
  plan.scratch_bytes = scratch.device;
  plan.host_scratch_bytes = scratch.host;
  plan.live_transient_peak = live_transient_peak(transients);
  plan.buffers.insert(plan.buffers.end(), transients.begin(), transients.end());
  return plan;
}

void SequenceMemory::check_budget(const MemoryPlan& plan) const {
  if (budget_ == 0 || plan.peak_bytes() <= budget_) return;
  const PlannedBuffer* largest = nullptr;
  for (const PlannedBuffer& b : plan.buffers)
    if (b.used && (largest == nullptr || b.bytes > largest->bytes)) largest = &b;
  std::string message = "the sequence needs " + byte_size_text(plan.peak_bytes()) + " at its peak (persistent " +
                        byte_size_text(plan.persistent_bytes) + " + scratch " + byte_size_text(plan.scratch_bytes) +
                        "), but its memory budget is " + byte_size_text(budget_);
  if (over_budget_ == OverBudget::SpillToHost)
    message += " (with " + byte_size_text(plan.host_scratch_bytes) + " of transients spilled to host memory)";
  if (largest != nullptr) {
    std::string name = largest->name.empty() ? "a persistent buffer" : "'" + largest->name + "'";
    message += "; the largest buffer is " + name + " (" + byte_size_text(largest->bytes) + ")";
  }
  throw MemoryBudgetExceeded(message, plan.peak_bytes(), budget_);
}

void SequenceMemory::flush(SequenceBackend& backend) {
  if (failed_) throw DeviceError("submit: the sequence failed earlier and cannot be used");
  if (flushed_) return;
  failed_ = true;  // until every kept command has reached the backend
  std::vector<PlannedBuffer> transients;
  for (std::size_t i : transient_buffer_) transients.push_back(buffers_[i]);
  const std::uint64_t block = scratch_block_bytes(device_->info());
  scratch_bytes_ = place(transients);
  for (std::size_t k = 0; k < transient_buffer_.size(); ++k) buffers_[transient_buffer_[k]] = transients[k];
  flushed_ = true;
  check_budget(plan());

  auto scratch_blocks = [&](std::uint64_t bytes, MemoryKind memory) {
    if (bytes == 0) return std::vector<RawBuffer>();
    return workspace_ ? workspace_->blocks(*device_, bytes, memory) : allocate_scratch_blocks(*device_, bytes, memory);
  };
  const std::vector<RawBuffer> device_scratch = scratch_blocks(scratch_bytes_.device, MemoryKind::DeviceLocal);
  const std::vector<RawBuffer> host_scratch = scratch_blocks(scratch_bytes_.host, MemoryKind::Host);
  for (std::size_t k = 0; k < transients_.size(); ++k) {
    const PlannedBuffer& b = buffers_[transient_buffer_[k]];
    if (!b.used) continue;
    const std::vector<RawBuffer>& scratch = b.host ? host_scratch : device_scratch;
    transients_[k]->place(device_->view(scratch[b.offset / block], b.offset % block, b.bytes, transients_[k]->name()));
  }
  for (SequenceCommand& command : kept_) {
    substitute(command);
    send(std::move(command), backend);
  }
  kept_.clear();
  for (auto& t : transients_) {
    t->place(RawBuffer());  // the backend's commands keep the scratch alive while they need it
    t->forget_owner();
  }
  failed_ = false;
}

void SequenceMemory::substitute(SequenceCommand& command) const {
  auto placed = [](RawBuffer& buffer) {
    if (const TransientStorage* t = transient_storage(buffer))
      buffer = RawBuffer(t->placed().shared_storage(), buffer.bytes(), buffer.element_type());
  };
  if (auto* launch = std::get_if<Launch>(&command)) {
    for (BindingArg& binding : launch->bindings)
      if (auto* buffer = std::get_if<RawBuffer>(&binding)) placed(*buffer);
  } else if (auto* copy = std::get_if<CopyCommand>(&command)) {
    placed(copy->src);
    placed(copy->dst);
  } else {
    placed(std::get<FillCommand>(command).dst);
  }
}

void SequenceMemory::send(SequenceCommand command, SequenceBackend& backend) const {
  if (auto* launch = std::get_if<Launch>(&command)) {
    backend.launch(std::move(*launch));
  } else if (auto* copy = std::get_if<CopyCommand>(&command)) {
    backend.copy(copy->src, copy->src_offset, copy->dst, copy->dst_offset, copy->bytes);
  } else {
    const FillCommand& fill = std::get<FillCommand>(command);
    backend.fill(fill.dst, fill.offset, fill.bytes, fill.word);
  }
}

}  // namespace sprig
