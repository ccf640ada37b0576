// A recorded sequence of launches, copies and fills; submit() runs them in order on the
// calling thread (the simulator has no queue to overlap with), so poll() is true and
// wait() returns at once after it. submit() also delivers the launches' device_print lines,
// those of a launch that failed included. Its profile times each command by the host time
// it took: the interpreter's cost, which says nothing of a GPU's.
#pragma once

#include <memory>
#include <variant>
#include <vector>

#include "sprig/runtime/backend.hpp"

namespace sprig::sim {

class Backend;

class SimSequence final : public SequenceBackend {
 public:
  explicit SimSequence(std::shared_ptr<Backend> device) : device_(std::move(device)) {}

  void launch(Launch launch) override;
  void copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
            std::size_t bytes) override;
  void fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) override;
  void submit() override;
  bool poll() override;
  void wait() override;
  std::vector<LaunchTiming> timings() const override { return timings_; }
  SequenceProfile profile() const override;

 private:
  struct Copy {
    RawBuffer src;
    std::size_t src_offset;
    RawBuffer dst;
    std::size_t dst_offset;
    std::size_t bytes;
  };
  struct Fill {
    RawBuffer dst;
    std::size_t offset;
    std::size_t bytes;
    std::uint32_t word;
  };
  // A launch with the print filter in force when it was recorded.
  struct Run {
    Launch launch;
    PrintFilter filter;
  };
  using Command = std::variant<Run, Copy, Fill>;
  enum class State { Recording, Finished, Failed };

  void expect_recording(const char* operation) const;

  std::shared_ptr<Backend> device_;
  std::vector<Command> commands_;
  std::vector<LaunchTiming> timings_;
  std::vector<CommandProfile> profiled_;
  State state_ = State::Recording;
};

}  // namespace sprig::sim
