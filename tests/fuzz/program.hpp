// The fuzzer's program representation: a small typed tree that the generator builds from a
// seed, the tracer turns into a sprig kernel, the printer writes as DSL source and the
// reducer shrinks. Values, not pointers, so that a program copies deeply with `=`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sprig::fuzz {

enum class Scalar : std::uint8_t { Bool, I32, U32, F32, I64, U64 };

// A scalar (lanes == 1) or a vector of 2..4 lanes (Bool, I32, U32 and F32 components only).
struct Type {
  Scalar scalar = Scalar::U32;
  std::uint8_t lanes = 1;
  bool operator==(const Type&) const = default;
  bool is_vector() const { return lanes > 1; }
  bool is_integer() const { return scalar != Scalar::Bool && scalar != Scalar::F32; }
  bool is_signed() const { return scalar == Scalar::I32 || scalar == Scalar::I64; }
  bool is_float() const { return scalar == Scalar::F32; }
  bool is_bool() const { return scalar == Scalar::Bool; }
  bool is_64bit() const { return scalar == Scalar::I64 || scalar == Scalar::U64; }
  Type component() const { return {scalar, 1}; }
  Type with(Scalar s) const { return {s, lanes}; }
};

enum class Op : std::uint8_t {
  // binary, operands and result of one type (comparisons: a bool of the operands' shape;
  // FloorDiv and Mod of a vector may take a scalar divisor, broadcast)
  Add, Sub, Mul, Div, Rem, BitAnd, BitOr, BitXor, Shl, Shr, LogicalAnd, LogicalOr,
  Eq, Ne, Lt, Le, Gt, Ge, Min, Max, RotateLeft, RotateRight, MulHi, AddCarry, FloorDiv, Mod,
  // unary
  Neg, BitNot, LogicalNot, PopCount, CountLeadingZeros, CountTrailingZeros, BitReverse, ByteSwap,
  Abs, Floor, Ceil, Trunc, Round, Fract,
  // float built-ins the language does not promise bit for bit (compared with a tolerance)
  Sqrt, InverseSqrt, Exp, Exp2, Log, Log2, Sin, Cos, Atan,
  // subgroup operations (statements)
  SubgroupAdd, SubgroupMul, SubgroupMin, SubgroupMax, SubgroupAnd, SubgroupOr, SubgroupXor,
  SubgroupInclusiveAdd, SubgroupExclusiveAdd, SubgroupInclusiveXor, SubgroupExclusiveMax,
  SubgroupBroadcastFirst, SubgroupBroadcastZero, SubgroupShuffleXor, SubgroupAll, SubgroupAny,
  SubgroupAllEqual, SubgroupElect, SubgroupBallotCount, SubgroupBallotInclusiveCount,
  // atomics (statements on atom32/atom64; one kind of operation per counter)
  AtomicAdd, AtomicSub, AtomicMin, AtomicMax, AtomicAnd, AtomicOr, AtomicXor,
};

enum class ExprKind : std::uint8_t {
  Constant,        // bits: one 64-bit pattern per lane
  Variable,        // index: the kernel's (or callable's) variable
  ArrayElement,    // args[0]: u32 index, taken % array_size
  StructField,     // index: field number of FuzzStruct
  LoopIndex,       // index: the id of the enclosing for_ loop
  Input,           // index: 0 in32, 1 in64; args[0]: u32 index, taken % the buffer's size
  OutputRead,      // index: 0 out32, 1 out64; args[0]: u32 slot, taken % slots of this invocation
  Builtin,         // index: a Builtin
  Param,           // the kernel's push constant (u32)
  Unary,           // op, args[0]
  Binary,          // op, args[0..1]
  Select,          // args: cond (bool scalar or bool vector of the shape), a, b
  BitfieldExtract, // args: value, offset (u32), count (u32)
  BitfieldInsert,  // args: base, insert, offset (u32), count (u32)
  Cast,            // args[0] to `type`
  Bitcast,         // args[0] reinterpreted as `type`
  UnitFloat,       // bitcast<float>((args[0] & 0x007FFFFF) | 0x3F800000): a float in [1, 2)
  Extract,         // args[0] vector, index: lane
  Splat,           // args[0] scalar broadcast to `type`
  Call,            // index: callable; args: two u32
  Construct,       // args: parts, scalars or vectors of type's component, whose lanes add up to
                   // type's (Vec4(xy, z, w)); a single scalar part is a splat (Vec4(x))
};

