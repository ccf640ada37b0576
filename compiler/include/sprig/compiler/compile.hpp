// Kernel IR -> SPIR-V words, and the SPIRV-Tools services around it: validation,
// optimisation and disassembly.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sprig/dsl/error.hpp"
#include "sprig/dsl/ir.hpp"

namespace sprig::compiler {

struct CompileOptions {
  bool validate = true;    // run spirv-val on the result; throws CompileError if it fails
  bool optimize = false;   // run spirv-opt's performance passes
  bool debug_info = true;  // OpName / OpLine from the user's source locations
  // Source-level debug info for shader debuggers (RenderDoc, Nsight Graphics): the
  // NonSemantic.Shader.DebugInfo.100 instruction set with the source files' text, the
  // kernel's types, functions, local variables, and a line and column for every
  // instruction (docs/debugging.md). Needs VK_KHR_shader_non_semantic_info (core in
  // Vulkan 1.3); the runtime sets it where the device has it and it was asked for.
  bool source_debug_info = false;
  // Emit signed % as a - b * (a / b) instead of OpSRem: the workaround for drivers whose
  // OpSRem is wrong (Quirk::SignedRemainderUnsigned; the runtime sets it per device).
  bool signed_remainder_by_division = false;
  // Emit 32 -> 64-bit sign extension as a zero extension and two shifts instead of
  // OpSConvert: the workaround for drivers that misorder a sign-extended value against a
  // constant (Quirk::SignExtendedCompareWithConstant; the runtime sets it per device).
  bool sign_extension_by_shifts = false;
  // Decorate integer -> float conversions NoContraction, so that a driver cannot fold
  // float -> int (int -> float (x)) into x: the workaround for Quirk::IntFloatIntFolded.
  bool exact_int_to_float = false;
  // In modules that use subgroup ballots, divide 64-bit integers with a bit-serial helper
  // function instead of OpUDiv / OpSDiv / OpUMod / OpSRem: the workaround for a driver
  // compiler that crashes on the combination (Quirk::BallotBeside64BitDivisionCrash).
  bool bit_serial_64_bit_division = false;
  // Emit signed >> as logical shifts of x or ~x chosen by x's sign instead of
  // OpShiftRightArithmetic: the workaround for a driver compiler that misjudges the
  // arithmetic shift of a value it knows is negative (Quirk::ShiftOfKnownNegativeMiscompared).
  bool arithmetic_shift_by_logical_shifts = false;
  // The device's float controls (VkPhysicalDeviceFloatControlsProperties, 32-bit): which of
  // DenormPreserve, SignedZeroInfNanPreserve and RoundingModeRTE precise-float kernels may
  // declare (each is declared where the device supports it; the runtime sets these).
  bool float32_denorm_preserve = false;
  bool float32_signed_zero_inf_nan_preserve = false;
  bool float32_rounding_mode_rte = false;
};

class CompileError : public Error {
 public:
  using Error::Error;
};

// Emit the kernel as a SPIR-V 1.5 module for Vulkan 1.2 (entry point "main").
std::vector<std::uint32_t> emit(const ir::Kernel& kernel, bool debug_info = true);
// Emit with the options' emission settings (debug info, workarounds); no validation.
std::vector<std::uint32_t> emit(const ir::Kernel& kernel, const CompileOptions& options);
// emit, then validate and optimise as the options say.
std::vector<std::uint32_t> compile(const ir::Kernel& kernel, const CompileOptions& options = {});

// spirv-val for the Vulkan 1.2 environment; returns the validator's message, empty if valid.
std::string validation_errors(std::span<const std::uint32_t> words);
// spirv-opt's performance passes; throws CompileError if the optimiser rejects the module.
std::vector<std::uint32_t> optimize(std::span<const std::uint32_t> words);
// Text with friendly names (%main, %param1, ...); throws CompileError if `words` is no module.
std::string disassemble(std::span<const std::uint32_t> words);
// The kernel's emitted module as text: the SPIR-V counterpart of ir::print.
std::string disassemble(const ir::Kernel& kernel, bool debug_info = true);

}  // namespace sprig::compiler
