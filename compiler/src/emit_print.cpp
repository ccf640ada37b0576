// device_print: each execution appends a record to the hidden print buffer
// (sprig/compiler/print_buffer.hpp), a storage buffer at ir::print_binding(kernel) that only
// kernels with a Print node declare. The code, in order:
//
//   if (the filter in the header admits this invocation) {
//     if (atomicLoad(used) <= capacity - n) {             // keeps `used` from wrapping
//       start = atomicAdd(used, n);
//       if (start <= capacity - n) write the record at start;
//       else { atomicAdd(dropped, 1); if (start < capacity) words[start] = end_marker; }
//     } else atomicAdd(dropped, 1);
//   }
//
// Once one reservation fails every later one does, so the records fill a prefix of the
// area; the end marker tells the host where it ends when the failed reservation began
// inside the area (the words after it were never written).
// Relaxed device-scope atomics suffice: a record's words are read by the host only after
// the sequence's closing barrier. One invocation's reservations follow its program order,
// so its records lie in the buffer in the order it printed them.
#include "emitter.hpp"
#include "sprig/compiler/print_buffer.hpp"
#include "sprig/dsl/print_text.hpp"

namespace sprig::compiler {

namespace pb = print_buffer;

Id Emitter::print_buffer_variable() {
  if (print_buffer_) return print_buffer_;
  Id block = m_.distinct_type(spv::Op::OpTypeStruct, Words{runtime_array_type(ir::scalar_type(ir::ScalarKind::U32))});
  m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate, {block, std::uint32_t(spv::Decoration::Block)});
  m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpMemberDecorate,
         {block, 0, std::uint32_t(spv::Decoration::Offset), 0});
  name(block, "device_print_block");
  member_name(block, 0, "words");
  print_buffer_ = global_variable(block, spv::StorageClass::StorageBuffer, "device_print_buffer");
  m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate,
         {print_buffer_, std::uint32_t(spv::Decoration::DescriptorSet), 0});
  m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate,
         {print_buffer_, std::uint32_t(spv::Decoration::Binding), ir::print_binding(kernel_)});
  return print_buffer_;
}

std::vector<Id> Emitter::print_argument_words(Id x, ir::TypeRef t) {
  const Id u32t = uint_type(32);
  ir::TypeRef component = ir::component_type(t);
  std::vector<Id> words;
  for (Id c : components(x, t)) {
    if (component->is_bool()) {
      words.push_back(op(spv::Op::OpSelect, u32t, {c, u32(1), u32(0)}));
    } else if (ir::scalar_bits(component->scalar) == 64) {
      auto [low, high] = split64(c);
      words.push_back(low);
      words.push_back(high);
    } else if (component->scalar == ir::ScalarKind::U32) {
      words.push_back(c);
    } else {
      words.push_back(op(spv::Op::OpBitcast, u32t, {c}));
    }
  }
  return words;
}

