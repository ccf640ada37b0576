// Tracing: what the IR of a kernel looks like.
#include <algorithm>
#include <catch2/catch.hpp>

#include "sprig/dsl.hpp"
#include "sprig/dsl/topo.hpp"

using namespace sprig;

namespace {

std::size_t count_ops(const ir::Function& f, ir::Op op) {
  std::size_t n = 0;
  for (const auto& node : f.nodes)
    if (node->op == op) ++n;
  return n;
}

}  // namespace

TEST_CASE("equal subexpressions are traced once") {
  auto k = kernel("cse", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt a = i * 3u + 1u;
    UInt b = i * 3u + 1u;
    out[i] = a ^ b;
  });
  CHECK(count_ops(k.ir()->entry, ir::Op::Mul) == 1);
  CHECK(count_ops(k.ir()->entry, ir::Op::Add) == 1);
  (void)k;
}

TEST_CASE("values are not hoisted out of a branch") {
  auto k = kernel("no_hoist", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 4u, [&] { out[i] = i * 7u; });
    out[0] = 1u;
  });
  const ir::Block& root = *k.ir()->entry.body;
  for (ir::NodeRef n : ir::schedule(root)) CHECK(n->op != ir::Op::Mul);
}

TEST_CASE("the same value in sibling branches is traced in each") {
  auto k = kernel("siblings", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 4u, [&] { out[i] = i * 7u; }).else_([&] { out[i] = i * 7u; });
  });
  CHECK(count_ops(k.ir()->entry, ir::Op::Mul) == 2);
}

TEST_CASE("the schedule puts pure values right before their first use and drops unused ones") {
  auto k = kernel("schedule", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt unused = i * 99u;
    (void)unused;
    Var<UInt> v = i + 1u;
    out[i] = v;
  });
  std::vector<ir::NodeRef> order = ir::schedule(*k.ir()->entry.body);
  for (ir::NodeRef n : order) CHECK(n->op != ir::Op::Mul);
  // Statements keep their order: the variable is declared before the store.
  std::vector<ir::Op> statements;
  for (ir::NodeRef n : order)
    if (ir::is_statement(n->op)) statements.push_back(n->op);
  CHECK(statements == std::vector<ir::Op>{ir::Op::DeclareVar, ir::Op::Load, ir::Op::Store});
}

TEST_CASE("for_ traces a loop with a header, a body and a continuing block") {
  auto k = kernel("loop", [](WriteBuffer<std::int32_t> out) {
    Var<Int> sum = 0;
    for_(0, 10, [&](Int i) { sum += i; });
    out[0] = sum;
  });
  ir::NodeRef loop = nullptr;
  for (ir::NodeRef s : k.ir()->entry.body->statements)
    if (s->op == ir::Op::Loop) loop = s;
  REQUIRE(loop);
  REQUIRE(loop->blocks.size() == 3);
  REQUIRE(loop->operands.size() == 1);
  CHECK(loop->operands[0]->op == ir::Op::Lt);
  CHECK(loop->operands[0]->home == loop->blocks[0]);
  CHECK(!loop->blocks[2]->statements.empty());
}

TEST_CASE("every node carries the user's source line") {
  auto k = kernel("lines", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = i + 5u;  // this line
  });
  int line = __LINE__ - 2;
  bool found = false;
  for (const auto& n : k.ir()->entry.nodes)
    if (n->op == ir::Op::Add) {
      CHECK(n->loc.line == std::uint32_t(line));
      found = true;
    }
  CHECK(found);
}

TEST_CASE("assigning a place stores on the line of the assignment, and a variable takes any readable place") {
  int declared = 0, assigned = 0, loaded = 0;
  auto k = kernel("place_lines", [&](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    auto tile = shared_array<std::uint32_t>(64, "tile");
    UInt l = local_id().x();
    Var<UInt> value = 0u;  declared = __LINE__;
    value = in[l];  loaded = __LINE__;  // a read-only place: once ambiguous
    tile[l] = value;  assigned = __LINE__;
    barrier();
    out[l] = tile[l];
  }, workgroup(64));
  std::vector<std::uint32_t> store_lines;
  for (const auto& n : k.ir()->entry.nodes)
    if (n->op == ir::Op::Store) store_lines.push_back(n->loc.line);
  // value = in[l] stores where in[l] was indexed; tile[l] = value where tile[l] was, not
  // where value was declared.
  CHECK(std::count(store_lines.begin(), store_lines.end(), std::uint32_t(loaded)) == 1);
  CHECK(std::count(store_lines.begin(), store_lines.end(), std::uint32_t(assigned)) == 1);
  CHECK(std::count(store_lines.begin(), store_lines.end(), std::uint32_t(declared)) == 0);
}

TEST_CASE("the semantic hash ignores names and source lines but not semantics") {
  auto body = [](ReadBuffer<float> x, WriteBuffer<float> y) { y[global_id().x()] = x[global_id().x()] * 2.0f; };
  auto a = kernel("first", body);
  auto b = kernel("second", body);
  auto c = kernel("third", [](ReadBuffer<float> x, WriteBuffer<float> y) { y[global_id().x()] = x[global_id().x()] * 3.0f; });
  auto d = kernel("fourth", body, workgroup(128));
  CHECK(a.hash() == b.hash());
  CHECK(a.hash() != c.hash());
  CHECK(a.hash() != d.hash());
}

