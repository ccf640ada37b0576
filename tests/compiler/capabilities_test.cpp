// A module declares the capabilities its kernel uses and no others: Int64 only with 64-bit
// values, GroupNonUniform only with subgroup operations or built-ins.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

namespace {

std::vector<std::uint32_t> capabilities(const test::Module& m) {
  std::vector<std::uint32_t> out;
  for (const auto& c : m.instructions(spv::Op::OpCapability)) out.push_back(c.at(0));
  return out;
}

}  // namespace

TEST_CASE("a 32-bit kernel declares only Shader") {
  auto k = kernel("plain", [](UInt a, WriteBuffer<std::uint32_t> out) {
    out[0] = mul_hi(a, a) + count_leading_zeros(a) + bitfield_extract(a, a, 3u);
  });
  test::Module m = valid_module(k);
  CHECK(capabilities(m) == std::vector<std::uint32_t>{std::uint32_t(spv::Capability::Shader)});
}

TEST_CASE("a 64-bit value anywhere in the kernel declares Int64") {
  auto in_param = kernel("param64", [](ULong a, WriteBuffer<std::uint32_t> out) { out[0] = cast<std::uint32_t>(a); });
  auto in_buffer = kernel("buffer64", [](WriteBuffer<std::int64_t> out) { out[0] = -1ll; });
  auto in_local = kernel("local64", [](UInt a, WriteBuffer<std::uint32_t> out) {
    out[0] = cast<std::uint32_t>(mul_wide(a, a) >> 32ull);
  });
  for (const test::Module& m : {valid_module(in_param), valid_module(in_buffer), valid_module(in_local)}) {
    CHECK(m.has_capability(spv::Capability::Int64));
    CHECK_FALSE(m.has_capability(spv::Capability::Int64Atomics));
  }
}

TEST_CASE("subgroup built-ins declare GroupNonUniform only") {
  auto k = kernel("lane", [](WriteBuffer<std::uint32_t> out) {
    out[global_id().x()] = subgroup_invocation_id() + subgroup_size();
  });
  test::Module m = valid_module(k);
  CHECK(capabilities(m) == std::vector<std::uint32_t>{std::uint32_t(spv::Capability::Shader),
                                                      std::uint32_t(spv::Capability::GroupNonUniform)});
}

TEST_CASE("the module is SPIR-V 1.5 with a GLCompute entry point named main and the kernel's LocalSize") {
  auto k = kernel("sized", [](WriteBuffer<std::uint32_t> out) { out[local_index()] = 1u; }, workgroup(8, 4, 2));
  test::Module m = valid_module(k);
  CHECK(m.words.at(1) == 0x00010500u);
  auto entry = m.instructions(spv::Op::OpEntryPoint).at(0);
  CHECK(entry.at(0) == std::uint32_t(spv::ExecutionModel::GLCompute));
  CHECK(m.text.find("OpEntryPoint GLCompute %sized \"main\"") != std::string::npos);
  auto mode = m.instructions(spv::Op::OpExecutionMode).at(0);
  CHECK(mode == std::vector<std::uint32_t>{entry.at(1), std::uint32_t(spv::ExecutionMode::LocalSize), 8, 4, 2});
}
