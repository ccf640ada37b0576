// Bugs found by the fuzzer, as reduced programs (printed by sprig-fuzz), on both backends.
// Each names the seed and campaign that found it and says whose bug it is (docs/fuzzing.md).
#include "backends.hpp"

using namespace sprig;
using test::outputs;

// Seed 606 (CI seeds), reduced: lavapipe (Mesa 22.3.6, LLVM 15) orders a sign-extended
// 32-bit value against a small 64-bit constant wrongly: sext(0) >= 1 and sext(0) > 0 come
// out true, sext(0) < 1 false. The SPIR-V (OpSConvert, OpSGreaterThanEqual) is right and the
// simulator agrees with semantics.hpp: a driver bug. [!mayfail] until sprig works around it
// (a driver quirk) or the driver is fixed; the simulator's half passes.
TEST_CASE("64-bit signed comparison of a sign-extended int32 with a constant", "[!mayfail]") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("fuzz_seed_606", [](Int zero, WriteBuffer<std::uint32_t> out) {
    Var<Bool> v1 = (cast<std::int64_t>(Int(0)) >= Long(std::int64_t(1)));  // as the reducer printed it
    out[0] = cast<std::uint32_t>(v1.load());
    Long wide = cast<std::int64_t>(zero);
    out[1] = cast<std::uint32_t>(wide >= Long(std::int64_t(1)));
    out[2] = cast<std::uint32_t>(wide > Long(std::int64_t(0)));
    out[3] = cast<std::uint32_t>(wide < Long(std::int64_t(1)));
    out[4] = cast<std::uint32_t>(wide >= Long(std::int64_t(-1)));
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(dev, k, 5, grid(1), 0) == std::vector<std::uint32_t>{0, 0, 0, 1, 1});
}