void Emitter::emit_print(const ir::Node& n) {
  if (n.a >= kernel_.prints.size()) fail("a print names no format of the kernel", &n);
  const ir::PrintFormat& format = kernel_.prints[n.a];
  if (format.arguments.size() != n.operands.size() || format.hex.size() != n.operands.size())
    fail("a print's arguments do not match its format", &n);
  std::vector<Id> words;
  for (std::size_t i = 0; i < n.operands.size(); ++i) {
    if (n.operands[i]->type != format.arguments[i]) fail("a print argument's type differs from its format's", &n);
    std::vector<Id> part = print_argument_words(value(n.operands[i]), format.arguments[i]);
    words.insert(words.end(), part.begin(), part.end());
  }
  const Id u32t = uint_type(32), bool_t = bool_type();
  ir::TypeRef uvec3 = ir::vector_type(ir::ScalarKind::U32, 3);
  const Id uvec3_t = type(uvec3), bvec3_t = type(ir::vector_type(ir::ScalarKind::Bool, 3));
  const Id buffer = print_buffer_variable();
  const Id word_pointer_t = pointer_type(spv::StorageClass::StorageBuffer, u32t);
  auto word_at = [&](Id index) { return op(spv::Op::OpAccessChain, word_pointer_t, {buffer, u32(0), index}); };
  auto header = [&](std::uint32_t word) { return op(spv::Op::OpLoad, u32t, {word_at(u32(word))}); };

  // The filter: every invocation, one global invocation id or one workgroup.
  Id workgroup = op(spv::Op::OpLoad, uvec3_t, {builtin_input(ir::Builtin::WorkgroupId, uvec3)});
  Id local = op(spv::Op::OpLoad, uvec3_t, {builtin_input(ir::Builtin::LocalInvocationId, uvec3)});
  Words sizes;
  for (std::uint32_t s : kernel_.workgroup_size) sizes.push_back(u32(s));
  Id size = m_.constant(spv::Op::OpConstantComposite, uvec3_t, sizes);
  Id global = op(spv::Op::OpIAdd, uvec3_t, {op(spv::Op::OpIMul, uvec3_t, {workgroup, size}), local});
  Id kind = header(pb::filter_kind_word);
  Id wanted = op(spv::Op::OpCompositeConstruct, uvec3_t,
                 {header(pb::filter_id_word), header(pb::filter_id_word + 1), header(pb::filter_id_word + 2)});
  auto kind_is = [&](std::uint32_t k) { return op(spv::Op::OpIEqual, bool_t, {kind, u32(k)}); };
  auto equal = [&](Id id) { return op(spv::Op::OpAll, bool_t, {op(spv::Op::OpIEqual, bvec3_t, {id, wanted})}); };
  Id admitted = op(spv::Op::OpLogicalOr, bool_t,
                   {kind_is(pb::filter_all),
                    op(spv::Op::OpLogicalOr, bool_t,
                       {op(spv::Op::OpLogicalAnd, bool_t, {kind_is(pb::filter_invocation), equal(global)}),
                        op(spv::Op::OpLogicalAnd, bool_t, {kind_is(pb::filter_workgroup), equal(workgroup)})})});

  const std::uint32_t record_words = pb::record_header_words + std::uint32_t(words.size());
  Id capacity = header(pb::capacity_word);
  Id limit = op(spv::Op::OpISub, u32t, {capacity, u32(record_words)});
  Id used = word_at(u32(pb::used_word)), dropped = word_at(u32(pb::dropped_word));
  Id device = scope(ir::Scope::Device), relaxed = u32(0);
  auto drop = [&] { op(spv::Op::OpAtomicIAdd, u32t, {dropped, device, relaxed, u32(1)}); };
  auto selection = [&](Id condition, Id then_label, Id else_label, Id merge) {
    op_void(spv::Op::OpSelectionMerge, {merge, std::uint32_t(spv::SelectionControlMask::MaskNone)});
    terminate(spv::Op::OpBranchConditional, {condition, then_label, else_label});
  };

  Id try_label = m_.fresh_id(), end = m_.fresh_id();
  selection(admitted, try_label, end, end);
  label(try_label);
  Id reserve = m_.fresh_id(), full = m_.fresh_id(), try_end = m_.fresh_id();
  Id before = op(spv::Op::OpAtomicLoad, u32t, {used, device, relaxed});
  selection(op(spv::Op::OpULessThanEqual, bool_t, {before, limit}), reserve, full, try_end);

  label(reserve);
  Id start = op(spv::Op::OpAtomicIAdd, u32t, {used, device, relaxed, u32(record_words)});
  Id write = m_.fresh_id(), late_full = m_.fresh_id(), reserve_end = m_.fresh_id();
  selection(op(spv::Op::OpULessThanEqual, bool_t, {start, limit}), write, late_full, reserve_end);
  label(write);
  std::vector<Id> record{u32(std::uint32_t(n.a))};
  for (Id id : {workgroup, local})
    for (std::uint32_t d = 0; d < 3; ++d) record.push_back(op(spv::Op::OpCompositeExtract, u32t, {id, d}));
  record.insert(record.end(), words.begin(), words.end());
  Id first = op(spv::Op::OpIAdd, u32t, {start, u32(pb::header_words)});
  for (std::uint32_t k = 0; k < record.size(); ++k)
    op_void(spv::Op::OpStore, {word_at(op(spv::Op::OpIAdd, u32t, {first, u32(k)})), record[k]});
  terminate(spv::Op::OpBranch, {reserve_end});
  label(late_full);
  drop();
  Id mark = m_.fresh_id(), mark_end = m_.fresh_id();
  selection(op(spv::Op::OpULessThan, bool_t, {start, capacity}), mark, mark_end, mark_end);
  label(mark);
  op_void(spv::Op::OpStore, {word_at(op(spv::Op::OpIAdd, u32t, {start, u32(pb::header_words)})), u32(pb::end_marker)});
  terminate(spv::Op::OpBranch, {mark_end});
  label(mark_end);
  terminate(spv::Op::OpBranch, {reserve_end});
  label(reserve_end);
  terminate(spv::Op::OpBranch, {try_end});

  label(full);
  drop();
  terminate(spv::Op::OpBranch, {try_end});
  label(try_end);
  terminate(spv::Op::OpBranch, {end});
  label(end);
}

}  // namespace sprig::compiler
