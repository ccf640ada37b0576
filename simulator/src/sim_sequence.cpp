#include "sim_sequence.hpp"

#include <chrono>

#include "sim_backend.hpp"
#include "sprig/dsl/error.hpp"

namespace sprig::sim {

namespace {

const std::shared_ptr<const KernelStatistics>& no_driver_statistics() {
  static const std::shared_ptr<const KernelStatistics> statistics =
      unavailable_statistics("the simulator has no driver statistics");
  return statistics;
}

double host_ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void SimSequence::expect_recording(const char* operation) const {
  switch (state_) {
    case State::Recording: return;
    case State::Failed: throw DeviceError(std::string(operation) + ": the sequence failed earlier and cannot be used");
    default: throw DeviceError(std::string(operation) + ": the sequence was already submitted; record a new one");
  }
}

void SimSequence::launch(Launch launch) {
  expect_recording("launch");
  device_->prepare(launch);
  PrintFilter filter = launch.kernel->prints.empty() ? PrintFilter{} : device_->prints().options().filter;
  commands_.push_back(Run{std::move(launch), filter});
}

void SimSequence::copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
                       std::size_t bytes) {
  expect_recording("copy");
  commands_.push_back(Copy{src, src_offset, dst, dst_offset, bytes});
}

void SimSequence::fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) {
  expect_recording("fill");
  commands_.push_back(Fill{dst, offset, bytes, word});
}

void SimSequence::submit() {
  expect_recording("submit");
  state_ = State::Failed;  // until every command has run
  std::vector<LaunchPrints> prints;
  double now_ms = 0;  // the profile's timeline: the commands back to back
  try {
    std::lock_guard queue(device_->queue());
    for (const Command& command : commands_) {
      CommandProfile profiled;
      profiled.start_ms = now_ms;
      if (const auto* r = std::get_if<Run>(&command)) {
        const Launch& l = r->launch;
        double ms = device_->execute(l, r->filter, prints);
        timings_.push_back(LaunchTiming{l.kernel->name, ms, l.loc, no_driver_statistics()});
        profiled.name = l.kernel->name;
        profiled.loc = l.loc;
        profiled.workgroups = l.workgroups;
        profiled.statistics = no_driver_statistics();
        now_ms += ms;
      } else if (const auto* c = std::get_if<Copy>(&command)) {
        auto start = std::chrono::steady_clock::now();
        device_->copy(c->src, c->src_offset, c->dst, c->dst_offset, c->bytes);
        profiled.kind = CommandKind::Copy;
        profiled.bytes = c->bytes;
        now_ms += host_ms_since(start);
      } else {
        const Fill& f = std::get<Fill>(command);
        auto start = std::chrono::steady_clock::now();
        device_->fill(f.dst, f.offset, f.bytes, f.word);
        profiled.kind = CommandKind::Fill;
        profiled.bytes = f.bytes;
        now_ms += host_ms_since(start);
      }
      if (profiled.kind != CommandKind::Kernel) profiled.name = std::string(to_string(profiled.kind));
      profiled.end_ms = now_ms;
      profiled_.push_back(std::move(profiled));
    }
  } catch (...) {
    // What a failing kernel printed before it stopped is what its author needs most; the
    // failure, not a sink's, is what the caller hears about.
    commands_.clear();
    try {
      device_->prints().deliver(prints);
    } catch (...) {
    }
    throw;
  }
  commands_.clear();  // releases the buffers the commands held
  state_ = State::Finished;
  device_->prints().deliver(prints);
}

SequenceProfile SimSequence::profile() const {
  if (state_ != State::Finished) throw DeviceError("profile() is known once the sequence has finished (after wait())");
  const DeviceInfo& info = device_->info();
  return SequenceProfile{info.name, info.backend, info.driver_version, "simulator host time", profiled_};
}

bool SimSequence::poll() {
  switch (state_) {
    case State::Recording: throw DeviceError("poll() before submit()");
    case State::Failed: throw DeviceError("poll(): the sequence failed earlier");
    case State::Finished: break;
  }
  return true;
}

void SimSequence::wait() {
  switch (state_) {
    case State::Recording: throw DeviceError("wait() before submit()");
    case State::Failed: throw DeviceError("wait(): the sequence failed earlier");
    case State::Finished: break;
  }
}

}  // namespace sprig::sim
