#include "vk_sequence.hpp"

#include <algorithm>
#include <cstring>

#include "sprig/dsl/error.hpp"
#include "vk_buffer.hpp"
#include "vk_context.hpp"
#include "vk_copy_kernel.hpp"
#include "vk_launch_check.hpp"
#include "vk_pipeline_cache.hpp"
#include "vk_result.hpp"

namespace sprig::vk {

namespace {

VkPipelineStageFlags vulkan_stages(unsigned stages) {
  VkPipelineStageFlags flags = 0;
  if (stages & ComputeStage) flags |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  if (stages & TransferStage) flags |= VK_PIPELINE_STAGE_TRANSFER_BIT;
  return flags;
}

VkAccessFlags vulkan_writes(unsigned stages) {
  VkAccessFlags flags = 0;
  if (stages & ComputeStage) flags |= VK_ACCESS_SHADER_WRITE_BIT;
  if (stages & TransferStage) flags |= VK_ACCESS_TRANSFER_WRITE_BIT;
  return flags;
}

// Checks [offset, offset + bytes) lies inside `buffer`, without overflowing.
void check_range(const char* what, const RawBuffer& buffer, std::size_t offset, std::size_t bytes) {
  if (offset > buffer.bytes() || bytes > buffer.bytes() - offset) {
    throw DeviceError(std::string(what) + ": bytes [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                      std::to_string(bytes) + ") are outside the buffer of " + std::to_string(buffer.bytes()) +
                      " bytes");
  }
}

// Buffers are ranges of their block's VkBuffer: views of one memory conflict where they overlap.
BufferAccess access_of(const VulkanBuffer& buffer, bool reads, bool writes) {
  return {reinterpret_cast<const void*>(buffer.handle()), reads, writes, buffer.offset(), buffer.capacity()};
}

}  // namespace

VulkanSequence::VulkanSequence(std::shared_ptr<DeviceContext> context, std::shared_ptr<PrintLog> prints)
    : context_((context->throw_if_lost(), std::move(context))),
      recording_(context_->recordings().take()),
      commands_(recording_->command().commands()),
      prints_(std::move(prints)) {
  recording_->command().begin();
}

VulkanSequence::~VulkanSequence() {
  if (state_ == State::Submitted) {
    // The GPU may still read the command buffer and buffers; the result cannot be reported.
    VkResult result = context_->lost() ? VK_ERROR_DEVICE_LOST : context_->wait_for(recording_->command().fence());
    if (result != VK_SUCCESS) {
      try {
        fail_wait(result, "vkWaitForFences (sequence destroyed)");
      } catch (...) {
      }
    }
  }
  if (state_ == State::Abandoned) {
    leak_in_flight_resources();
  } else if (state_ != State::Failed) {
    // A failed sequence may have left its command buffer in any state: not worth reusing.
    context_->recordings().give_back(std::move(recording_));
  }
}

void VulkanSequence::leak_in_flight_resources() noexcept {
  (void)recording_.release();
  (void)new std::set<std::shared_ptr<BufferStorage>>(std::move(used_buffers_));
  (void)new std::vector<std::shared_ptr<const Pipeline>>(std::move(pipelines_));
}

std::string VulkanSequence::kernels_text() const {
  std::vector<std::string> names;
  for (const TimedCommand& timed : recorded_) {
    const CommandProfile& c = timed.command;
    if (c.kind == CommandKind::Kernel && std::find(names.begin(), names.end(), c.name) == names.end()) {
      names.push_back(c.name);
    }
  }
  if (names.empty()) return "copies and fills only";
  constexpr std::size_t kNamed = 8;
  std::string text = names.size() == 1 ? "kernel " : "kernels ";
  for (std::size_t i = 0; i < names.size() && i < kNamed; ++i) text += (i > 0 ? ", '" : "'") + names[i] + "'";
  if (names.size() > kNamed) text += " and " + std::to_string(names.size() - kNamed) + " more";
  return text;
}

void VulkanSequence::fail_wait(VkResult result, const char* call) {
  bool in_flight = result == VK_TIMEOUT || result == VK_ERROR_DEVICE_LOST;
  state_ = in_flight ? State::Abandoned : State::Failed;
  if (result == VK_TIMEOUT) {
    context_->lose("a sequence (" + kernels_text() + ") did not finish within " + context_->timeout_text() +
                   " (vk::Options::wait_timeout)");
  }
  context_->throw_if_lost();
  context_->check(result, std::string(call) + " (sequence: " + kernels_text() + ")");
  throw DeviceError(std::string(call) + " failed");  // unreachable: result is not VK_SUCCESS
}

