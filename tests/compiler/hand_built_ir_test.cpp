// IR the tracing front-end does not produce today but the IR allows: bools in buffers,
// uniforms and push constants (uint32 0/1 in memory), loops without a condition block,
// and modules the validator must reject. Built node by node.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

namespace {

ir::TypeRef scalar(ir::ScalarKind k) { return ir::scalar_type(k); }
const ir::TypeRef u32 = ir::scalar_type(ir::ScalarKind::U32);
const ir::TypeRef boolean = ir::scalar_type(ir::ScalarKind::Bool);

// A kernel assembled by hand: nodes are appended to the entry function, statements to
// their block's statement list.
class HandBuilt {
 public:
  explicit HandBuilt(std::string name) {
    k.name = std::move(name);
    k.workgroup_size = {1, 1, 1};
    k.entry.body = block(nullptr, nullptr);
  }

  ir::Block* block(ir::Block* parent, ir::NodeRef owner) {
    k.entry.blocks.push_back(std::make_unique<ir::Block>());
    ir::Block* b = k.entry.blocks.back().get();
    b->parent = parent;
    b->owner = owner;
    if (owner) owner->blocks.push_back(b);
    return b;
  }

  ir::NodeRef add(ir::Block* home, ir::Op op, ir::TypeRef type, std::vector<ir::NodeRef> operands = {},
                  std::uint64_t a = 0, std::vector<std::uint64_t> imm = {}, ir::Space space = ir::Space::None) {
    k.entry.nodes.push_back(std::make_unique<ir::Node>());
    ir::NodeRef n = k.entry.nodes.back().get();
    n->op = op;
    n->type = type;
    n->operands = std::move(operands);
    n->a = a;
    n->imm = std::move(imm);
    n->space = space;
    n->home = home;
    n->id = std::uint32_t(k.entry.nodes.size() - 1);
    if (ir::is_statement(op)) home->statements.push_back(n);
    return n;
  }

  ir::NodeRef constant(ir::Block* home, ir::TypeRef type, std::uint64_t bits) {
    return add(home, ir::Op::Constant, type, {}, 0, std::vector<std::uint64_t>(type->components(), bits));
  }

  std::uint32_t param(ir::ParamKind kind, ir::TypeRef type, std::uint32_t binding, std::uint32_t push_offset = 0) {
    ir::Param p;
    p.kind = kind;
    p.type = type;
    p.access = ir::Access::ReadWrite;
    p.name = "p" + std::to_string(k.params.size());
    p.binding = binding;
    p.push_offset = push_offset;
    k.params.push_back(p);
    return std::uint32_t(k.params.size() - 1);
  }

  // Pointer to element `index` of buffer parameter `param`.
  ir::NodeRef element(ir::Block* home, std::uint32_t param, ir::TypeRef type, std::uint32_t index) {
    ir::NodeRef root = add(home, ir::Op::BufferRoot, type, {}, param, {}, ir::Space::StorageBuffer);
    return add(home, ir::Op::Access, type, {root, constant(home, u32, index)}, 0, {}, ir::Space::StorageBuffer);
  }

  ir::Kernel k;
};

}  // namespace

TEST_CASE("bools in a storage buffer are uint32 0/1: loads test != 0, stores select 1 or 0") {
  HandBuilt h("bool_buffer");
  ir::Block* body = h.k.entry.body;
  std::uint32_t flags = h.param(ir::ParamKind::StorageBuffer, boolean, 0);
  ir::NodeRef in = h.add(body, ir::Op::Load, boolean, {h.element(body, flags, boolean, 0)});
  ir::NodeRef flipped = h.add(body, ir::Op::LogicalNot, boolean, {in});
  h.add(body, ir::Op::Store, ir::void_type(), {h.element(body, flags, boolean, 1), flipped});
  test::Module m = valid_module(h.k);
  CHECK(m.text.find("OpTypeRuntimeArray %uint") != std::string::npos);
  CHECK(m.contains(spv::Op::OpINotEqual));
  CHECK(m.contains(spv::Op::OpSelect));
}

TEST_CASE("structs holding bools convert member by member between layouts") {
  ir::TypeRef flagged = ir::struct_type("Flagged", {{"value", u32}, {"set", boolean}, {"lanes", ir::vector_type(ir::ScalarKind::Bool, 2)}});
  HandBuilt h("bool_structs");
  ir::Block* body = h.k.entry.body;
  std::uint32_t buffer = h.param(ir::ParamKind::StorageBuffer, flagged, 0);
  std::uint32_t uniform = h.param(ir::ParamKind::Uniform, flagged, 1);
  std::uint32_t push = h.param(ir::ParamKind::Scalar, boolean, 0, 0);
  ir::NodeRef from_uniform = h.add(body, ir::Op::Param, flagged, {}, uniform);
  ir::NodeRef from_push = h.add(body, ir::Op::Param, boolean, {}, push);
  ir::NodeRef updated = h.add(body, ir::Op::Insert, flagged, {from_uniform, from_push}, 1);
  h.add(body, ir::Op::Store, ir::void_type(), {h.element(body, buffer, flagged, 0), updated});
  ir::NodeRef back = h.add(body, ir::Op::Load, flagged, {h.element(body, buffer, flagged, 1)});
  h.add(body, ir::Op::Store, ir::void_type(), {h.element(body, buffer, flagged, 2), back});
  test::Module m = valid_module(h.k);
  CHECK_FALSE(m.contains(spv::Op::OpCopyLogical));
  CHECK(m.text.find("= OpTypeStruct %uint %uint %v2uint") != std::string::npos);  // std140 twin
}