TEST_CASE("buffer read/write sets come from the traced body") {
  auto k = kernel("sets", [](Buffer<float> a, Buffer<float> b, Buffer<float> c) {
    UInt i = global_id().x();
    b[i] = a[i];
    (void)c;
  });
  CHECK(k.ir()->params[0].used == std::uint8_t(Access::Read));
  CHECK(k.ir()->params[1].used == std::uint8_t(Access::Write));
  CHECK(k.ir()->params[2].used == 0);
}

TEST_CASE("Int64 is a feature only of kernels with 64-bit values") {
  auto narrow = kernel("narrow", [](WriteBuffer<std::uint32_t> out) { out[0] = 1u; });
  auto wide = kernel("wide", [](WriteBuffer<std::uint32_t> out) {
    ULong x = cast<std::uint64_t>(global_id().x()) * 3ull;
    out[0] = cast<std::uint32_t>(x >> 32ull);
  });
  CHECK_FALSE(narrow.ir()->features.int64);
  CHECK(wide.ir()->features.int64);
}

TEST_CASE("callables become functions traced once per kernel") {
  auto twice = callable("twice", [](UInt x) -> UInt { return x * 2u; });
  auto k = kernel("calls", [&](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = twice(i) + twice(i + 1u) + twice(twice(i));
  });
  REQUIRE(k.ir()->functions.size() == 1);
  CHECK(k.ir()->functions[0]->name == "twice");
  CHECK(count_ops(k.ir()->entry, ir::Op::Call) == 4);
}

TEST_CASE("the printed IR lists parameters, nodes and source lines") {
  auto k = kernel("printed", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  }, workgroup(256));
  std::string text = ir::print(*k.ir());
  CHECK_THAT(text, Catch::Contains("kernel printed workgroup(256, 1, 1)"));
  CHECK_THAT(text, Catch::Contains("param0: push constant float @0"));
  CHECK_THAT(text, Catch::Contains("param1: storage buffer float binding 0 read"));
  CHECK_THAT(text, Catch::Contains("param2: storage buffer float binding 1 read-write"));
  CHECK_THAT(text, Catch::Contains("If %"));
  CHECK_THAT(text, Catch::Contains("Builtin(GlobalInvocationId)"));
  CHECK_THAT(text, Catch::Contains("tracing_test.cpp:"));
}

TEST_CASE("every traced node has the operand count its row in the op tables gives") {
  auto twice = callable("twice", [](UInt x) -> UInt { return x * 2u; });
  auto k = kernel("many_ops", [&](ReadBuffer<vec4> in, Buffer<std::uint32_t> out) {
    UInt i = global_id().x();
    auto local = shared_array<std::uint32_t>(64, "local");
    Vec4 v = in[i];
    Float f = clamp(v.x(), 0.0f, 1.0f) + mix(v.y(), v.z(), 0.5f) + dot(v, v) + floor(v.w()) + step(0.5f, v.x());
    Vec4 r = refract(v, v.swizzle<3, 2, 1, 0>(), 1.5f);
    Var<UInt> acc = bitfield_insert(cast<std::uint32_t>(f), i, 4u, 4u) + bitfield_extract(i, 2u, 3u);
    if_(subgroup_elect(), [&] { acc += ballot_bit_count(subgroup_ballot(i > 3u)); });
    for_(0u, 4u, [&](UInt j) {
      if_(j == 2u, [&] { break_(); });
      acc += subgroup_inclusive_add(j) + subgroup_broadcast(j, 0u) + twice(j);
    });
    UInt total = acc;
    atomic_store(local[i % 64u], total);
    barrier();
    acc += atomic_compare_exchange(out[0], 0u, 1u) + atomic_increment(out[1]) + atomic_load(local[0u]);
    out[i + 2u] = acc + select(r.x() > 0.0f, 1u, 2u) + in.size();
  });
  std::size_t nodes = 0;
  auto check = [&](const ir::Function& f) {
    for (const auto& n : f.nodes) {
      INFO(ir::op_name(n->op) << " at " << n->loc.str());
      CHECK(ir::operand_problem(*n) == "");
      ++nodes;
    }
  };
  check(k.ir()->entry);
  for (const auto& f : k.ir()->functions) check(*f);
  CHECK(nodes > 50);
}

TEST_CASE("a node with the wrong number of operands is named with its op and the counts") {
  ir::Node add;
  add.op = ir::Op::Add;
  CHECK(ir::operand_problem(add) == "Add takes 2 operands, not 0");
  ir::Node math;
  math.op = ir::Op::Math;
  math.a = std::uint64_t(ir::MathFn::Clamp);
  CHECK(ir::operand_problem(math) == "Math Clamp takes 3 operands, not 0");
  ir::Node ret;
  ret.op = ir::Op::Return;
  ret.operands = {&add, &add};
  CHECK(ir::operand_problem(ret) == "Return takes at most 1 operand, not 2");
  ir::Node builtin;
  builtin.op = ir::Op::Builtin;
  builtin.a = 99;
  CHECK(ir::operand_problem(builtin) == "unknown builtin 99");
}

TEST_CASE("loop and compound-assignment nodes carry the user's line, not sprig's") {
  auto k = kernel("own_lines", [](WriteBuffer<std::uint32_t> out) {
    Var<UInt> s = 0u;
    for_(0u, 4u, [&](UInt j) { s += j; });
    out[0] = s;
  });
  for (const auto& n : k.ir()->entry.nodes) {
    INFO(ir::op_name(n->op) << " at " << n->loc.str());
    CHECK_THAT(n->loc.file, Catch::Contains("tracing_test.cpp"));
  }
}
