// popcount, count_leading_zeros, count_trailing_zeros. Both counts of zero are the bit
// width (semantics.hpp). Vulkan restricts OpBitCount and FindUMsb/FindILsb to 32-bit
// operands, so 64-bit values are counted in two 32-bit halves.
#include "emitter.hpp"

namespace sprig::compiler {

// FindUMsb(0) is -1, so 31 - msb gives 32 for zero with no special case.
Id Emitter::count_leading_zeros32(Id x, ir::TypeRef shape) {
  Id t = type(shape);
  return op(spv::Op::OpISub, t, {splat(shape, 31), glsl(GLSLstd450FindUMsb, t, {x})});
}

// FindILsb(0) is -1 == 0xffffffff, so an unsigned min with 32 gives 32 for zero.
Id Emitter::count_trailing_zeros32(Id x, ir::TypeRef shape) {
  Id t = type(shape);
  return glsl(GLSLstd450UMin, t, {glsl(GLSLstd450FindILsb, t, {x}), splat(shape, 32)});
}

Id Emitter::emit_bit_count(const ir::Node& n) {
  ir::TypeRef t = n.type, u = unsigned_of(t);
  Id x = to_unsigned(value(n.operands[0]), t);
  Id ut = type(u);
  if (ir::scalar_bits(t->scalar) == 32) {
    Id result = 0;
    switch (n.op) {
      case ir::Op::PopCount: result = op(spv::Op::OpBitCount, ut, {x}); break;
      case ir::Op::CountLeadingZeros: result = count_leading_zeros32(x, u); break;
      case ir::Op::CountTrailingZeros: result = count_trailing_zeros32(x, u); break;
      default: fail("not a bit count", &n);
    }
    return from_unsigned(result, t);
  }
  ir::TypeRef word = ir::scalar_type(ir::ScalarKind::U32);
  Id u32t = type(word), u64t = uint_type(64), bool_t = bool_type();
  std::vector<Id> parts;
  for (Id component : components(x, u)) {
    auto [low, high] = split64(component);
    Id count = 0;
    switch (n.op) {
      case ir::Op::PopCount:
        count = op(spv::Op::OpIAdd, u32t, {op(spv::Op::OpBitCount, u32t, {low}), op(spv::Op::OpBitCount, u32t, {high})});
        break;
      case ir::Op::CountLeadingZeros: {
        Id high_set = op(spv::Op::OpINotEqual, bool_t, {high, u32(0)});
        Id in_low = op(spv::Op::OpIAdd, u32t, {count_leading_zeros32(low, word), u32(32)});
        count = op(spv::Op::OpSelect, u32t, {high_set, count_leading_zeros32(high, word), in_low});
        break;
      }
      case ir::Op::CountTrailingZeros: {
        Id low_set = op(spv::Op::OpINotEqual, bool_t, {low, u32(0)});
        Id in_high = op(spv::Op::OpIAdd, u32t, {count_trailing_zeros32(high, word), u32(32)});
        count = op(spv::Op::OpSelect, u32t, {low_set, count_trailing_zeros32(low, word), in_high});
        break;
      }
      default: fail("not a bit count", &n);
    }
    parts.push_back(op(spv::Op::OpUConvert, u64t, {count}));
  }
  return from_unsigned(compose(u, parts), t);
}

}  // namespace sprig::compiler