void VulkanSequence::expect_recording(const char* operation) const {
  context_->throw_if_lost();
  switch (state_) {
    case State::Recording: return;
    case State::Failed: throw DeviceError(std::string(operation) + ": the sequence failed earlier and cannot be used");
    default: throw DeviceError(std::string(operation) + ": the sequence was already submitted; record a new one");
  }
}

void VulkanSequence::record_barrier(const Dependency& before, VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
  // One global memory barrier: cheaper than per-buffer barriers on current drivers, and
  // the tracker has already decided that one is needed here.
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = vulkan_writes(before.writing_stages);
  barrier.dstAccessMask = dst_access;
  context_->vk().vkCmdPipelineBarrier(commands_, vulkan_stages(before.stages), dst_stages, 0, 1, &barrier, 0, nullptr, 0,
                                      nullptr);
}

void VulkanSequence::barrier_before(unsigned stage, std::span<const BufferAccess> accesses) {
  std::optional<Dependency> dependency = hazards_.add_command(stage, accesses);
  if (!dependency) return;
  // Covers every later command, because the tracker forgets the work it waits for.
  record_barrier(*dependency, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT);
}

VkDescriptorSet VulkanSequence::bind_arguments(const Pipeline& pipeline, const CheckedLaunch& checked,
                                               const ir::Kernel& kernel, const PrintBuffer* prints) {
  std::size_t count = checked.buffers.size() + checked.uniforms.size() + 1;
  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(count);  // the writes point into it
  std::vector<VkWriteDescriptorSet> writes;
  VkDescriptorSet set =
      recording_->descriptors().allocate(pipeline.set_layout, pipeline.storage_buffers, pipeline.uniform_buffers);
  auto add = [&](std::uint32_t binding, VkDescriptorType type, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
    // A zero range is invalid; one byte still gives the kernel an array length of 0.
    infos.push_back({buffer, offset, range > 0 ? range : 1});
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = type;
    write.pBufferInfo = &infos.back();
    writes.push_back(write);
  };
  for (const BoundBuffer& bound : checked.buffers) {
    add(bound.param->binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bound.storage->handle(), bound.storage->offset(),
        bound.bytes);
  }
  for (const BoundUniform& bound : checked.uniforms) {
    // Host-visible and private to this sequence: written now, alive until it is destroyed.
    RawBuffer copy = allocate_buffer(context_, bound.bytes->size(), nullptr, MemoryKind::HostVisible);
    auto& storage = static_cast<VulkanBuffer&>(*copy.storage());
    std::memcpy(storage.mapped(), bound.bytes->data(), bound.bytes->size());
    keep_alive(copy);
    add(bound.param->binding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, storage.handle(), storage.offset(), bound.bytes->size());
  }
  if (prints) {
    add(ir::print_binding(kernel), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, prints->storage().handle(),
        prints->storage().offset(), prints->buffer().bytes());
  }
  context_->vk().vkUpdateDescriptorSets(context_->device(), static_cast<std::uint32_t>(writes.size()), writes.data(), 0,
                                        nullptr);
  return set;
}

template <class Record>
void VulkanSequence::timed(CommandProfile command, Record&& record) {
  std::optional<TimestampQueries::Mark> begin = recording_->timestamps().write(commands_);
  record();
  std::optional<TimestampQueries::Mark> end = recording_->timestamps().write(commands_);
  recorded_.push_back({std::move(command), begin, end});
}

void VulkanSequence::record_dispatch(const Launch& launch, const Pipeline& pipeline, VkDescriptorSet set) {
  CommandProfile command;
  command.name = launch.kernel->name;
  command.loc = launch.loc;
  command.workgroups = launch.workgroups;
  command.statistics = pipeline.times.statistics;
  timed(std::move(command), [&] { record_commands(launch, pipeline, set); });
}

void VulkanSequence::record_commands(const Launch& launch, const Pipeline& pipeline, VkDescriptorSet set) {
  const VolkDeviceTable& vk = context_->vk();
  vk.vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
  vk.vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
  if (pipeline.push_constant_bytes > 0) {
    std::vector<std::byte> words(pipeline.push_constant_bytes);  // padded to whole words
    std::memcpy(words.data(), launch.push_constants.data(), launch.push_constants.size());
    vk.vkCmdPushConstants(commands_, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pipeline.push_constant_bytes,
                          words.data());
  }
  vk.vkCmdDispatch(commands_, launch.workgroups[0], launch.workgroups[1], launch.workgroups[2]);
}

