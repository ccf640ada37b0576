// Helpers for the compiler tests: emit a kernel, require that spirv-val accepts it, and
// look at the module's capabilities, instructions and disassembly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <spirv/unified1/spirv.hpp11>

#include "sprig/compiler/compile.hpp"
#include "sprig/dsl.hpp"

namespace sprig::test {

// An emitted module and its disassembly.
struct Module {
  std::vector<std::uint32_t> words;
  std::string text;

  bool has_capability(spv::Capability c) const;
  // How many instructions of `op` the module holds.
  std::size_t count(spv::Op op) const;
  bool contains(spv::Op op) const { return count(op) != 0; }
  // The operand words (after the opcode word) of every instruction of `op`.
  std::vector<std::vector<std::uint32_t>> instructions(spv::Op op) const;
};

// Emits `k` and requires spirv-val (Vulkan 1.2) to accept the module, printing the
// disassembly and the validator's message otherwise.
Module valid_module(const ir::Kernel& k, bool debug_info = true);

template <class K>
Module valid_module(const K& k, bool debug_info = true) {
  return valid_module(*k.ir(), debug_info);
}

}  // namespace sprig::test
