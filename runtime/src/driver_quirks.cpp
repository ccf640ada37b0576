#include "sprig/runtime/driver_quirks.hpp"

#include <array>
#include <stdexcept>

namespace sprig {

namespace {

bool nvidia(DriverId d) { return d == DriverId::NvidiaProprietary; }
bool lavapipe(DriverId d) { return d == DriverId::MesaLlvmpipe; }
bool mesa(DriverId d) {
  switch (d) {
    case DriverId::MesaLlvmpipe:
    case DriverId::MesaRadv:
    case DriverId::MesaAnv:
    case DriverId::MesaV3dv:
    case DriverId::MesaTurnip:
    case DriverId::MesaPanvk: return true;
    default: return false;
  }
}

constexpr std::array<DriverQuirk, 8> kQuirks{{
    {Quirk::SignedRemainderUnsigned, "nvidia-signed-remainder",
     "OpSRem on int32 or int64 operands read from memory returns an unsigned remainder whenever an operand is "
     "negative (-1 % 7 gives 3, 2 % -2 gives 2); OpSDiv on the same values is right",
     "the emitter computes a % b as a - b * (a / b) with OpSDiv (CompileOptions::signed_remainder_by_division)",
     "tests/kernels/driver_quirks_test.cpp: \"without its workaround the signed remainder is wrong exactly on the "
     "drivers the table lists\"",
     "NVIDIA 580.159.04 (H100)", nvidia},
    {Quirk::BarrierPassesSpinningSubgroup, "lavapipe-barrier-after-spin",
     "a workgroup barrier completes while one of the workgroup's subgroups still spins on memory another "
     "workgroup writes, so the others read shared memory it has not written yet",
     "stdlib's SpinSafeBarrier has every subgroup announce its arrival on a shared counter first",
     "tests/stdlib/spin_safe_barrier_test.cpp: \"lavapipe: a plain barrier after a spin-wait on another workgroup "
     "does not hold\" (tag [lavapipe-bug]: racy, so run by hand)",
     "Mesa 22.3 lavapipe", lavapipe},
    {Quirk::LoopBackEdgeCap, "lavapipe-loop-cap",
     "every loop of an invocation stops after 65,535 back-edges in all (Mesa's LP_MAX_TGSI_LOOP_ITERATIONS), "
     "silently",
     "stdlib splits long loops (PBKDF2, scrypt's ROMix) over launches of at most 60,000 back-edges; look-backs "
     "and the barrier after them pause between polls with straight-line divisions instead of polling at once, "
     "which would give up after a few milliseconds of waiting (stdlib/poll_pause.hpp)",
     "tests/kernels/driver_quirks_test.cpp: \"a loop runs 70,000 iterations unless the driver caps loops at 65,535 "
     "back-edges\"; tests/stdlib/lookback_wait_test.cpp", "Mesa 22.3 lavapipe",
     lavapipe},
    {Quirk::RelaxedLookBackUnreliable, "lavapipe-relaxed-lookback",
     "relaxed atomic loads of look-back status words that carry their value read stale prefixes (the scan test "
     "failed 14 of 40 runs, radix sort wrote out of bounds); most likely lavapipe-loop-cap: faster polls spent "
     "the cap sooner, and with look-backs pausing between polls relaxed words passed 40 of 40 scan runs and 10 of "
     "10 sort-test runs",
     "stdlib's decoupled look-back publishes and reads status words with release/acquire order, which also "
     "slows each poll: a margin on the loop cap",
     "tests/stdlib/scan_test.cpp (repeated runs beside another process)", "Mesa 22.3 lavapipe", lavapipe},
    {Quirk::SignExtendedCompareWithConstant, "lavapipe-sext-compare",
     "a signed <, <=, > or >= between an int32 sign-extended to int64 (OpSConvert) and a constant that the "
     "compiler can see (on either side, also after + 0 or through a variable) ignores the value for constants "
     "about the int32 range: < and <= give false, > and >= true, so sext(0) >= 1 holds; == and !=, zero "
     "extension, unsigned comparisons and constants read from memory are right",
     "the emitter writes sign extension as OpUConvert, a left shift and an arithmetic right shift "
     "(CompileOptions::sign_extension_by_shifts)",
     "tests/kernels/driver_quirks_test.cpp: \"without its workaround a sign-extended int32 is misordered against "
     "constants exactly on the drivers the table lists\"",
     "Mesa 22.3.6 lavapipe (LLVM 15)", lavapipe},
    {Quirk::IntFloatIntFolded, "mesa-int-float-round-trip",
     "an integer converted to float and straight back comes back unrounded, as if every integer were exact in "
     "float (0x2EE0E1C2 gives 0x2EE0E1C2, not 0x2EE0E1C0), for int32 and uint32",
     "the emitter decorates integer -> float conversions NoContraction (CompileOptions::exact_int_to_float), "
     "which Mesa's SPIR-V front end turns into the exact flag that stops value-changing rewrites; applied on "
     "every Mesa driver because they share that front end and optimizer, and free where nothing folds",
     "tests/kernels/driver_quirks_test.cpp: \"without its workaround an int -> float -> int round trip skips the "
     "rounding exactly on the drivers the table lists\"",
     "Mesa 22.3.6 lavapipe (LLVM 15)", mesa},
    {Quirk::BallotBeside64BitDivisionCrash, "nvidia-ballot-beside-64-bit-division",
     "vkCreateComputePipelines crashes the process (SIGSEGV in the shader compiler) on a valid module where a bit "
     "count of a ballot (inclusive, exclusive, whole, or popcount of a ballot word), plus one, is divided by or "
     "taken modulo a 32-bit constant, and the module also divides 64-bit integers (by a constant or not); the same "
     "with popcount of a memory value, without the + 1, or without the 64-bit division compiles",
     "in modules that use ballots, the emitter divides 64-bit integers with a bit-serial helper function, "
     "or by multiplication where the divisor is a constant, instead of OpUDiv/OpSDiv/OpUMod/OpSRem "
     "(CompileOptions::bit_serial_64_bit_division)",
     "tests/kernels/driver_quirks_test.cpp: \"without its workaround a ballot count divided beside a 64-bit "
     "division crashes the compiler exactly on the drivers the table lists\"",
     "NVIDIA 580.159.04 (H100)", nvidia},
    {Quirk::ShiftOfKnownNegativeMiscompared, "nvidia-shift-of-known-negative",
     "a signed comparison with the arithmetic right shift of a value whose sign bit the compiler can see is set "
     "(x | 0x80000000, from memory) goes wrong: (x >> 2) >= x and x <= (x >> 2) give false; the shifted value "
     "itself is right, and the same without the known sign bit, or with 0x40000000, is right. Also hit through "
     "64-bit signed bitfield_extract, which sprig writes with shifts",
     "the emitter writes signed >> as a select, by the sign of x, between x >> n and ~(~x >> n), both logical "
     "(CompileOptions::arithmetic_shift_by_logical_shifts)",
     "tests/kernels/driver_quirks_test.cpp: \"without its workaround the shift of a known negative value is "
     "misordered exactly on the drivers the table lists\"",
     "NVIDIA 580.159.04 (H100)", nvidia},
}};

}  // namespace

std::string_view to_string(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::Discrete: return "discrete";
    case DeviceKind::Integrated: return "integrated";
    case DeviceKind::Virtual: return "virtual";
    case DeviceKind::Cpu: return "cpu";
    case DeviceKind::Simulator: return "simulator";
    case DeviceKind::Other: break;
  }
  return "other";
}