void VulkanSequence::launch(Launch launch) {
  expect_recording("launch");
  // Everything that can fail for a reason of the user's happens before recording.
  CheckedLaunch checked = check_launch(launch, *context_);
  std::shared_ptr<const Pipeline> pipeline = context_->pipelines().get(*launch.kernel);
  try {
    const PrintBuffer* prints = nullptr;
    if (!launch.kernel->prints.empty()) {
      prints = &print_buffers_.emplace_back(context_, launch, prints_->options());
      keep_alive(prints->buffer());
    }
    VkDescriptorSet set = bind_arguments(*pipeline, checked, *launch.kernel, prints);
    std::vector<BufferAccess> accesses;
    // The closing barrier makes the print buffer's records visible to the host.
    if (prints) accesses.push_back(access_of(prints->storage(), false, true));
    for (const BoundBuffer& bound : checked.buffers) {
      auto used = bound.param->used;
      accesses.push_back(access_of(*bound.storage, (used & std::uint8_t(ir::Access::Read)) != 0,
                                   (used & std::uint8_t(ir::Access::Write)) != 0));
      keep_alive(std::get<RawBuffer>(launch.bindings[bound.param->binding]));
    }
    barrier_before(ComputeStage, accesses);
    record_dispatch(launch, *pipeline, set);
    pipelines_.push_back(std::move(pipeline));
  } catch (const DeviceLost&) {
    state_ = State::Failed;
    throw;
  } catch (const DeviceError& e) {
    state_ = State::Failed;
    throw DeviceError(launch_message(launch, e.what()));
  } catch (...) {
    state_ = State::Failed;
    throw;
  }
}

void VulkanSequence::copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst, std::size_t dst_offset,
                          std::size_t bytes) {
  expect_recording("copy");
  VulkanBuffer& from = vulkan_buffer(src, *context_, "copy source");
  VulkanBuffer& to = vulkan_buffer(dst, *context_, "copy destination");
  check_range("copy source", src, src_offset, bytes);
  check_range("copy destination", dst, dst_offset, bytes);
  if (&from == &to && src_offset < dst_offset + bytes && dst_offset < src_offset + bytes) {
    throw DeviceError("copy: source and destination ranges overlap within one buffer");
  }
  if (bytes == 0) return;
  if (copies_by_kernel(*context_, from, src_offset, to, dst_offset, bytes)) {
    record_kernel_copy(src, src_offset, dst, dst_offset, bytes);
    return;
  }
  BufferAccess accesses[] = {access_of(from, true, false), access_of(to, false, true)};
  barrier_before(TransferStage, accesses);
  VkBufferCopy region{from.offset() + src_offset, to.offset() + dst_offset, bytes};
  CommandProfile command;
  command.kind = CommandKind::Copy;
  command.name = "copy";
  command.bytes = bytes;
  timed(std::move(command), [&] { context_->vk().vkCmdCopyBuffer(commands_, from.handle(), to.handle(), 1, &region); });
  keep_alive(src);
  keep_alive(dst);
}

void VulkanSequence::record_kernel_copy(const RawBuffer& src, std::size_t src_offset, const RawBuffer& dst,
                                        std::size_t dst_offset, std::size_t bytes) {
  const std::size_t piece = copy_piece_bytes(*context_);
  for (std::size_t done = 0; done < bytes; done += piece) {
    const std::size_t part = std::min(piece, bytes - done);
    Launch copy;
    copy.kernel = copy_kernel();
    copy.workgroups = copy_workgroups(part);
    copy.bindings.resize(2);
    copy.bindings[copy.kernel->params[0].binding] = buffer_view(src, *context_, src_offset + done, part);
    copy.bindings[copy.kernel->params[1].binding] = buffer_view(dst, *context_, dst_offset + done, part);
    launch(std::move(copy));
    // A copy as the user recorded it, whatever moved the bytes.
    CommandProfile& command = recorded_.back().command;
    command.kind = CommandKind::Copy;
    command.name = "copy";
    command.bytes = part;
  }
  keep_alive(src);
  keep_alive(dst);
}

