// Shared memory, barriers, atomics and subgroup operations: scopes and semantics as the
// IR says, and each subgroup feature class declared only when used.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

namespace {

// The scope and semantics constants an instruction refers to, read back from the module.
std::uint32_t constant_value(const test::Module& m, std::uint32_t id) {
  for (const auto& c : m.instructions(spv::Op::OpConstant))
    if (c.at(1) == id) return c.at(2);
  FAIL("no constant %" << id);
  return 0;
}

}  // namespace

TEST_CASE("shared arrays are Workgroup variables and barrier() is a workgroup control barrier") {
  auto k = kernel("reverse", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    auto tile = shared_array<std::uint32_t>(64, "tile");
    UInt i = local_index();
    tile[i] = in[global_id().x()];
    barrier();
    out[global_id().x()] = tile[63u - i];
  }, workgroup(64));
  test::Module m = valid_module(k);
  CHECK(m.text.find("%tile = OpVariable %_ptr_Workgroup__arr_uint_uint_64 Workgroup") != std::string::npos);
  auto barriers = m.instructions(spv::Op::OpControlBarrier);
  REQUIRE(barriers.size() == 1);
  CHECK(constant_value(m, barriers[0][0]) == std::uint32_t(spv::Scope::Workgroup));
  CHECK(constant_value(m, barriers[0][1]) == std::uint32_t(spv::Scope::Workgroup));
  // AcquireRelease | UniformMemory | WorkgroupMemory, as glslang's barrier() plus buffers.
  CHECK(constant_value(m, barriers[0][2]) == 0x8u + 0x40u + 0x100u);
}

TEST_CASE("barriers ordering only shared memory, subgroup barriers and memory barriers") {
  auto k = kernel("barriers", [](CoherentBuffer<std::uint32_t> flags) {
    auto s = shared<std::uint32_t>("s");
    auto ready = shared<bool>("ready");  // a logical bool: shared memory has no host layout
    s = 1u;
    ready = true;
    barrier(Orders::Shared);
    subgroup_barrier();
    flags[0] = select(ready, s, 0u);
    memory_barrier(Scope::Device, Orders::Buffers, MemoryOrder::Release);
  });
  test::Module m = valid_module(k);
  auto control = m.instructions(spv::Op::OpControlBarrier);
  REQUIRE(control.size() == 2);
  CHECK(constant_value(m, control[0][2]) == 0x8u + 0x100u);
  CHECK(constant_value(m, control[1][0]) == std::uint32_t(spv::Scope::Subgroup));
  auto memory = m.instructions(spv::Op::OpMemoryBarrier);
  REQUIRE(memory.size() == 1);
  CHECK(constant_value(m, memory[0][0]) == std::uint32_t(spv::Scope::Device));
  CHECK(constant_value(m, memory[0][1]) == 0x4u + 0x40u);
}

TEST_CASE("every atomic operation on 32-bit buffer and shared integers") {
  auto k = kernel("atomics", [](Buffer<std::uint32_t> u, Buffer<std::int32_t> s, WriteBuffer<std::uint32_t> out) {
    auto local = shared_array<std::uint32_t>(4, "local");
    UInt a = atomic_add(u[0], 1u) + atomic_sub(u[1], 1u) + atomic_min(u[2], 5u) + atomic_max(u[3], 5u) +
             atomic_and(u[4], 3u) + atomic_or(u[5], 3u) + atomic_xor(u[6], 3u) + atomic_exchange(u[7], 9u) +
             atomic_compare_exchange(u[8], 0u, 1u, MemoryOrder::AcqRel) + atomic_increment(u[9]) +
             atomic_decrement(u[10]) + atomic_load(u[11], MemoryOrder::Acquire);
    atomic_store(u[12], a, MemoryOrder::Release);
    Int b = atomic_min(s[0], -1) + atomic_max(s[1], -1, MemoryOrder::Relaxed, Scope::Workgroup);
    UInt c = atomic_add(local[0], 1u) + atomic_compare_exchange(local[1], 2u, 3u, MemoryOrder::Release);
    out[0] = cast<std::uint32_t>(b) + c;
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpAtomicUMin));
  CHECK(m.contains(spv::Op::OpAtomicSMin));
  CHECK(m.contains(spv::Op::OpAtomicSMax));
  CHECK(m.contains(spv::Op::OpAtomicCompareExchange));
  CHECK(m.contains(spv::Op::OpAtomicIIncrement));
  CHECK(m.contains(spv::Op::OpAtomicStore));
  CHECK_FALSE(m.has_capability(spv::Capability::Int64Atomics));
  // A relaxed add at device scope: scope Device, semantics None.
  auto add = m.instructions(spv::Op::OpAtomicIAdd).at(0);
  CHECK(constant_value(m, add[3]) == std::uint32_t(spv::Scope::Device));
  CHECK(constant_value(m, add[4]) == 0u);
}

