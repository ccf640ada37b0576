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
#include <memory>
#include <string>
#include <vector>

#include "sprig/dsl/source_loc.hpp"
#include "sprig/dsl/types.hpp"

namespace sprig::ir {

enum class Op : std::uint16_t {
  // ---- leaves (pure)
  Constant,   // imm: one 64-bit word per scalar component, in declaration order (bool: 0/1,
              // f32: the bit pattern in the low 32 bits, signed: sign-extended)
  Param,      // a kernel or callable parameter's value; a = parameter index. Kernel scalar and
              // uniform parameters are values; buffer parameters are reached via BufferRoot.
  Builtin,    // a = Builtin
  // ---- pointers (pure). `type` is the pointee type, `space` the storage class.
  VarRoot,     // a = index into Function::vars
  BufferRoot,  // a = kernel parameter index; pointee: the runtime array of the element type
               // (type = element type; address with Access(root, index))
  SharedRoot,  // a = index into Kernel::shared
  Access,      // operands: base pointer, index (u32 or i32 value). For structs the index is a
               // Constant and selects a field; for vectors and arrays it may be dynamic.
  // ---- element-wise arithmetic on scalars and vectors (pure); see semantics.hpp
  Add, Sub, Mul, Div, Rem, Neg,
  FloorDiv, Mod,  // quotient rounded toward minus infinity, remainder with the divisor's sign
  BitAnd, BitOr, BitXor, BitNot, Shl, Shr,
  LogicalAnd, LogicalOr, LogicalNot,  // bool only; both operands are always evaluated
  Eq, Ne, Lt, Le, Gt, Ge,             // result: bool of the operands' shape
  Select,                             // operands: cond (bool, scalar or same shape), a, b
  RotateLeft, RotateRight,
  MulHi,         // high half of the full product (32x32->hi32, 64x64->hi64); signedness by type
  AddCarry,      // result: the carry-out (0 or 1) of a + b, same type as a
  PopCount, CountLeadingZeros, CountTrailingZeros, BitReverse, ByteSwap,
  BitfieldExtract,  // operands: value, offset (u32), count (u32); sign-extends for signed types
  BitfieldInsert,   // operands: base, insert, offset (u32), count (u32)
  Convert,          // value conversion to `type` (cast<T>); see semantics.hpp for float->int
  Bitcast,          // same total size, reinterpret bits
  Math,             // a = MathFn; operands as GLSL.std.450 defines them
  // ---- composites (pure)
  Construct,         // operands: the components/fields/elements of `type`, in order
  Extract,           // operands: composite; a = constant index (field, component, element)
  Insert,            // operands: composite, value; a = constant index
  DynamicExtract,    // operands: vector, index (dynamic component selection)
  Shuffle,           // operands: vector a, vector b; imm: component indices into a ++ b
  ArrayLength,       // a = kernel buffer parameter index; result u32 element count
  // ---- statements (ordered; listed in Block::statements)
  DeclareVar,   // a = index into Function::vars; operands: optional initial value
  Load,         // operands: pointer. Value = what it points at, at this point of the program.
  Store,        // operands: pointer, value
  Atomic,       // a = AtomicOp, b = packed MemoryOrder/Scope (see atomic_info); operands:
                // pointer, then values (compare-exchange: value, comparator). Returns the
                // previous value except for AtomicOp::Store.
  Barrier,      // a = BarrierKind, b = packed Scope/MemorySemantics (see barrier_info)
  Subgroup,     // a = SubgroupOp, b = GroupOperation; operands as the op needs
  Call,         // a = index into Kernel::functions; operands: arguments; value: the result
  If,           // operands: cond; blocks: then, else (else may be empty)
  Loop,         // blocks: header (computes the condition, may be empty), body, continuing;
                // operands: optional condition node (lives in the header block); absent
                // means an infinite loop left only by break/return
  Break,        // leaves the innermost loop
  Continue,     // jumps to the innermost loop's continuing block
  Return,       // operands: optional value (callables); in a kernel it ends the invocation
};

std::string_view op_name(Op op);
bool is_statement(Op op);
bool is_pointer_op(Op op);

enum class Space : std::uint8_t { None, Function, StorageBuffer, Uniform, PushConstant, Workgroup };

enum class Builtin : std::uint8_t {
  GlobalInvocationId,    // uvec3
  LocalInvocationId,     // uvec3
  WorkgroupId,           // uvec3
  NumWorkgroups,         // uvec3
  WorkgroupSize,         // uvec3 (a constant of the kernel)
  LocalInvocationIndex,  // u32
  SubgroupSize,          // u32
  SubgroupInvocationId,  // u32
  SubgroupId,            // u32
  NumSubgroups,          // u32
};

enum class MathFn : std::uint8_t {
  Abs, Min, Max, Clamp, Floor, Ceil, Fract, Round, Trunc, Sqrt, InverseSqrt,
  Exp, Exp2, Log, Log2, Pow, Sin, Cos, Tan, Asin, Acos, Atan, Atan2,
  Mix, Step, SmoothStep, Fma, Dot, Cross, Length, Distance, Normalize, Reflect, Refract,
  Sign, IsNan, IsInf,
};

// ---- workgroup-level operations; the IR shape is fixed here so that both
// backends are written against it from the start.
enum class Scope : std::uint8_t { Invocation, Subgroup, Workgroup, Device };
enum class MemoryOrder : std::uint8_t { Relaxed, Acquire, Release, AcqRel };
enum class AtomicOp : std::uint8_t {
  Load, Store, Exchange, CompareExchange, Add, Sub, Min, Max, And, Or, Xor, Increment, Decrement,
};
// Which storage classes a barrier orders (bit set).
enum MemoryClass : std::uint8_t { OrdersShared = 1, OrdersBuffers = 2 };
enum class BarrierKind : std::uint8_t { Control, Memory };
enum class SubgroupOp : std::uint8_t {
  Elect, All, Any, AllEqual, Ballot, BallotBitCount, BallotInclusiveBitCount,
  BallotExclusiveBitCount, BallotFindLSB, BallotFindMSB, Broadcast, BroadcastFirst, Shuffle,
  ShuffleXor, ShuffleUp, ShuffleDown, Add, Mul, Min, Max, And, Or, Xor,
};
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
enum class Access : std::uint8_t { Read = 1, Write = 2, ReadWrite = 3 };

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
  // Float + - * / sqrt (and what is built of them) exactly as IEEE-754 binary32 rounds to
  // nearest even, on every device: see docs/language.md, "Precise floats".
  bool precise_floats = false;
  SourceLoc loc;             // where the kernel was defined
  std::uint64_t hash = 0;    // semantic hash: excludes names and source locations
  double trace_ms = 0;       // time spent tracing the lambda
};

}  // namespace sprig::ir