void VulkanSequence::fill(const RawBuffer& dst, std::size_t offset, std::size_t bytes, std::uint32_t word) {
  expect_recording("fill");
  VulkanBuffer& to = vulkan_buffer(dst, *context_, "fill");
  check_range("fill", dst, offset, bytes);
  if (offset % 4 != 0) throw DeviceError("fill: the offset " + std::to_string(offset) + " is not a multiple of 4");
  VkDeviceSize size = bytes;
  if (size % 4 != 0) {
    // A fill to the end of an odd-sized buffer may spill into the allocation's padding.
    if (offset + bytes != dst.bytes()) {
      throw DeviceError("fill: " + std::to_string(bytes) + " bytes is not a multiple of 4");
    }
    size = (size + 3) / 4 * 4;
  }
  if (size == 0) return;
  BufferAccess access = access_of(to, false, true);
  barrier_before(TransferStage, std::span(&access, 1));
  CommandProfile command;
  command.kind = CommandKind::Fill;
  command.name = "fill";
  command.bytes = bytes;
  timed(std::move(command),
        [&] { context_->vk().vkCmdFillBuffer(commands_, to.handle(), to.offset() + offset, size, word); });
  keep_alive(dst);
}

void VulkanSequence::submit() {
  expect_recording("submit");
  state_ = State::Failed;  // until the submission has succeeded
  Dependency everything = hazards_.whole_sequence();
  if (everything.stages != 0) {
    // Makes the results visible to the host after the fence and to later work on the
    // queue (other sequences, transfers), and orders that work after this sequence.
    // sprig's queue only ever runs compute and transfer commands, so those stages are all.
    record_barrier(everything,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT);
  }
  context_->check(context_->vk().vkEndCommandBuffer(commands_), "vkEndCommandBuffer (sequence)");
  // Never submit commands the validation layer has complained about.
  context_->throw_if_validation_messages("submit");
  context_->submit(commands_, recording_->command().fence(), "sequence");
  state_ = State::Submitted;
}

bool VulkanSequence::poll() {
  switch (state_) {
    case State::Recording: throw DeviceError("poll() before submit()");
    case State::Failed: throw DeviceError("poll(): the sequence failed earlier");
    case State::Abandoned: context_->throw_if_lost(); throw DeviceError("poll(): the sequence failed earlier");
    case State::Finished: return true;
    case State::Submitted: break;
  }
  context_->throw_if_lost();
  VkResult status = context_->fence_status(recording_->command().fence());
  if (status == VK_NOT_READY) return false;
  if (status != VK_SUCCESS) fail_wait(status, "vkGetFenceStatus");
  finish();
  return true;
}

void VulkanSequence::wait() {
  switch (state_) {
    case State::Recording: throw DeviceError("wait() before submit()");
    case State::Failed: throw DeviceError("wait(): the sequence failed earlier");
    case State::Abandoned: context_->throw_if_lost(); throw DeviceError("wait(): the sequence failed earlier");
    case State::Finished: break;
    case State::Submitted: {
      context_->throw_if_lost();
      VkResult result = context_->wait_for(recording_->command().fence());
      if (result != VK_SUCCESS) fail_wait(result, "vkWaitForFences");
      finish();
    }
  }
  context_->throw_if_validation_messages("wait");
}

void VulkanSequence::finish() {
  state_ = State::Finished;
  TimestampQueries& timestamps = recording_->timestamps();
  timestamps.fetch();
  timings_.clear();
  profiled_.clear();
  // The timeline starts where the first command does.
  std::optional<TimestampQueries::Mark> origin = recorded_.empty() ? std::nullopt : recorded_.front().begin;
  for (const TimedCommand& timed : recorded_) {
    CommandProfile c = timed.command;
    c.start_ms = timestamps.elapsed_ms(origin, timed.begin);
    c.end_ms = timestamps.elapsed_ms(origin, timed.end);
    if (c.kind == CommandKind::Kernel) {
      timings_.push_back({c.name, timestamps.elapsed_ms(timed.begin, timed.end), c.loc, c.statistics});
    }
    profiled_.push_back(std::move(c));
  }
  if (print_buffers_.empty()) return;
  std::vector<LaunchPrints> prints;
  for (const PrintBuffer& buffer : print_buffers_) prints.push_back(buffer.read());
  print_buffers_.clear();
  prints_->deliver(prints);
}

std::vector<LaunchTiming> VulkanSequence::timings() const {
  if (state_ != State::Finished) throw DeviceError("timings() are known once the sequence has finished (after wait())");
  return timings_;
}

SequenceProfile VulkanSequence::profile() const {
  if (state_ != State::Finished) throw DeviceError("profile() is known once the sequence has finished (after wait())");
  const DeviceInfo& info = context_->info();
  std::string clock = recording_->timestamps().enabled() ? "timestamp queries" : "none";
  return SequenceProfile{info.name, info.backend, info.driver_version, std::move(clock), profiled_};
}

}  // namespace sprig::vk
