// The IR -> SPIR-V emitter. One object emits one kernel; its member functions are defined
// in the emit_*.cpp files named after what they emit (emit_arithmetic.cpp holds OpIAdd,
// emit_control_flow.cpp OpLoopMerge, ...). This header is private to the compiler.
//
// Memory model: GLSL450 (not Vulkan). It is what glslang emits for ordinary compute
// shaders, needs no optional device feature (vulkanMemoryModel, ...DeviceScope), and gives
// device-scope atomics and barriers their usual meaning. Buffers that other workgroups
// observe while the kernel runs (Param::coherent) are decorated Coherent; atomics and
// barriers carry acquire/release semantics plus the storage-class bits they order.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <spirv/unified1/GLSL.std.450.h>

#include "sprig/compiler/compile.hpp"
#include "sprig/dsl/ir.hpp"
#include "sprig/dsl/layout.hpp"
#include "spirv_builder.hpp"

namespace sprig::compiler {

// How a type is laid out where it lives. Logical: values and Function/Workgroup memory (no
// explicit layout; bools are OpTypeBool). Std430/Std140: storage buffers and push constants
// / uniform buffers (Offset and ArrayStride decorations; bools are stored as uint32 0/1).
// A struct or array gets one SPIR-V type per layout it is used in.
enum class Layout : std::uint8_t { Logical, Std430, Std140 };

// Where a pointer node points: an OpVariable and the access-chain indices below it. The
// OpAccessChain itself is emitted where the pointer is used (see emit_memory.cpp).
struct Pointer {
  Id base = 0;
  spv::StorageClass storage = spv::StorageClass::Function;
  Layout layout = Layout::Logical;
  ir::TypeRef pointee = nullptr;
  std::vector<Id> indices;
};

class Emitter {
 public:
  Emitter(const ir::Kernel& kernel, const CompileOptions& options);
  Words run();

 private:
  // The innermost loop's branch targets, for Break and Continue.
  struct LoopTargets {
    Id merge = 0, continue_target = 0;
    bool merge_reached = false, continue_reached = false;
  };

  // State of the function being emitted.
  struct FunctionState {
    const ir::Function* ir = nullptr;
    bool is_entry = false;
    Id result_type = 0;
    std::vector<Id> values;         // by node id: the SPIR-V value of each emitted node
    std::vector<Pointer> pointers;  // by node id: pointer nodes
    std::vector<Id> params;         // OpFunctionParameter ids (callables)
    std::vector<Id> vars;           // OpVariable ids of Function::vars
    Words head;                     // OpFunction, parameters, first label, variables
    Words body;
    bool open = false;              // whether a block is open (no terminator yet)
    Id label = 0;                   // the open block
    std::vector<LoopTargets> loops;
    std::unordered_map<std::uint64_t, Id> chains;  // (node id, block label) -> OpAccessChain
    // Debug lines: the location the next instruction comes from, and the last OpLine.
    SourceLoc pending;
    Id line_file = 0;
    std::uint32_t line = 0, column = 0;
    // Source-level debug info: the function's DebugFunction (the scope of its blocks), the
    // DebugLine in effect, and whether the last instruction was a merge instruction (which
    // only the block's terminator may follow).
    Id debug_scope = 0;
    Id debug_line_source = 0;
    std::uint32_t debug_line = 0, debug_column = 0;
    bool after_merge = false;
  };

  // NonSemantic.Shader.DebugInfo.100 declarations made so far (emit_source_debug.cpp).
  struct SourceDebug {
    Id set = 0;                 // the imported instruction set
    Id compilation_unit = 0;
    Id unit_source = 0;         // the DebugSource of the kernel's file
    Id expression = 0;          // the empty DebugExpression of DebugDeclare / DebugValue
    std::map<std::string, Id> sources;        // DebugSource by file path
    std::map<std::string, Id> strings;        // OpString by text
    std::map<ir::TypeRef, Id> types;          // Debug type by IR type
    std::map<std::pair<Id, std::string>, Id> values;  // DebugLocalVariable of named values, by scope and name
  };

  // ---- instructions (emitter.cpp)
  Id op(spv::Op opcode, Id result_type, std::initializer_list<Id> operands, std::span<const Id> tail = {});
  void op_void(spv::Op opcode, std::initializer_list<Id> operands, std::span<const Id> tail = {});
  Id glsl(GLSLstd450 fn, Id result_type, std::initializer_list<Id> operands);
  void label(Id id);
  void terminate(spv::Op opcode, std::initializer_list<Id> operands = {});
  Id value(ir::NodeRef n) const;
  [[noreturn]] void fail(const std::string& message, const ir::Node* where = nullptr) const;

