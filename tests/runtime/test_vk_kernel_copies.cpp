// Sequence::copy through the copy kernel (vk::Options::copies, vk_copy_kernel.hpp), which
// NVIDIA's driver gets by default: forced here on whatever device runs the tests, against
// the copy command's results. Copies the kernel cannot bind fall back to the command.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "sprig/runtime/vulkan.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

namespace {

vk::Device device_copying_by(vk::Options::CopyMethod method) {
  vk::Options options = test::test_options();
  options.spirv_compiler = nullptr;  // the copy kernel comes from sprig's own compiler
  options.copies = method;
  return vk::Device::best(options);
}

std::vector<std::uint32_t> words(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint32_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::uint32_t(i * 2654435761u) ^ seed;
  return out;
}

// Whether the sequence's copies ran as kernels: a kernel copy lists its workgroups.
std::vector<bool> copies_by_kernel(const Sequence& sequence) {
  std::vector<bool> by_kernel;
  for (const CommandProfile& command : sequence.profile().commands)
    if (command.kind == CommandKind::Copy) by_kernel.push_back(command.workgroups[0] != 0);
  return by_kernel;
}

}  // namespace

TEST_CASE("copies by kernel move the same bytes as copy commands, and fall back where a kernel cannot bind") {
  vk::Device device = device_copying_by(vk::Options::CopyMethod::Kernel);
  const std::size_t n = (std::size_t(17) << 20) / 4 + 12;  // past 65,535 workgroups of 16-byte vectors
  const std::vector<std::uint32_t> source = words(n, 0x5eed);
  auto a = device.upload(source);
  auto b = device.alloc<std::uint32_t>(n);
  auto c = device.alloc<std::uint32_t>(n);
  auto sequence = device.sequence();
  sequence.fill(b, 0u).fill(c, 0xffffffffu);
  sequence.copy(a, b);                                // whole buffers: a kernel
  sequence.copy(b, 1024, c, 4096, 64 * 1024);         // aligned ranges: a kernel, reading what the last one wrote
  sequence.copy(b, 4, c, 128 * 1024 + 4, 1000);       // 4-byte offsets: the command
  sequence.copy(b, 256 * 1024, c, 512 * 1024, 1000);  // a size that is no multiple of 16: the command
  sequence.run_and_wait();
  CHECK(copies_by_kernel(sequence) == std::vector<bool>{true, true, false, false});
  CHECK(device.download(b) == source);
  std::vector<std::uint32_t> expected(n, 0xffffffffu);
  auto place = [&](std::size_t from, std::size_t to, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes / 4; ++i) expected[to / 4 + i] = source[from / 4 + i];
  };
  place(1024, 4096, 64 * 1024);
  place(4, 128 * 1024 + 4, 1000);
  place(256 * 1024, 512 * 1024, 1000);
  CHECK(device.download(c) == expected);
}

TEST_CASE("copies by kernel through transients and host-visible buffers") {
  vk::Device device = device_copying_by(vk::Options::CopyMethod::Kernel);
  const std::vector<std::uint32_t> source = words(100000, 7);
  auto a = device.upload(source);
  auto visible = device.alloc<std::uint32_t>(source.size(), MemoryKind::HostVisible);
  auto out = device.alloc<std::uint32_t>(source.size());
  auto sequence = device.sequence();
  auto scratch = sequence.transient<std::uint32_t>(source.size(), "scratch");
  sequence.copy(a, scratch);        // a kernel, into the sequence's scratch
  sequence.copy(scratch, visible);  // host-visible memory: the command
  sequence.copy(scratch, out);      // a kernel
  sequence.run_and_wait();
  CHECK(copies_by_kernel(sequence) == std::vector<bool>{true, false, true});
  CHECK(device.download(visible) == source);
  CHECK(device.download(out) == source);
}

TEST_CASE("copy commands where asked, and by default on a device that is not NVIDIA's") {
  // One copy of whole buffers: whether a kernel made it, once its bytes are checked.
  auto copy_once = [](vk::Device device) {
    auto a = device.upload(words(4096, 3));
    auto b = device.alloc<std::uint32_t>(4096);
    auto sequence = device.sequence();
    sequence.copy(a, b);
    sequence.run_and_wait();
    CHECK(device.download(b) == device.download(a));
    return copies_by_kernel(sequence);
  };
  CHECK(copy_once(device_copying_by(vk::Options::CopyMethod::Command)) == std::vector<bool>{false});
  vk::Device automatic = device_copying_by(vk::Options::CopyMethod::Auto);
  const bool nvidia = automatic.info().driver == DriverId::NvidiaProprietary;
  CHECK(copy_once(std::move(automatic)) == std::vector<bool>{nvidia});
}

TEST_CASE("a copy by kernel larger than one binding holds runs as a launch per piece") {
  vk::Device device = device_copying_by(vk::Options::CopyMethod::Kernel);
  const std::size_t limit = device.info().max_buffer_bytes;
  if (limit > (std::size_t(256) << 20)) {
    WARN("maxStorageBufferRange is " << limit << " bytes here: too large a copy to test");
    return;
  }
  const std::size_t n = limit / 4 + 4096;  // one piece of the limit and one of 16 KiB
  const std::vector<std::uint32_t> source = words(n, 11);
  auto a = device.upload(source);
  auto b = device.alloc<std::uint32_t>(n);
  auto sequence = device.sequence();
  sequence.copy(a, b);
  sequence.run_and_wait();
  CHECK(copies_by_kernel(sequence) == std::vector<bool>{true, true});
  CHECK(device.download(b) == source);
}
