// Values as the interpreter sees them: a type flattens into scalar components (struct
// fields, array elements and vector components in order, depth first), each held in its
// own register slot; in memory, the same components sit at the byte offsets a layout
// rule gives them.
#pragma once

#include <cstdint>
#include <vector>

#include "sprig/dsl/layout.hpp"
#include "sprig/dsl/types.hpp"

namespace sprig::sim {

// Number of scalar components `t` flattens into (0 for void).
std::uint32_t flat_count(ir::TypeRef t);

// The flattened component range of element/field/component `index` of composite `t`.
struct ComponentRange {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};
ComponentRange component_range(ir::TypeRef t, std::uint32_t index);

// Scalar kind of each flattened component, in order.
std::vector<ir::ScalarKind> flat_kinds(ir::TypeRef t);

// One scalar of a value in memory.
struct Leaf {
  std::uint32_t offset = 0;
  ir::ScalarKind kind = ir::ScalarKind::U32;
};

// A value of some type in memory under a layout rule: its size and where each flattened
// component lives.
struct MemoryShape {
  std::uint32_t size = 0;
  std::vector<Leaf> leaves;
};
MemoryShape memory_shape(ir::TypeRef t, ir::LayoutRule rule);

}  // namespace sprig::sim
