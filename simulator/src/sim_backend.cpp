#include "sim_backend.hpp"

#include <chrono>
#include <cstring>

#include "launch_binding.hpp"
#include "observer_fanout.hpp"
#include "sim_buffer.hpp"
#include "sim_sequence.hpp"
#include "sprig/dsl/error.hpp"

namespace sprig::sim {

namespace {

std::uint64_t next_device_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

DeviceInfo describe_device(const Options& o) {
  if (o.subgroup_size != 8 && o.subgroup_size != 16 && o.subgroup_size != 32 && o.subgroup_size != 64)
    throw DeviceError("sim::Options::subgroup_size must be 8, 16, 32 or 64, not " + std::to_string(o.subgroup_size));
  DeviceInfo info;
  info.name = "sprig simulator (subgroup size " + std::to_string(o.subgroup_size) + ")";
  info.backend = "simulator";
  info.type = "simulator";
  info.subgroup_size = o.subgroup_size;
  info.min_subgroup_size = 8;
  info.max_subgroup_size = 64;
  info.max_shared_memory = o.max_shared_memory;
  info.max_workgroup_invocations = 1024;
  info.max_workgroup_size = {1024, 1024, 64};
  info.max_workgroup_count = {0x7fffffffu, 65535, 65535};
  info.max_buffer_bytes = o.max_buffer_bytes;
  ir::Features& f = info.supported;
  f.int64 = f.int64_atomics = true;
  f.subgroup_basic = f.subgroup_vote = f.subgroup_ballot = f.subgroup_shuffle = f.subgroup_shuffle_relative =
      f.subgroup_arithmetic = true;
  info.timestamp_period_ns = 1.0;
  return info;
}

void check_range(const RawBuffer& b, std::size_t offset, std::size_t bytes, const char* what) {
  if (offset > b.bytes() || bytes > b.bytes() - offset)
    throw DeviceError(std::string(what) + ": bytes [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                      std::to_string(bytes) + ") are outside a buffer of " + std::to_string(b.bytes()) + " bytes");
}

}  // namespace

Backend::Backend(Options options) : options_(options), info_(describe_device(options)), id_(next_device_id()) {}

RawBuffer Backend::allocate(std::size_t bytes, ir::TypeRef element, MemoryKind) {
  if (bytes > options_.max_buffer_bytes)
    throw DeviceError("allocate: " + std::to_string(bytes) + " bytes is more than the simulator's max_buffer_bytes (" +
                      std::to_string(options_.max_buffer_bytes) + ")");
  return RawBuffer(std::make_shared<SimBuffer>(bytes, id_), bytes, element);
}

void Backend::write(const RawBuffer& dst, std::size_t offset, std::span<const std::byte> data) {
  SimBuffer& b = sim_buffer(dst, id_, "write");
  check_range(dst, offset, data.size(), "write");
  std::lock_guard lock(mutex_);
  if (!data.empty()) std::memcpy(b.data() + offset, data.data(), data.size());
}

void Backend::read(const RawBuffer& src, std::size_t offset, std::span<std::byte> data) {
  SimBuffer& b = sim_buffer(src, id_, "read");
  check_range(src, offset, data.size(), "read");
  std::lock_guard lock(mutex_);
  if (!data.empty()) std::memcpy(data.data(), b.data() + offset, data.size());
}

std::unique_ptr<SequenceBackend> Backend::sequence() { return std::make_unique<SimSequence>(shared_from_this()); }

Report Backend::report() const {
  std::lock_guard lock(mutex_);
  return report_.report();
}

void Backend::clear_report() {
  std::lock_guard lock(mutex_);
  report_.clear();
}

void Backend::add_observer(std::shared_ptr<Observer> observer) {
  std::lock_guard lock(mutex_);
  observers_.push_back(std::move(observer));
  fanout_ = observers_.size() > 1 ? std::make_unique<ObserverFanout>(observers_) : nullptr;
}

void Backend::prepare(const Launch& launch) {
  check_launch(launch, info_, id_);
  std::lock_guard lock(mutex_);
  programs_.get(launch.kernel);
}

double Backend::execute(const Launch& launch) {
  std::lock_guard lock(mutex_);
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const Program> program = programs_.get(launch.kernel);
  const ir::Kernel& kernel = *launch.kernel;
  DiagnosticLog log(kernel, options_.error_limit);
  LaunchState state;
  bind_launch(launch, id_, state);
  state.program = program.get();
  state.options = &options_;
  state.width = subgroup_width(kernel, info_);
  state.log = &log;
  state.observer = fanout_ ? fanout_.get() : observers_.empty() ? nullptr : observers_.front().get();
  if (state.observer) state.observer->launch_begin(kernel, launch.workgroups, state.width);
  LaunchSummary summary;
  summary.totals = run_launch(state);
  if (state.observer) state.observer->launch_end();
  const auto& size = kernel.workgroup_size;
  summary.invocations = std::uint64_t(launch.workgroups[0]) * launch.workgroups[1] * launch.workgroups[2] * size[0] *
                        size[1] * size[2];
  summary.subgroup_size = state.width;
  summary.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  report_.add(kernel, log, summary);
  return summary.host_ms;
}

void Backend::copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
                   std::size_t bytes) {
  SimBuffer& from = sim_buffer(src, id_, "copy source");
  SimBuffer& to = sim_buffer(dst, id_, "copy destination");
  check_range(src, src_offset, bytes, "copy");
  check_range(dst, dst_offset, bytes, "copy");
  std::lock_guard lock(mutex_);
  if (bytes) std::memmove(to.data() + dst_offset, from.data() + src_offset, bytes);
}

void Backend::fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) {
  SimBuffer& to = sim_buffer(dst, id_, "fill");
  if (offset % 4 != 0 || bytes % 4 != 0) throw DeviceError("fill: the offset and size must be multiples of 4 bytes");
  check_range(dst, offset, bytes, "fill");
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < bytes; i += 4) std::memcpy(to.data() + offset + i, &word, 4);
}

}  // namespace sprig::sim