enum class Builtin : std::uint8_t { GlobalId, LocalIndex, WorkgroupId, SubgroupInvocationId };

struct Expr {
  ExprKind kind = ExprKind::Constant;
  Type type;
  Op op = Op::Add;
  std::uint32_t index = 0;
  std::array<std::uint64_t, 4> bits{};
  std::vector<Expr> args;
};

enum class StmtKind : std::uint8_t {
  Assign,         // target: variable; exprs[0]
  AssignElement,  // exprs[0]: u32 index (% array_size), exprs[1]: u32 value
  AssignField,    // target: field; exprs[0]
  Store,          // target: an OutputBuffer; exprs[0]: u32 slot, exprs[1]: value of the buffer's type
  If,             // exprs[0]: bool; body, else_body
  For,            // id; exprs[0], exprs[1]: u32 begin, end (small by construction); body
  While,          // id; target: counter variable; bound; exprs[0]: bool; body
  Loop,           // id; target: counter variable; bound; body (leaves through break_)
  Break,
  Continue,
  Return,         // return_() in a kernel, return_(exprs[0]) in a callable
  Atomic,         // op; target: 0 atom32, 1 atom64; exprs[0]: u32 counter index, exprs[1]: value
  SharedRound,    // target: u32 variable; exprs[0]: u32 value; bound: lane offset. Writes shared,
                  // barrier, reads a neighbour's value, barrier.
  Subgroup,       // op; target: variable; exprs: operand (if any)
};

// Output buffers of the kernel; every invocation owns `slots_per_invocation` elements of each.
enum class OutputBuffer : std::uint8_t { Out32, Out64, OutFloatBits, OutApproxFloat };

struct Stmt {
  StmtKind kind = StmtKind::Assign;
  Op op = Op::Add;
  std::uint32_t target = 0;
  std::uint32_t id = 0;
  std::uint32_t bound = 0;
  std::vector<Expr> exprs;
  std::vector<Stmt> body;
  std::vector<Stmt> else_body;
};

// A callable `UInt fn(UInt a, UInt b)`: variables 0 and 1 start as a and b.
struct Function {
  std::vector<Type> variables;
  std::vector<Stmt> body;
  Expr result;
};

constexpr std::uint32_t array_size = 5;            // the kernel's local std::array<uint32_t, 5>
constexpr std::uint32_t slots_per_invocation = 16;  // per output buffer
constexpr std::uint32_t in32_size = 64, in64_size = 32;
constexpr std::uint32_t atomic_counters = 8;        // per atomic operation kind and width
// FuzzStruct's fields: {uint32_t a; int32_t b; uvec2 c;}
constexpr std::uint32_t struct_fields = 3;

struct Program {
  std::uint64_t seed = 0;
  std::uint32_t workgroup_size = 64;
  std::uint32_t workgroups = 2;
  std::uint32_t param = 0;
  std::vector<std::uint32_t> in32;
  std::vector<std::uint64_t> in64;
  std::vector<Type> variables;  // the kernel's Var<T>s, declared at the top with initial values
  std::vector<Expr> initial_values;
  std::vector<Function> functions;
  std::vector<Stmt> body;
  bool uses_shared = false;
};

std::string type_name(Type t);      // "UInt", "IVec3", ...
std::string host_type_name(Type t); // "std::uint32_t", "ivec3", ...
Type struct_field_type(std::uint32_t field);
std::uint32_t invocations(const Program& p);

}  // namespace sprig::fuzz