  // ---- types (emit_types.cpp)
  Id type(ir::TypeRef t, Layout layout = Layout::Logical);
  Id void_type();
  Id bool_type();
  Id uint_type(unsigned bits = 32);
  Id pointer_type(spv::StorageClass storage, Id pointee);
  Id function_type(Id result, std::span<const Id> params);
  Id struct_type(ir::TypeRef t, Layout layout);
  Id array_type(ir::TypeRef t, Layout layout);
  Id runtime_array_type(ir::TypeRef element);
  void name_struct(Id id, ir::TypeRef t);

  // ---- constants (emit_constants.cpp)
  Id constant(const ir::Node& n);
  // A constant of `shape` (scalar or vector) with every component holding `bits`.
  Id splat(ir::TypeRef shape, std::uint64_t bits);
  Id u32(std::uint32_t v) { return splat(ir::scalar_type(ir::ScalarKind::U32), v); }
  Id null(Id type_id);
  // Whether `n` is a Constant whose components all equal one value; that value.
  static bool uniform_constant(ir::NodeRef n, std::uint64_t& bits);

  // ---- interface variables (emit_interface.cpp)
  Id global_variable(Id pointee, spv::StorageClass storage, const std::string& name);
  Id buffer_variable(std::uint32_t param);
  Id uniform_variable(std::uint32_t param);
  Id push_constant_variable();
  Id builtin_value(const ir::Node& n);
  // The input variable of a built-in of type `t`, declared on first use.
  Id builtin_input(ir::Builtin which, ir::TypeRef t);
  Id shared_variable(std::uint32_t index);
  std::uint32_t push_member(std::uint32_t param) const;

  // ---- dispatch and blocks (emit_nodes.cpp). Every op's row in ops.def names the member
  // below that emits it.
  void emit_block(const ir::Block& block);
  void emit_node(const ir::Node& n);
  template <class Result>
  Id emitted(Result (Emitter::*emit)(const ir::Node&), const ir::Node& n);

  // ---- arithmetic, comparisons, logic (emit_arithmetic.cpp)
  Id emit_arithmetic(const ir::Node& n);
  Id emit_division(const ir::Node& n);
  Id emit_remainder(const ir::Node& n);
  // Integer a / b and a % b (scalars or vectors of type t) as semantics.hpp defines them for
  // every divisor; `divisor` is b's node, so that a constant divisor needs no guard.
  Id integer_quotient(ir::TypeRef t, Id a, Id b, ir::NodeRef divisor);
  Id integer_remainder(ir::TypeRef t, Id a, Id b, ir::NodeRef divisor);
  // floor_div and mod (emit_floor_division.cpp), built on the two above.
  Id emit_floor_division(const ir::Node& n);
  // The quotient or remainder of a / b for 64-bit integers (scalars or vectors), b (the
  // value of `divisor`) never 0 nor -1, without a division instruction: by a bit-serial
  // helper function, or by multiplication where b is a constant
  // (CompileOptions::bit_serial_64_bit_division; emit_division64.cpp).
  bool bit_serial_division(ir::TypeRef t) const;
  Id divide_bit_serially(Id a, Id b, ir::TypeRef t, bool remainder, ir::NodeRef divisor);
  Id unsigned_divide_64_function();
  Id divide_by_constant_64(Id n, std::uint64_t d);
  Id emit_comparison(const ir::Node& n);
  Id emit_logic(const ir::Node& n);
  Id emit_select(const ir::Node& n);

