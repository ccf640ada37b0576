// Bugs found by the fuzzer, as reduced programs (printed by sprig-fuzz), on both backends.
// Each names the seed and campaign that found it and says whose bug it is (docs/fuzzing.md).
#include <limits>

#include "backends.hpp"
#include "fuzz_kernel.hpp"

using namespace sprig;
using fuzz::FuzzStruct;
using test::outputs;

// Seed 606 (CI seeds), reduced: lavapipe (Mesa 22.3.6, LLVM 15) orders a sign-extended
// 32-bit value against a small 64-bit constant wrongly: sext(0) >= 1 and sext(0) > 0 come
// out true, sext(0) < 1 false. The SPIR-V (OpSConvert, OpSGreaterThanEqual) is right and the
// simulator agrees with semantics.hpp: a driver bug, worked around by the driver quirk
// lavapipe-sext-compare (tests/kernels/driver_quirks_test.cpp).
TEST_CASE("64-bit signed comparison of a sign-extended int32 with a constant") {
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

// Seed 5390 (H100 campaign), reduced: NVIDIA's shader compiler (driver 580.159.04) crashed
// with SIGSEGV in vkCreateComputePipelines (libnvidia-gpucomp, below _nv002nvvm) on this
// valid module (spirv-val passes; lavapipe and the simulator run it): a ballot bit count,
// plus one, modulo a constant, beside a 64-bit division. A driver bug, worked around by the
// driver quirk nvidia-ballot-count-crash (tests/kernels/driver_quirks_test.cpp proves it
// both ways); the kernel body is the reducer's output, unchanged.
TEST_CASE("seed 5390: ballot count into bitfield_extract beside a 64-bit % (crashed NVIDIA's compiler)") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("fuzz_seed_5390", [](ReadBuffer<std::uint64_t> in64, Buffer<std::uint32_t> out32,
                                       Buffer<std::uint64_t> out64) {
    UInt slot = global_id().x() * 16u;
    Var<FuzzStruct> fuzz_struct;
    Var<UInt> v0 = UInt(0u);
    Var<ULong> v1 = ULong(std::uint64_t(0x0ull));
    v0 = ballot_inclusive_bit_count(subgroup_ballot(Bool(false)));
    fuzz_struct[&FuzzStruct::b] = bitfield_extract(Int(0), UInt(0u), ((v0.load() + UInt(1u)) % UInt(70u)));
    v1 = (cast<std::uint64_t>(Long(std::numeric_limits<std::int64_t>::min())) % in64[(UInt(0u)) % 32u].load());
    out64[slot + (UInt(0u)) % 16u] = v1.load();
    out32[slot + (UInt(0u)) % 16u] = bitcast<std::uint32_t>(fuzz_struct[&FuzzStruct::b].load());
  }, workgroup(32));
  auto in64 = dev.upload(std::vector<std::uint64_t>(32, 0xFFFFFFFFFFFFFFF8ull));
  auto out32 = dev.upload(std::vector<std::uint32_t>(32 * 16, 1));
  auto out64 = dev.upload(std::vector<std::uint64_t>(32 * 16, 1));
  dev.run(k, grid(32), in64, out32, out64);
  std::vector<std::uint32_t> got32 = dev.download(out32);
  std::vector<std::uint64_t> got64 = dev.download(out64);
  for (std::size_t i = 0; i < 32; ++i) {
    REQUIRE(got32[i * 16] == 0u);
    REQUIRE(got64[i * 16] == 0x8000000000000000ull);
  }
}

// Found while raising the fuzzer's signed coverage, reduced by hand: lavapipe (Mesa 22.3.6,
// LLVM 15) folds a float -> integer conversion of an integer -> float conversion back to the
// original integer, skipping the rounding to float: 0x2EE0E1C2 converts to the float
// 0x2EE0E1C0 (24 significant bits), so the round trip must give 0x2EE0E1C0, as the
// simulator does. Worked around by the driver quirks table's mesa-int-float-round-trip
// (tests/kernels/driver_quirks_test.cpp proves it both ways).
TEST_CASE("an int -> float -> int round trip rounds through float") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("int_float_int", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    out[0] = cast<std::uint32_t>(cast<float>(in[0].load()));
    out[1] = bitcast<std::uint32_t>(cast<std::int32_t>(cast<float>(bitcast<std::int32_t>(in[0].load()))));
  }, workgroup(1));
  auto in = dev.upload(std::vector<std::uint32_t>{0x2EE0E1C2u});
  CHECK(outputs<std::uint32_t>(dev, k, 2, grid(1), in) == std::vector<std::uint32_t>{0x2EE0E1C0u, 0x2EE0E1C0u});
}

// Seed 8493 (H100 campaign of the current generator), reduced: NVIDIA's compiler (580.159.04)
// divided MIN by -2 into 0x3fffffffffffffff, off by one, in a module whose ballot makes
// sprig divide 64-bit integers without division instructions there (driver quirk
// nvidia-ballot-beside-64-bit-division): the bit-serial helper, inlined with the constant
// divisor, was folded wrongly; seed 1835 (-32 % -16 giving -16) was the same. Constant
// divisors now divide by multiplication. The kernel body is the reducer's output, unchanged.
TEST_CASE("seed 8493: 64-bit division by a constant beside a ballot (miscompiled on NVIDIA)") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("fuzz_seed_8493", [](ReadBuffer<std::uint64_t> in64, Buffer<std::uint64_t> out64) {
    UInt slot = global_id().x() * 16u;
    Var<UInt> v0 = UInt(0u);
    out64[slot + (UInt(0u)) % 16u] = bitcast<std::uint64_t>((bitcast<std::int64_t>(in64[(UInt(1u)) % 32u].load()) / Long(std::int64_t(-2))));
    v0 = ballot_inclusive_bit_count(subgroup_ballot(Bool(false)));
    out64[slot + (UInt(1u)) % 16u] = cast<std::uint64_t>(cast<float>(in64[(UInt(0u)) % 32u].load()));
  }, workgroup(32));
  std::vector<std::uint64_t> inputs(32, 0);
  inputs[0] = 0xD0A86D238E98C05Aull;
  inputs[1] = 0x8000000000000000ull;
  auto in64 = dev.upload(inputs);
  auto out64 = dev.upload(std::vector<std::uint64_t>(32 * 16, 1));
  dev.run(k, grid(32), in64, out64);
  std::vector<std::uint64_t> got = dev.download(out64);
  for (std::size_t i = 0; i < 32; ++i) REQUIRE(got[i * 16] == 0x4000000000000000ull);
}
