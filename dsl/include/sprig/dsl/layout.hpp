// Memory layouts of device types: std430 (storage buffers, push constants) and std140
// (uniform buffers), as the Vulkan spec defines them. Used by the emitter (Offset and
// ArrayStride decorations), by the simulator (byte addressing) and by the host-side
// struct layout checks.
#pragma once

#include <cstdint>
#include <vector>

#include "sprig/dsl/types.hpp"

namespace sprig::ir {

enum class LayoutRule : std::uint8_t { Std430, Std140 };

struct Layout {
  std::uint32_t size = 0;       // bytes the value occupies (not rounded to alignment for vec3)
  std::uint32_t alignment = 1;  // base alignment
  std::uint32_t stride = 0;     // Array: stride between elements; else 0
  std::vector<std::uint32_t> offsets;  // Struct: byte offset of each field
};

// Layout of `t` under `rule`. Bools occupy 4 bytes (as uint32) in memory.
Layout layout_of(TypeRef t, LayoutRule rule);
// Size of `t` as an element of a runtime array: rounded up to the element's alignment.
std::uint32_t array_stride(TypeRef t, LayoutRule rule);

}  // namespace sprig::ir
