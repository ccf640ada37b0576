// Debug info: OpLine carries the user's source line for the instructions a DSL call
// produced, OpName the names the user gave; with debug info off neither appears.
#include <cstring>

#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

namespace {

// The line of the OpLine in effect at the first instruction of `op` (0 if none).
std::uint32_t line_of_first(const test::Module& m, spv::Op op) {
  std::uint32_t line = 0;
  for (std::size_t i = 5; i < m.words.size();) {
    std::uint32_t count = m.words[i] >> spv::WordCountShift;
    spv::Op o = spv::Op(m.words[i] & spv::OpCodeMask);
    if (o == spv::Op::OpLine) line = m.words[i + 2];
    if (o == spv::Op::OpLabel) line = 0;
    if (o == op) return line;
    i += count;
  }
  return 0;
}

}  // namespace

TEST_CASE("OpLine gives each instruction the line of the DSL call that produced it") {
  const std::uint32_t first_line = __LINE__ + 1;  // the kernel(...) line
  auto k = kernel("lines", [](UInt a, WriteBuffer<std::uint32_t> out) {
    UInt product = a * 3u;
    out[0] = product;
  });
  test::Module m = valid_module(k);
  CHECK(line_of_first(m, spv::Op::OpIMul) == first_line + 1);
  CHECK(line_of_first(m, spv::Op::OpStore) == first_line + 2);
  CHECK(m.text.find("OpString \"" __FILE__ "\"") != std::string::npos);
}

TEST_CASE("OpName names the kernel, callables, variables, parameters and struct fields") {
  auto twice = callable("twice", [](UInt v) -> UInt { return v * 2u; });
  auto k = kernel("named", [&](UInt count, WriteBuffer<std::uint32_t> out) {
    Var<UInt> total = twice(count);
    total.named("total");
    out[0] = total;
  });
  test::Module m = valid_module(k);
  CHECK(m.text.find("OpName %named \"named\"") != std::string::npos);
  CHECK(m.text.find("OpName %twice \"twice\"") != std::string::npos);
  CHECK(m.text.find("OpName %total \"total\"") != std::string::npos);
  CHECK(m.text.find("OpMemberName %push_constants_block 0 \"param0\"") != std::string::npos);
  CHECK(m.text.find("OpName %param1 \"param1\"") != std::string::npos);
}

TEST_CASE("without debug info there are no names, strings or lines") {
  auto k = kernel("bare", [](UInt a, WriteBuffer<std::uint32_t> out) {
    Var<UInt> v = a;
    v.named("v");
    out[0] = v;
  });
  test::Module m = valid_module(k, false);
  CHECK_FALSE(m.contains(spv::Op::OpName));
  CHECK_FALSE(m.contains(spv::Op::OpMemberName));
  CHECK_FALSE(m.contains(spv::Op::OpString));
  CHECK_FALSE(m.contains(spv::Op::OpLine));
}

TEST_CASE("debug info does not change the code") {
  auto k = kernel("same_code", [](UInt a, WriteBuffer<std::uint32_t> out) {
    for_(0u, a, [&](UInt i) { out[i] = i * a; });
  });
  test::Module with = valid_module(k, true), without = valid_module(k, false);
  for (spv::Op op : {spv::Op::OpIMul, spv::Op::OpStore, spv::Op::OpLoad, spv::Op::OpBranch, spv::Op::OpLoopMerge})
    CHECK(with.count(op) == without.count(op));
}