TEST_CASE("structs without bools cross layouts in one OpCopyLogical, arrays included") {
  ir::TypeRef table = ir::array_type(ir::vector_type(ir::ScalarKind::F32, 3), 4);
  HandBuilt h("copy_logical");
  ir::Block* body = h.k.entry.body;
  std::uint32_t buffer = h.param(ir::ParamKind::StorageBuffer, table, 0);
  std::uint32_t uniform = h.param(ir::ParamKind::Uniform, ir::struct_type("Holder", {{"table", table}}), 1);
  ir::NodeRef holder = h.add(body, ir::Op::Param, h.k.params[uniform].type, {}, uniform);
  ir::NodeRef values = h.add(body, ir::Op::Extract, table, {holder}, 0);
  h.add(body, ir::Op::Store, ir::void_type(), {h.element(body, buffer, table, 0), values});
  test::Module m = valid_module(h.k);
  CHECK(m.count(spv::Op::OpCopyLogical) == 2);  // std140 Holder -> logical, logical table -> std430
  CHECK(m.text.find("ArrayStride 16") != std::string::npos);
}

TEST_CASE("a loop without condition or header statements, left by return") {
  HandBuilt h("bare_loop");
  ir::Block* body = h.k.entry.body;
  std::uint32_t out = h.param(ir::ParamKind::StorageBuffer, u32, 0);
  ir::NodeRef loop = h.add(body, ir::Op::Loop, ir::void_type());
  h.block(body, loop);
  ir::Block* loop_body = h.block(body, loop);
  h.block(body, loop);
  h.add(loop_body, ir::Op::Store, ir::void_type(), {h.element(loop_body, out, u32, 0), h.constant(loop_body, u32, 7)});
  h.add(loop_body, ir::Op::Return, ir::void_type());
  test::Module m = valid_module(h.k);
  CHECK(m.count(spv::Op::OpUnreachable) == 1);
}

TEST_CASE("nodes without a source location get no OpLine") {
  HandBuilt h("no_locations");
  ir::Block* body = h.k.entry.body;
  std::uint32_t out = h.param(ir::ParamKind::StorageBuffer, scalar(ir::ScalarKind::I32), 0);
  h.add(body, ir::Op::Store, ir::void_type(),
        {h.element(body, out, scalar(ir::ScalarKind::I32), 0), h.constant(body, scalar(ir::ScalarKind::I32), ~0ull)});
  test::Module m = valid_module(h.k);
  CHECK_FALSE(m.contains(spv::Op::OpLine));
  CHECK(m.text.find("%int_n1 = OpConstant %int -1") != std::string::npos);
}

TEST_CASE("compile() throws a CompileError naming the kernel when the validator rejects the module") {
  // An atomic on a local variable: the IR allows it, Vulkan does not.
  HandBuilt h("atomic_on_local");
  h.k.entry.vars.push_back(ir::Variable{u32, "counter", {}});
  ir::Block* body = h.k.entry.body;
  h.add(body, ir::Op::DeclareVar, ir::void_type(), {}, 0);
  ir::NodeRef var = h.add(body, ir::Op::VarRoot, u32, {}, 0, {}, ir::Space::Function);
  ir::NodeRef atomic = h.add(body, ir::Op::Atomic, u32, {var, h.constant(body, u32, 1)}, std::uint64_t(ir::AtomicOp::Add));
  atomic->b = ir::pack(ir::AtomicInfo{ir::Scope::Device, ir::MemoryOrder::Relaxed});
  CHECK_FALSE(compiler::validation_errors(compiler::emit(h.k)).empty());
  CHECK_THROWS_WITH(compiler::compile(h.k), Catch::Contains("atomic_on_local") && Catch::Contains("Atomic"));
}

TEST_CASE("a node with the wrong number of operands for its op is a CompileError naming the op") {
  HandBuilt h("short_add");
  ir::Block* body = h.k.entry.body;
  std::uint32_t out = h.param(ir::ParamKind::StorageBuffer, u32, 0);
  ir::NodeRef sum = h.add(body, ir::Op::Add, u32, {h.constant(body, u32, 1)});
  h.add(body, ir::Op::Store, ir::void_type(), {h.element(body, out, u32, 0), sum});
  CHECK_THROWS_WITH(compiler::compile(h.k),
                    Catch::Contains("short_add") && Catch::Contains("Add takes 2 operands, not 1"));
}