std::string_view to_string(DriverId driver) {
  switch (driver) {
    case DriverId::Unknown: return "unknown";
    case DriverId::Simulator: return "sprig simulator";
    case DriverId::NvidiaProprietary: return "NVIDIA proprietary";
    case DriverId::MesaLlvmpipe: return "Mesa lavapipe";
    case DriverId::AmdProprietary: return "AMD proprietary";
    case DriverId::AmdOpenSource: return "AMD open source";
    case DriverId::MesaRadv: return "Mesa RADV";
    case DriverId::IntelProprietaryWindows: return "Intel proprietary";
    case DriverId::MesaAnv: return "Mesa ANV";
    case DriverId::ArmProprietary: return "Arm proprietary";
    case DriverId::QualcommProprietary: return "Qualcomm proprietary";
    case DriverId::BroadcomProprietary: return "Broadcom proprietary";
    case DriverId::MesaV3dv: return "Mesa V3DV";
    case DriverId::MesaTurnip: return "Mesa Turnip";
    case DriverId::MesaPanvk: return "Mesa PanVK";
    case DriverId::MoltenVk: return "MoltenVK";
    case DriverId::Other: break;
  }
  return "other";
}

std::span<const DriverQuirk> driver_quirks() { return kQuirks; }

const DriverQuirk& describe(Quirk quirk) {
  for (const DriverQuirk& q : kQuirks)
    if (q.quirk == quirk) return q;
  throw std::logic_error("describe(Quirk): no table entry for quirk bit " + std::to_string(std::uint32_t(quirk)));
}

QuirkSet quirks_of(DriverId driver) {
  QuirkSet set;
  for (const DriverQuirk& q : kQuirks)
    if (q.affects(driver)) set = set | q.quirk;
  return set;
}

std::string quirk_names(QuirkSet set) {
  std::string names;
  for (const DriverQuirk& q : kQuirks) {
    if (!set.has(q.quirk)) continue;
    if (!names.empty()) names += ", ";
    names += q.name;
  }
  return names;
}

}  // namespace sprig
