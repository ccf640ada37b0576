// The IR that tracing produces and that both backends consume: a closed set of node kinds
// forming a DAG of pure values plus, per block, an ordered list of statements.
//
// Placement rule: every node lives in the block where it was traced (its `home`). Pure nodes
// are hash-consed within a block and its ancestors (scoped value numbering), so nothing is
// ever hoisted out of a branch. Statements (anything with side effects or whose value
// depends on when it runs: loads, stores, atomics, calls, subgroup operations, control
// flow) appear in their block's `statements` in program order; pure nodes do not, and are
// emitted before their first use (see topo.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sprig/dsl/source_loc.hpp"
#include "sprig/dsl/types.hpp"

namespace sprig::ir {

// ---- the op set and its traits: one row per op in ops.def, with each op's specification
enum class Op : std::uint16_t {
#define SPRIG_OP(Name, Kind, Operands, Print, emit, simulate) Name,
#include "sprig/dsl/ops.def"
#undef SPRIG_OP
};

// Pure: a value, hash-consed; Pointer: pure, its type is the pointee's; Statement: ordered
// in its block (see the placement rule above).
enum class OpKind : std::uint8_t { Pure, Pointer, Statement };
// What ir::print shows after the op's name: nothing, Constant data, Shuffle's component
// indices, the immediates a (and b where non-zero) as numbers, or a named by its sub-table.
enum class PrintStyle : std::uint8_t { Plain, Data, Lanes, Index, BuiltinName, MathName, AtomicName, SubgroupName };
// How many operands a node has, at least and at most.
struct OperandCount {
  std::uint8_t min = 0, max = 0;
};
struct OpInfo {
  std::string_view name;
  OpKind kind;
  OperandCount operands;  // for Variadic ops the sub-table row, type or callee says
  PrintStyle print;
};

namespace op_table {
inline constexpr OperandCount Optional{0, 1}, Variadic{0, 255};
constexpr OperandCount operand_count(OperandCount c) { return c; }
constexpr OperandCount operand_count(int n) { return {std::uint8_t(n), std::uint8_t(n)}; }
inline constexpr OpInfo ops[] = {
#define SPRIG_OP(Name, Kind, Operands, Print, emit, simulate) \
  {#Name, OpKind::Kind, operand_count(Operands), PrintStyle::Print},
#include "sprig/dsl/ops.def"
#undef SPRIG_OP
};
}  // namespace op_table

inline constexpr std::size_t op_count = std::size(op_table::ops);
constexpr bool is_known(Op op) { return std::size_t(op) < op_count; }  // false only in malformed IR
constexpr const OpInfo& op_info(Op op) { return op_table::ops[std::size_t(op)]; }  // a known op
constexpr std::string_view op_name(Op op) { return is_known(op) ? op_info(op).name : "?"; }
constexpr bool is_statement(Op op) { return is_known(op) && op_info(op).kind == OpKind::Statement; }
constexpr bool is_pointer_op(Op op) { return is_known(op) && op_info(op).kind == OpKind::Pointer; }
// The most operands an op of fixed count takes (backends size their operand slots by it).
constexpr std::size_t most_fixed_operands() {
  std::size_t most = 0;
  for (const OpInfo& i : op_table::ops)
    if (i.operands.min == i.operands.max && i.operands.max > most) most = i.operands.max;
  return most;
}

enum class Space : std::uint8_t { None, Function, StorageBuffer, Uniform, PushConstant, Workgroup };
enum class Access : std::uint8_t { Read = 1, Write = 2, ReadWrite = 3 };

// ---- the sub-tables: built-in inputs, math functions, atomics and subgroup operations
enum class Builtin : std::uint8_t {
#define SPRIG_BUILTIN(Name, function, T, Needs) Name,
#include "sprig/dsl/builtins.def"
#undef SPRIG_BUILTIN
};
enum class MathFn : std::uint8_t {
#define SPRIG_MATH_FN(Name, Operands) Name,
#include "sprig/dsl/math_functions.def"
#undef SPRIG_MATH_FN
};
enum class AtomicOp : std::uint8_t {
#define SPRIG_ATOMIC_OP(Name, Values, Access) Name,
#include "sprig/dsl/atomic_ops.def"
#undef SPRIG_ATOMIC_OP
};
enum class SubgroupOp : std::uint8_t {
#define SPRIG_SUBGROUP_OP(Name, Operands, Feature) Name,
#include "sprig/dsl/subgroup_ops.def"
#undef SPRIG_SUBGROUP_OP
};
// The Vulkan subgroup feature classes (VkSubgroupFeatureFlagBits), as subgroup_ops.def uses them.
enum class SubgroupFeature : std::uint8_t { Basic, Vote, Ballot, Shuffle, ShuffleRelative, Arithmetic };

std::string_view builtin_name(Builtin b);
std::string_view math_function_name(MathFn f);
std::string_view atomic_op_name(AtomicOp op);
std::string_view subgroup_op_name(SubgroupOp op);
// Whether reading the builtin needs the basic subgroup feature.
bool needs_subgroups(Builtin b);
// Whether the atomic reads (then it returns the previous value) and whether it writes.
constexpr Access atomic_access(AtomicOp op) {
  constexpr Access access[] = {
#define SPRIG_ATOMIC_OP(Name, Values, access) Access::access,
#include "sprig/dsl/atomic_ops.def"
#undef SPRIG_ATOMIC_OP
  };
  return access[std::size_t(op)];
}
constexpr bool atomic_reads(AtomicOp op) { return std::uint8_t(atomic_access(op)) & std::uint8_t(Access::Read); }
constexpr bool atomic_writes(AtomicOp op) { return std::uint8_t(atomic_access(op)) & std::uint8_t(Access::Write); }
SubgroupFeature subgroup_feature(SubgroupOp op);

// ---- workgroup-level operations; the IR shape is fixed here so that both
// backends are written against it from the start.
enum class Scope : std::uint8_t { Invocation, Subgroup, Workgroup, Device };
enum class MemoryOrder : std::uint8_t { Relaxed, Acquire, Release, AcqRel };
// Which storage classes a barrier orders (bit set).
enum MemoryClass : std::uint8_t { OrdersShared = 1, OrdersBuffers = 2 };
enum class BarrierKind : std::uint8_t { Control, Memory };
enum class GroupOperation : std::uint8_t { None, Reduce, InclusiveScan, ExclusiveScan };

struct AtomicInfo {
  Scope scope;
  MemoryOrder order;
};
inline std::uint64_t pack(AtomicInfo i) { return std::uint64_t(i.scope) | std::uint64_t(i.order) << 8; }
inline AtomicInfo atomic_info(std::uint64_t b) { return {Scope(b & 0xff), MemoryOrder((b >> 8) & 0xff)}; }

struct BarrierInfo {
  Scope execution_scope;  // Control barriers: Workgroup (or Subgroup); Memory barriers: unused
  Scope memory_scope;
  MemoryOrder order;      // AcqRel for a control barrier
  std::uint8_t classes;   // MemoryClass bits, never 0
};
inline std::uint64_t pack(BarrierInfo i) {
  return std::uint64_t(i.execution_scope) | std::uint64_t(i.memory_scope) << 8 |
         std::uint64_t(i.order) << 16 | std::uint64_t(i.classes) << 24;
}
inline BarrierInfo barrier_info(std::uint64_t b) {
  return {Scope(b & 0xff), Scope((b >> 8) & 0xff), MemoryOrder((b >> 16) & 0xff),
          std::uint8_t((b >> 24) & 0xff)};
}

struct Block;
struct Node;
using NodeRef = Node*;

struct Node {
  Op op;
  TypeRef type = nullptr;  // value type; for pointer ops the pointee type; void for statements
                           // without a value
  Space space = Space::None;  // pointer ops: the storage class pointed into
  std::vector<NodeRef> operands;
  std::uint64_t a = 0, b = 0;       // op-specific immediates, documented per op above
  std::vector<std::uint64_t> imm;   // Constant data, Shuffle indices
  std::vector<Block*> blocks;       // If, Loop
  Block* home = nullptr;            // the block this node was traced in
  SourceLoc loc;
  std::uint32_t id = 0;             // creation order within its function, unique
  std::string name;                 // optional debug name (OpName); not part of semantics
};

// Why `n` has the wrong number of operands for its op (or for its MathFn, AtomicOp or
// SubgroupOp) or names no row of its table, or "" when it is well formed so far. Both
// backends check each node with it before reading its operands.
std::string operand_problem(const Node& n);

struct Block {
  Block* parent = nullptr;
  Node* owner = nullptr;  // the If/Loop node this block belongs to (null for a function body)
  std::vector<NodeRef> statements;
};

// A local variable (Function storage). Declared by a DeclareVar statement.
struct Variable {
  TypeRef type;
  std::string name;
  SourceLoc loc;
};

// A workgroup-shared variable of the kernel.
struct SharedVariable {
  TypeRef type;  // usually an array
  std::string name;
  SourceLoc loc;
};

enum class ParamKind : std::uint8_t { Scalar, StorageBuffer, Uniform };

struct Param {
  ParamKind kind;
  TypeRef type;   // Scalar: the value type (also vectors and structs as push constants);
                  // StorageBuffer: the element type; Uniform: the struct type
  Access access = Access::Read;  // StorageBuffer: as declared by the parameter type
  std::uint8_t used = 0;         // StorageBuffer: Access bits the traced body really uses;
                                 // the runtime derives barriers between launches from these
  bool coherent = false;         // StorageBuffer: accessed coherently between workgroups
  std::string name;
  std::uint32_t binding = 0;       // StorageBuffer, Uniform: descriptor set 0 binding
  std::uint32_t push_offset = 0;   // Scalar: byte offset in the push-constant block (std430)
};

// A device_print's format (docs/debugging.md): the literal text around each argument
// (arguments.size() + 1 pieces; host literals passed as arguments are already part of it),
// each device argument's type and whether it is shown in hexadecimal, and the print's line.
struct PrintFormat {
  std::vector<std::string> text;
  std::vector<TypeRef> arguments;  // scalars and vectors
  std::vector<bool> hex;           // per argument: {:x}
  SourceLoc loc;
};

// A function body: the kernel entry point or a callable.
struct Function {
  std::string name;
  std::vector<TypeRef> param_types;  // callables only
  TypeRef result = nullptr;          // void for the kernel
  std::vector<Variable> vars;
  Block* body = nullptr;
  std::vector<std::unique_ptr<Node>> nodes;    // owns every node of this function
  std::vector<std::unique_ptr<Block>> blocks;  // owns every block of this function
  SourceLoc loc;
};

// Features a kernel needs from the device, collected while tracing.
struct Features {
  bool int64 = false;
  bool int64_atomics = false;  // 64-bit atomics on buffers or shared memory
  bool subgroup_basic = false, subgroup_vote = false, subgroup_ballot = false,
       subgroup_shuffle = false, subgroup_shuffle_relative = false, subgroup_arithmetic = false;
  std::uint32_t required_subgroup_size = 0;  // 0: any
};

struct Kernel {
  std::string name;
  std::array<std::uint32_t, 3> workgroup_size{64, 1, 1};
  std::vector<Param> params;
  std::uint32_t push_constant_size = 0;  // bytes, std430
  std::vector<SharedVariable> shared;
  Function entry;
  std::vector<std::unique_ptr<Function>> functions;  // callables, indexed by Call's `a`
  Features features;
  std::vector<PrintFormat> prints;  // indexed by Print's `a`
  // Whether device_print records while this kernel is traced (KernelOptions::device_prints).
  // Not semantics: a kernel traced with prints off has no Print node, so it is the kernel
  // without them, hash included.
  bool prints_on = true;
  // Float + - * / sqrt (and what is built of them) exactly as IEEE-754 binary32 rounds to
  // nearest even, on every device: see docs/language.md, "Precise floats".
  bool precise_floats = false;
  SourceLoc loc;             // where the kernel was defined
  std::uint64_t hash = 0;    // semantic hash: excludes names and source locations
  std::uint64_t debug_hash = 0;  // the names and source locations the semantic hash leaves out
  double trace_ms = 0;       // time spent tracing the lambda
};

// The descriptor binding of the buffer that device_print writes to on Vulkan: the one
// after the kernel's buffer and uniform parameters (emitted only where the kernel prints).
std::uint32_t print_binding(const Kernel& k);

}  // namespace sprig::ir