  // ---- bits: and/or/xor/not, shifts, rotates (emit_bits.cpp); popcount, clz, ctz
  // (emit_bit_counts.cpp); bit reverse, byte swap (emit_bit_reversal.cpp); bitfields
  // (emit_bitfields.cpp); mul-hi, add-carry (emit_wide_arithmetic.cpp)
  Id emit_bitwise(const ir::Node& n);
  Id emit_shift(const ir::Node& n);
  Id emit_rotate(const ir::Node& n);
  Id shift_count(ir::NodeRef count, ir::TypeRef value_type);
  // x >> count for signed x of type t (OpShiftRightArithmetic, or logical shifts where
  // CompileOptions::arithmetic_shift_by_logical_shifts).
  Id shift_right_arithmetic(Id x, Id count, ir::TypeRef t);
  Id emit_bit_count(const ir::Node& n);
  Id emit_bit_reverse(const ir::Node& n);
  Id emit_byte_swap(const ir::Node& n);
  Id emit_bitfield_extract(const ir::Node& n);
  Id emit_bitfield_insert(const ir::Node& n);
  // {offset, count} clamped so that offset + count <= width (semantics.hpp), as u32 ids.
  std::pair<Id, Id> clamped_field(ir::NodeRef offset, ir::NodeRef count, std::uint32_t width);
  Id emit_mul_hi(const ir::Node& n);
  Id emit_add_carry(const ir::Node& n);
  // 32-bit building blocks on unsigned scalars or vectors of `shape` (Vulkan allows
  // OpBitCount, OpBitReverse, OpBitField* and FindUMsb/FindILsb on 32-bit operands only).
  Id count_leading_zeros32(Id x, ir::TypeRef shape);
  Id count_trailing_zeros32(Id x, ir::TypeRef shape);
  Id byte_swap32(Id x, ir::TypeRef shape);
  // A 64-bit scalar as {low, high} 32-bit halves, and back (as uint64).
  std::pair<Id, Id> split64(Id x);
  Id join64(Id low, Id high);
  // The components of a scalar or vector value, and a value of type `t` made of them.
  std::vector<Id> components(Id x, ir::TypeRef t);
  Id compose(ir::TypeRef t, const std::vector<Id>& parts);
  // Reinterprets a value of integer type `t` as its unsigned counterpart and back.
  Id to_unsigned(Id x, ir::TypeRef t);
  Id from_unsigned(Id x, ir::TypeRef t);
  static ir::TypeRef unsigned_of(ir::TypeRef t);

  // ---- conversions (emit_conversions.cpp)
  Id emit_convert(const ir::Node& n);
  Id emit_bitcast(const ir::Node& n);
  Id float_to_int(Id x, ir::TypeRef from, ir::TypeRef to);
  Id sign_extend_by_shifts(Id x, ir::TypeRef from, ir::TypeRef to);
  Id int_to_float(Id x, ir::TypeRef from, Id float_type);

  // ---- math (emit_math.cpp)
  Id emit_math(const ir::Node& n);

  // ---- precise floats (kernel_.precise_floats; docs/language.md). NoContraction and the
  // helper functions (emit_precise_floats.cpp), correctly rounded division and square root
  // from 32-bit integer operations (emit_precise_division.cpp, emit_precise_sqrt.cpp), math
  // functions rebuilt from them in the simulator's order (emit_precise_math.cpp).
  // A float + - * or negation; decorated NoContraction in precise kernels.
  Id float_op(spv::Op opcode, Id result_type, std::initializer_list<Id> operands);
  // Component-wise a / b and sqrt(x) on f32 scalars or vectors of shape `t`, correctly rounded.
  Id precise_divide(Id a, Id b, ir::TypeRef t);
  Id precise_sqrt(Id x, ir::TypeRef t);
  // The math function rebuilt from exact operations, or 0 where the device's is kept.
  Id emit_precise_math(const ir::Node& n);
  // A function value_type^arity -> value_type named `name`, emitted once per module; `body`
  // gets the parameters and returns the result.
  Id helper_function(const std::string& name, ir::TypeRef value_type, unsigned arity,
                     const std::function<Id(const std::vector<Id>&)>& body);
  Id divide_function();
  Id sqrt_function();
  // A finite nonzero f32's bits as {significand in [2^23, 2^24), biased exponent} (u32 ids;
  // the exponent is below 1 for subnormals, as a two's complement u32).
  std::pair<Id, Id> normalized_significand(Id bits);
  // The 32-bit float-control execution modes the device allows (CompileOptions).
  void emit_float_controls();

  // ---- composites (emit_composites.cpp)
  Id emit_construct(const ir::Node& n);
  Id emit_extract(const ir::Node& n);
  Id emit_insert(const ir::Node& n);
  Id emit_dynamic_extract(const ir::Node& n);
  Id emit_shuffle(const ir::Node& n);

  // ---- memory (emit_memory.cpp, emit_layout_conversion.cpp)
  void emit_pointer(const ir::Node& n);
  Id pointer_id(ir::NodeRef n);
  const Pointer& pointer(ir::NodeRef n) const;
  Id load(const Pointer& p, Id pointer);
  void store(const Pointer& p, Id pointer, Id value);
  Id emit_param(const ir::Node& n);
  void emit_declare_var(const ir::Node& n);
  Id emit_load(const ir::Node& n);
  void emit_store(const ir::Node& n);
  Id emit_array_length(const ir::Node& n);
  Id to_logical(Id v, ir::TypeRef t, Layout from);
  Id to_memory(Id v, ir::TypeRef t, Layout to);

  // ---- control flow (emit_control_flow.cpp)
  void emit_if(const ir::Node& n);
  void emit_loop(const ir::Node& n);
  void emit_break(const ir::Node& n);
  void emit_continue(const ir::Node& n);
  void emit_return(const ir::Node& n);

