// The generator's state and its parts, shared by the files that implement them:
// generator.cpp (the program and its statements), generate_integers.cpp (integer and bool
// expressions), generate_floats.cpp (exact and approximate floats), generate_values.cpp
// (leaves and constants), generate_signed.cpp (signed operations on negative values) and
// generate_additions.cpp (version 3's floor division and vector constructors).
#pragma once

#include <cstdint>
#include <vector>

#include "generator.hpp"
#include "random.hpp"

namespace sprig::fuzz {

inline constexpr Type u32{Scalar::U32, 1}, i32{Scalar::I32, 1}, u64{Scalar::U64, 1}, i64{Scalar::I64, 1},
    boolean{Scalar::Bool, 1}, f32{Scalar::F32, 1};

inline Expr constant(Type t, std::uint64_t bits) {
  Expr e;
  e.kind = ExprKind::Constant;
  e.type = t;
  e.bits.fill(bits);
  return e;
}

inline Expr node(ExprKind kind, Type t, std::vector<Expr> args, Op op = Op::Add, std::uint32_t index = 0) {
  Expr e;
  e.kind = kind;
  e.type = t;
  e.op = op;
  e.index = index;
  e.args = std::move(args);
  return e;
}

// A float expression's values are multiples of 2^-fraction below 2^magnitude: exact in a
// float (24-bit significand) if magnitude + fraction <= 24, and then every operation on them
// is exact too, in any order, fused or not.
struct FloatBits {
  int magnitude = 0, fraction = 0;
  bool exact() const { return magnitude + fraction <= 24; }
};

FloatBits float_bits(const Expr& e);

// Where statements and expressions are being generated.
struct Context {
  bool in_callable = false;
  int depth = 0;                        // statement nesting
  std::vector<std::uint32_t> loop_ids;  // enclosing for_ loops
  int loops = 0;                        // enclosing loops of any kind
  std::uint32_t visible_variables = 0;  // variables an expression may read
};

class Generator {
 public:
  Generator(std::uint64_t seed, const GeneratorOptions& options) : rng_(seed), options_(options) {}
  Program run(std::uint64_t seed);

 private:
  // generator.cpp: the program and its statements
  Function function();
  const std::vector<Type>& variables(const Context& ctx) const;
  int variable_of(Type t, const Context& ctx, bool assign);
  Expr stored_value(Type t, const Context& ctx);
  std::vector<Stmt> block(Context ctx, int min, int max);
  std::uint32_t new_counter();
  Stmt jump_if(StmtKind kind, const Context& ctx);
  Stmt statement(const Context& ctx);
  bool subgroup(Stmt& s, const Context& ctx);
  void dump_variables();

  // generate_integers.cpp
  Expr expr(Type t, int depth, const Context& ctx);
  Type numeric_shape(std::uint8_t lanes);
  Expr bool_expr(Type t, int depth, const Context& ctx);
  Expr integer_expr(Type t, int depth, const Context& ctx);
  // generate_floats.cpp
  Expr float_leaf(Type t, const Context& ctx);
  Expr integer_float(Type t, const Context& ctx);
  Expr float_expr(Type t, int depth, const Context& ctx);
  Expr float_operation(Type t, int depth, const Context& ctx);
  Expr approx_expr(const Context& ctx);
  // generate_values.cpp
  std::uint64_t interesting(Type t);
  Expr random_constant(Type t);
  Expr u32_index(const Context& ctx);
  Expr leaf(Type t, const Context& ctx);
  Expr small_u32(const Context& ctx);
  // generate_signed.cpp
  Expr signed_input(Type t, const Context& ctx);
  Expr signed_operand(Type t, int depth, const Context& ctx);
  Expr signed_operation(Type t, int depth, const Context& ctx);
  Expr signed_field(Type t, int depth, const Context& ctx);
  Expr large_float(Type target, const Context& ctx);
  Expr unsigned_conversion(Type t, const Context& ctx);
  Stmt signed_store(const Context& ctx);
  // generate_additions.cpp: version 3, from a second random stream once version 2 is done
  void add_operations(std::uint64_t seed);
  void add_to_block(std::vector<Stmt>& block, const Context& ctx);
  void add_to_statement(Stmt& s, const Context& ctx);
  void add_to_root(Expr& e, const Context& ctx);
  void add(Expr& e, const Context& ctx);
  void to_floor_division(Expr& e, const Context& ctx);
  void wrap_in_integer_division(Expr& e, const Context& ctx);
  std::uint64_t edge_divisor(Type t);
  void wrap_in_float_division(Expr& e);
  Expr construct_around(Type t, Expr kept, const Context& ctx);
  void keep_if_exact(Expr& e, Expr original);

  Random rng_;
  GeneratorOptions options_;
  Program p_;
  std::vector<bool> assignable_;
  std::vector<Type>* function_variables_ = nullptr;
  std::uint32_t kernel_variables_ = 0;
  std::uint32_t next_loop_id_ = 0;
  bool returned_ = false;
  bool functions_ready_ = false;
  std::uint32_t signed_slot32_ = 0, signed_slot64_ = 0;  // signed_store's next slots
  const Expr* root_ = nullptr;  // the statement expression add() is in
};

}  // namespace sprig::fuzz
