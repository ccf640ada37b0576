#include "sim_sequence.hpp"

#include "sim_backend.hpp"
#include "sprig/dsl/error.hpp"

namespace sprig::sim {

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
  try {
    for (const Command& command : commands_) {
      if (const auto* r = std::get_if<Run>(&command)) {
        timings_.push_back(LaunchTiming{r->launch.kernel->name, device_->execute(r->launch, r->filter, prints)});
      } else if (const auto* c = std::get_if<Copy>(&command)) {
        device_->copy(c->src, c->src_offset, c->dst, c->dst_offset, c->bytes);
      } else {
        const Fill& f = std::get<Fill>(command);
        device_->fill(f.dst, f.offset, f.bytes, f.word);
      }
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