  // ---- functions (emit_functions.cpp)
  void emit_function(const ir::Function& f, Id id, bool is_entry);
  Id emit_call(const ir::Node& n);

  // ---- workgroup operations (emit_atomics.cpp, emit_barriers.cpp, emit_subgroup.cpp)
  Id emit_atomic(const ir::Node& n);
  void emit_barrier(const ir::Node& n);
  Id emit_subgroup(const ir::Node& n);
  Id scope(ir::Scope s);
  Id memory_semantics(ir::MemoryOrder order, std::uint32_t storage_bits);

  // ---- device_print (emit_print.cpp): a record in the hidden print buffer
  void emit_print(const ir::Node& n);
  Id print_buffer_variable();
  // The 32-bit words of a print argument `x` of type `t` (print_text.hpp's layout).
  std::vector<Id> print_argument_words(Id x, ir::TypeRef t);

  // ---- debug info (emit_debug.cpp)
  void name(Id id, const std::string& text);
  void member_name(Id id, std::uint32_t member, const std::string& text);
  void source_line();
  Id file_string(const char* path);

  // ---- source-level debug info: NonSemantic.Shader.DebugInfo.100 (emit_source_debug.cpp,
  // emit_debug_variables.cpp, emit_debug_types.cpp). Every member does nothing when
  // CompileOptions::source_debug_info is off, so that the module is then the same as without it.
  void begin_source_debug();
  // A module-level debug instruction (OpExtInst of the set, result type void); its id.
  Id debug_global(std::uint32_t instruction, std::initializer_list<Id> operands, std::span<const Id> tail = {});
  // A debug instruction in the open block of the current function.
  void debug_local(std::uint32_t instruction, std::initializer_list<Id> operands);
  Id debug_string(const std::string& text);
  // The DebugSource of a file, with its text where the file can be read.
  Id debug_source(const char* path);
  // A DebugFunction for a function at `loc`; `flags` adds to FlagIsDefinition.
  Id debug_function(const std::string& function_name, const SourceLoc& loc, Id result_type, std::span<const Id> params,
                    std::uint32_t flags = 0);
  // The scope, definition and variables at the top of a function's body (its entry block).
  void open_debug_function(const ir::Function& f, Id function, bool is_entry);
  // The same for a helper_function: an artificial function at the kernel's location.
  void open_debug_helper(const std::string& helper_name, Id function, ir::TypeRef value_type, unsigned arity);
  // DebugScope at the start of a block.
  void debug_scope();
  // DebugLine for the pending location, from source_line().
  void debug_line(Id source, std::uint32_t line, std::uint32_t column);
  // DebugValue for a named node's value.
  void debug_value(const ir::Node& n, Id value);
  // DebugGlobalVariable for an interface variable of debug type `debug_type`.
  void debug_global_variable(Id variable, const std::string& variable_name, Id debug_type, const SourceLoc& loc);
  Id debug_local_variable(const std::string& variable_name, ir::TypeRef t, const SourceLoc& loc, Id scope,
                          std::uint32_t flags, std::uint32_t arg_number = 0);
  Id debug_type(ir::TypeRef t);
  // A DebugTypeComposite named `type_name` with one member per (name, type, byte offset).
  struct DebugMember {
    std::string name;
    Id type;
    std::uint32_t offset_bytes, size_bytes;
  };
  Id debug_composite(const std::string& type_name, std::uint32_t size_bytes, const std::vector<DebugMember>& members);
  Id debug_buffer_type(const ir::Param& p);
  Id debug_push_constant_type();

  // ---- the kernel (emit_kernel.cpp)
  void emit_header();
  void emit_entry_point();

  const ir::Kernel& kernel_;
  const bool debug_;
  const bool source_debug_;
  const CompileOptions options_;
  ModuleBuilder m_;
  FunctionState f_;

  Id main_ = 0;
  std::vector<Id> function_ids_;  // callables, by index
  std::vector<Id> interface_;     // global variables the entry point uses
  std::map<std::pair<ir::TypeRef, Layout>, Id> types_;
  std::map<ir::TypeRef, Id> runtime_arrays_;
  std::vector<Id> param_variables_;  // by parameter index (buffers, uniforms)
  Id push_constants_ = 0;
  std::map<ir::Builtin, Id> builtins_;
  std::vector<Id> shared_variables_;
  Id print_buffer_ = 0;
  std::map<std::string, Id> files_;
  std::map<std::string, Id> helpers_;  // helper_function ids by name
  SourceDebug sd_;
};

}  // namespace sprig::compiler
