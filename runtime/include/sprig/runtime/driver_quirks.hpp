// What kind of device and driver a backend runs on, and the one table of driver bugs that
// sprig works around: each a named entry keyed by driver, with the test that reproduces it
// and the place (emitter, runtime or stdlib) that applies the workaround.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sprig {

enum class DeviceKind : std::uint8_t { Discrete, Integrated, Virtual, Cpu, Other, Simulator };

// The driver behind a device (VkDriverId where Vulkan reports one).
enum class DriverId : std::uint8_t {
  Unknown,
  Simulator,
  NvidiaProprietary,
  MesaLlvmpipe,  // lavapipe
  AmdProprietary,
  AmdOpenSource,
  MesaRadv,
  IntelProprietaryWindows,
  MesaAnv,
  ArmProprietary,
  QualcommProprietary,
  BroadcomProprietary,
  MesaV3dv,
  MesaTurnip,
  MesaPanvk,
  MoltenVk,
  Other,
};

std::string_view to_string(DeviceKind kind);
std::string_view to_string(DriverId driver);

enum class Quirk : std::uint32_t {
  // OpSRem on operands the kernel read from memory returns the remainder of the operands'
  // magnitudes' bit patterns taken as unsigned whenever an operand is negative.
  SignedRemainderUnsigned = 1u << 0,
  // A workgroup barrier completes while a subgroup of the workgroup still spins on memory
  // written by another workgroup.
  BarrierPassesSpinningSubgroup = 1u << 1,
  // Every loop of an invocation stops after 65,535 back-edges in all.
  LoopBackEdgeCap = 1u << 2,
  // Look-back status words need acquire/release even where a word carries its value.
  RelaxedLookBackUnreliable = 1u << 3,
  // A signed ordered comparison (< <= > >=) of an int32 sign-extended to 64 bits
  // (OpSConvert) with a constant ignores the value: < and <= give false, > and >= true.
  SignExtendedCompareWithConstant = 1u << 4,
  // An integer converted to float and straight back to an integer comes back unrounded
  // (0x2EE0E1C2 instead of 0x2EE0E1C0): the round trip is folded away as if it were exact.
  IntFloatIntFolded = 1u << 5,
  // The shader compiler crashes (SIGSEGV in vkCreateComputePipelines) on a module where a
  // bit count of a ballot, plus one, divided by a constant, meets a 64-bit integer division.
  BallotBeside64BitDivisionCrash = 1u << 6,
  // A signed comparison involving the arithmetic right shift of a value whose sign bit the
  // compiler knows is set (x | 0x80000000) goes wrong: (x >> 2) >= x gives false.
  ShiftOfKnownNegativeMiscompared = 1u << 7,
};

// A set of quirks (flags).
class QuirkSet {
 public:
  constexpr QuirkSet() = default;
  constexpr QuirkSet(Quirk q) : bits_(std::uint32_t(q)) {}
  constexpr bool has(Quirk q) const { return (bits_ & std::uint32_t(q)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr QuirkSet operator|(QuirkSet o) const { return from_bits(bits_ | o.bits_); }
  constexpr QuirkSet without(QuirkSet o) const { return from_bits(bits_ & ~o.bits_); }
  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool operator==(const QuirkSet&) const = default;
  static constexpr QuirkSet from_bits(std::uint32_t bits) {
    QuirkSet s;
    s.bits_ = bits;
    return s;
  }

 private:
  std::uint32_t bits_ = 0;
};

constexpr QuirkSet operator|(Quirk a, Quirk b) { return QuirkSet(a) | QuirkSet(b); }

// One known driver bug.
struct DriverQuirk {
  Quirk quirk;
  std::string_view name;        // stable, for logs and options ("nvidia-signed-remainder")
  std::string_view symptom;     // what goes wrong without the workaround
  std::string_view workaround;  // what sprig does instead, and where
  std::string_view reproducer;  // the test case that shows the bug
  std::string_view seen_on;     // the driver versions it was observed on
  bool (*affects)(DriverId driver);
};

// Every entry, in the order of the Quirk bits.
std::span<const DriverQuirk> driver_quirks();
const DriverQuirk& describe(Quirk quirk);
// The quirks of `driver` whose workarounds sprig applies.
QuirkSet quirks_of(DriverId driver);
// Names of the quirks in `set`, comma-separated ("" when empty).
std::string quirk_names(QuirkSet set);

}  // namespace sprig