TEST_CASE("64-bit atomics declare Int64Atomics") {
  auto k = kernel("atomics64", [](Buffer<std::uint64_t> counters) {
    atomic_add(counters[0], 1ull);
    atomic_max(counters[1], 7ull, MemoryOrder::AcqRel);
  });
  test::Module m = valid_module(k);
  CHECK(m.has_capability(spv::Capability::Int64Atomics));
  CHECK(m.has_capability(spv::Capability::Int64));
}

TEST_CASE("subgroup reductions and scans declare only the arithmetic class") {
  auto k = kernel("scans", [](ReadBuffer<float> in, WriteBuffer<float> out, WriteBuffer<std::uint32_t> bits) {
    UInt i = global_id().x();
    Float x = in[i];
    out[i] = subgroup_add(x) + subgroup_inclusive_mul(x) + subgroup_exclusive_min(x) + subgroup_max(x);
    UInt u = cast<std::uint32_t>(x);
    bits[i] = subgroup_and(u) | subgroup_inclusive_or(u) | subgroup_exclusive_xor(u) |
              cast<std::uint32_t>(subgroup_min(cast<std::int32_t>(u)));
  });
  test::Module m = valid_module(k);
  CHECK(m.has_capability(spv::Capability::GroupNonUniform));
  CHECK(m.has_capability(spv::Capability::GroupNonUniformArithmetic));
  CHECK_FALSE(m.has_capability(spv::Capability::GroupNonUniformBallot));
  CHECK_FALSE(m.has_capability(spv::Capability::GroupNonUniformShuffle));
  CHECK(m.contains(spv::Op::OpGroupNonUniformFAdd));
  CHECK(m.contains(spv::Op::OpGroupNonUniformSMin));
  CHECK(m.contains(spv::Op::OpGroupNonUniformUMin) == false);
}

TEST_CASE("votes, ballots, broadcasts and shuffles") {
  auto k = kernel("subgroups", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt x = in[i];
    UInt lane = subgroup_invocation_id();
    UVec4 mask = subgroup_ballot(x > 3u);
    UInt votes = select(subgroup_all(x > 0u), 1u, 0u) + select(subgroup_any(x > 9u), 2u, 0u) +
                 select(subgroup_all_equal(x), 4u, 0u) + select(subgroup_elect(), 8u, 0u);
    UInt counts = ballot_bit_count(mask) + ballot_inclusive_bit_count(mask) + ballot_exclusive_bit_count(mask) +
                  ballot_find_lsb(mask) + ballot_find_msb(mask);
    UInt moved = subgroup_broadcast(x, 0u) + subgroup_broadcast_first(x) + subgroup_shuffle(x, lane ^ 1u) +
                 subgroup_shuffle_xor(x, 2u) + subgroup_shuffle_up(x, 1u) + subgroup_shuffle_down(x, 1u);
    out[i] = votes + counts + moved + subgroup_size() + subgroup_id() + num_subgroups();
  });
  test::Module m = valid_module(k);
  CHECK(m.has_capability(spv::Capability::GroupNonUniformVote));
  CHECK(m.has_capability(spv::Capability::GroupNonUniformBallot));
  CHECK(m.has_capability(spv::Capability::GroupNonUniformShuffle));
  CHECK(m.has_capability(spv::Capability::GroupNonUniformShuffleRelative));
  CHECK_FALSE(m.has_capability(spv::Capability::GroupNonUniformArithmetic));
  CHECK(m.text.find("BuiltIn SubgroupLocalInvocationId") != std::string::npos);
}

TEST_CASE("subgroup operations on vectors and 64-bit values") {
  auto k = kernel("wide_subgroups", [](ReadBuffer<std::uint64_t> in, WriteBuffer<std::uint64_t> out) {
    UInt i = global_id().x();
    ULong x = in[i];
    Expr<u64vec2> v = Expr<u64vec2>(u64vec2{1, 2}) * x;
    Expr<u64vec2> s = subgroup_inclusive_add(v) + subgroup_shuffle_xor(v, 1u);
    out[i] = subgroup_add(x) + s.x() + subgroup_broadcast_first(s).y();
  });
  valid_module(k);
}
