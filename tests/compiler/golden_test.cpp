// Golden disassembly of a few tiny kernels: the exact SPIR-V sprig emits, kept in
// tests/compiler/golden/*.spvasm for review. After an intended change to the emitter (or
// to this file's line numbers, which OpLine records), rewrite them with
//
//   SPRIG_UPDATE_GOLDEN=1 ./test_compiler "[golden]"
//
// and review the diff.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "spirv_checks.hpp"

using namespace sprig;

namespace {

// The disassembly with source paths relative to the repository, so that the golden text
// does not depend on where the repository is checked out.
std::string portable_text(const test::Module& m) {
  std::string text = m.text, root = SPRIG_SOURCE_ROOT;
  for (std::size_t at = text.find(root); at != std::string::npos; at = text.find(root, at))
    text.erase(at, root.size());
  return text;
}

void check_golden(const std::string& name, const test::Module& m) {
  std::string path = std::string(SPRIG_GOLDEN_DIR) + "/" + name + ".spvasm";
  std::string actual = portable_text(m);
  const char* update = std::getenv("SPRIG_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path) << actual;
    WARN("rewrote " << path);
    return;
  }
  std::ifstream in(path);
  INFO("golden file " << path << " (SPRIG_UPDATE_GOLDEN=1 rewrites it)");
  REQUIRE(in.good());
  std::stringstream expected;
  expected << in.rdbuf();
  CHECK(actual == expected.str());
}

}  // namespace

TEST_CASE("golden: saxpy, the map the benchmark compares with glslang", "[golden]") {
  auto k = kernel("saxpy", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  }, workgroup(256));
  check_golden("saxpy", test::valid_module(k));
}

TEST_CASE("golden: a for_ loop with break", "[golden]") {
  auto k = kernel("sum_until", [](UInt n, UInt limit, WriteBuffer<std::uint32_t> out) {
    Var<UInt> sum;
    sum.named("sum");
    for_(0u, n, [&](UInt i) {
      if_(sum > limit, [&] { break_(); });
      sum += i;
    });
    out[0] = sum;
  }, workgroup(1));
  check_golden("loop", test::valid_module(k));
}

TEST_CASE("golden: a callable called twice", "[golden]") {
  auto mix32 = callable("mix32", [](UInt a, UInt b) -> UInt { return rotate_left(a ^ b, 7u) * 9u; });
  auto k = kernel("hash", [&](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = mix32(mix32(in[i], 1u), i);
  }, workgroup(64));
  check_golden("callable", test::valid_module(k));
}

TEST_CASE("golden: shared memory, a barrier and an atomic", "[golden]") {
  auto k = kernel("histogram", [](ReadBuffer<std::uint32_t> in, Buffer<std::uint32_t> bins) {
    auto local = shared_array<std::uint32_t>(16, "local_bins");
    UInt l = local_index();
    if_(l < 16u, [&] { local[l] = 0u; });
    barrier();
    atomic_add(local[in[global_id().x()] & 15u], 1u);
    barrier();
    if_(l < 16u, [&] { atomic_add(bins[l], local[l]); });
  }, workgroup(64));
  check_golden("histogram", test::valid_module(k));
}
