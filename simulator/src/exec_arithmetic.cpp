// Element-wise arithmetic, bit operations, comparisons, logic and select on scalars and
// vectors. Integer meanings come from the one semantics table (semantics.hpp); floats use
// C++ float arithmetic. Pure operations run over every lane of the subgroup, active or not:
// their inputs are always defined words and the loops vectorise; inactive lanes' results
// are never read.
#include <cmath>
#include <type_traits>

#include "context.hpp"
#include "launch_state.hpp"
#include "program_builder.hpp"
#include "sprig/dsl/semantics.hpp"

namespace sprig::sim {

namespace {

namespace sem = sprig::semantics;

template <class T>
constexpr bool is_int = sem::Integer<T>;
template <class T>
constexpr bool is_number = is_int<T> || std::is_same_v<T, float>;

// ---- the operations, one scalar at a time
struct Add {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int<T>) return sem::add(a, b); else return a + b;
  }
};
struct Sub {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int<T>) return sem::sub(a, b); else return a - b;
  }
};
struct Mul {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int<T>) return sem::mul(a, b); else return a * b;
  }
};
struct Div {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int<T>) return sem::div(a, b); else return a / b;
  }
};
struct Rem {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int<T>) return sem::rem(a, b); else return std::fmod(a, b);
  }
};
// Rounded toward minus infinity; the floats' meanings are in the table too.
struct FloorDiv {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a, T b) { return sem::floor_div(a, b); }
};
struct Mod {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a, T b) { return sem::mod(a, b); }
};
struct Neg {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static T apply(T a) {
    if constexpr (is_int<T>) return sem::neg(a); else return -a;
  }
};
struct BitAnd {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return T(a & b); }
};
struct BitOr {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return T(a | b); }
};
struct BitXor {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return T(a ^ b); }
};
struct BitNot {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a) { return T(~a); }
};

// Shift and rotate counts have the value's type; the table takes the count's bit pattern.
template <class T>
std::uint64_t count_bits(T b) { return std::uint64_t(sem::unsigned_of<T>(b)); }

struct Shl {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return sem::shl(a, count_bits(b)); }
};
struct Shr {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return sem::shr(a, count_bits(b)); }
};
struct RotateLeft {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return sem::rotl(a, count_bits(b)); }
};
struct RotateRight {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return sem::rotr(a, count_bits(b)); }
};
struct MulHi {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return sem::mul_hi(a, b); }
};
struct AddCarry {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a, T b) { return sem::add_carry(a, b); }
};
struct PopCount {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a) { return sem::popcount(a); }
};
struct CountLeadingZeros {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a) { return sem::count_leading_zeros(a); }
};
struct CountTrailingZeros {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a) { return sem::count_trailing_zeros(a); }
};
struct BitReverse {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a) { return sem::bit_reverse(a); }
};
struct ByteSwap {
  template <class T> static constexpr bool accepts = is_int<T>;
  template <class T> static T apply(T a) { return sem::byte_swap(a); }
};

// Comparisons: C++ semantics, so float comparisons with NaN are false except !=.
struct Eq {
  template <class T> static constexpr bool accepts = true;
  template <class T> static bool apply(T a, T b) { return a == b; }
};
struct Ne {
  template <class T> static constexpr bool accepts = true;
  template <class T> static bool apply(T a, T b) { return a != b; }
};
struct Lt {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static bool apply(T a, T b) { return a < b; }
};
struct Le {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static bool apply(T a, T b) { return a <= b; }
};
struct Gt {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static bool apply(T a, T b) { return a > b; }
};
struct Ge {
  template <class T> static constexpr bool accepts = is_number<T>;
  template <class T> static bool apply(T a, T b) { return a >= b; }
};
struct LogicalAnd {
  template <class T> static constexpr bool accepts = std::is_same_v<T, bool>;
  template <class T> static bool apply(T a, T b) { return a && b; }
};
struct LogicalOr {
  template <class T> static constexpr bool accepts = std::is_same_v<T, bool>;
  template <class T> static bool apply(T a, T b) { return a || b; }
};
struct LogicalNot {
  template <class T> static constexpr bool accepts = std::is_same_v<T, bool>;
  template <class T> static bool apply(T a) { return !a; }
};

// ---- the handlers: count components of every lane
template <class T, class F>
void unary(Context& c, const Instr& in) {
  const std::size_t n = std::size_t(in.count) * c.width;
  Word* d = c.reg(in.dst);
  const Word* a = c.reg(in.src[0]);
  for (std::size_t i = 0; i < n; ++i) d[i] = put(F::template apply<T>(get<T>(a[i])));
}

template <class T, class F>
void binary(Context& c, const Instr& in) {
  const std::size_t n = std::size_t(in.count) * c.width;
  Word* d = c.reg(in.dst);
  const Word* a = c.reg(in.src[0]);
  const Word* b = c.reg(in.src[1]);
  for (std::size_t i = 0; i < n; ++i) d[i] = put(F::template apply<T>(get<T>(a[i]), get<T>(b[i])));
}

// Integer /, %, floor_div and mod by zero: defined by the semantics table (as on RISC-V)
// and computed so on every backend, but seldom meant, so each site is reported — as a
// warning, which never counts toward Options::error_limit or stops a launch.
[[gnu::cold]] void report_division_by_zero(Context& c, const Instr& in, std::uint32_t lane) {
  report_problem(
      c, Problem::DivisionByZero, in.node, lane,
      [&] {
        switch (in.node->op) {
          case ir::Op::FloorDiv: return std::string("integer floor division by zero (defined: floor_div(x, 0) is all ones)");
          case ir::Op::Mod: return std::string("integer mod by zero (defined: mod(x, 0) is x)");
          default:
            return std::string("integer ") + (in.node->op == ir::Op::Div ? "division" : "remainder") +
                   " by zero (defined: x / 0 is all ones, x % 0 is x)";
        }
      },
      /*is_error=*/false);
}

template <class T, class F>
void integer_division(Context& c, const Instr& in) {
  binary<T, F>(c, in);
  for (std::uint32_t k = 0; k < in.count; ++k) {
    const Word* divisor = c.reg(in.src[1]) + std::size_t(k) * c.width;
    for_each_lane(c.active, c.width, [&](std::uint32_t l) {
      if (get<T>(divisor[l]) == T(0)) [[unlikely]]
        report_division_by_zero(c, in, l);
    });
  }
}

template <class F>
Handler division_for(ir::ScalarKind k) {
  return with_scalar_type(k, []<class T>() -> Handler {
    if constexpr (is_int<T>) return &integer_division<T, F>;
    else if constexpr (F::template accepts<T>) return &binary<T, F>;
    else return nullptr;
  });
}

// Select copies words; the condition is one bool for all components (aux = 1) or one per
// component.
void select_words(Context& c, const Instr& in) {
  const std::uint32_t w = c.width;
  for (std::uint32_t k = 0; k < in.count; ++k) {
    Word* d = c.reg(in.dst + k);
    const Word* cond = c.reg(in.src[0] + (in.aux ? 0 : k));
    const Word* a = c.reg(in.src[1] + k);
    const Word* b = c.reg(in.src[2] + k);
    for (std::uint32_t l = 0; l < w; ++l) d[l] = (cond[l] & 1) ? a[l] : b[l];
  }
}

// Bitfield offsets and counts are scalars, also for vector values (aux bit i set: operand
// 1 + i has one component per value component).
template <class T>
void bitfield_extract(Context& c, const Instr& in) {
  const std::uint32_t w = c.width;
  for (std::uint32_t k = 0; k < in.count; ++k) {
    Word* d = c.reg(in.dst + k);
    const Word* v = c.reg(in.src[0] + k);
    const Word* off = c.reg(in.src[1] + ((in.aux & 1) ? k : 0));
    const Word* cnt = c.reg(in.src[2] + ((in.aux & 2) ? k : 0));
    for (std::uint32_t l = 0; l < w; ++l)
      d[l] = put(sem::bitfield_extract(get<T>(v[l]), get<std::uint32_t>(off[l]), get<std::uint32_t>(cnt[l])));
  }
}

template <class T>
void bitfield_insert(Context& c, const Instr& in) {
  const std::uint32_t w = c.width;
  for (std::uint32_t k = 0; k < in.count; ++k) {
    Word* d = c.reg(in.dst + k);
    const Word* base = c.reg(in.src[0] + k);
    const Word* ins = c.reg(in.src[1] + k);
    const Word* off = c.reg(in.src[2] + ((in.aux & 1) ? k : 0));
    const Word* cnt = c.reg(in.src[3] + ((in.aux & 2) ? k : 0));
    for (std::uint32_t l = 0; l < w; ++l)
      d[l] = put(sem::bitfield_insert(get<T>(base[l]), get<T>(ins[l]), get<std::uint32_t>(off[l]),
                                      get<std::uint32_t>(cnt[l])));
  }
}

template <class F>
Handler unary_for(ir::ScalarKind k) {
  return with_scalar_type(k, []<class T>() -> Handler {
    if constexpr (F::template accepts<T>) return &unary<T, F>;
    else return nullptr;
  });
}

template <class F>
Handler binary_for(ir::ScalarKind k) {
  return with_scalar_type(k, []<class T>() -> Handler {
    if constexpr (F::template accepts<T>) return &binary<T, F>;
    else return nullptr;
  });
}

Handler bitfield_for(ir::Op op, ir::ScalarKind k) {
  return with_scalar_type(k, [op]<class T>() -> Handler {
    if constexpr (is_int<T>) return op == ir::Op::BitfieldExtract ? &bitfield_extract<T> : &bitfield_insert<T>;
    else return nullptr;
  });
}

}  // namespace

void lower_arithmetic(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  using O = ir::Op;
  if (n.operands.empty()) b.unsupported(n, "an operation without operands");
  const ir::TypeRef operand = n.operands[0]->type;
  const ir::ScalarKind k = operand->scalar;
  if (!operand->is_scalar() && !operand->is_vector() && n.op != O::Select)
    b.unsupported(n, "arithmetic on " + ir::to_string(operand));
  switch (n.op) {
    case O::Add: in.run = binary_for<Add>(k); break;
    case O::Sub: in.run = binary_for<Sub>(k); break;
    case O::Mul: in.run = binary_for<Mul>(k); break;
    case O::Div: in.run = division_for<Div>(k); break;
    case O::Rem: in.run = division_for<Rem>(k); break;
    case O::FloorDiv: in.run = division_for<FloorDiv>(k); break;
    case O::Mod: in.run = division_for<Mod>(k); break;
    case O::Neg: in.run = unary_for<Neg>(k); break;
    case O::BitAnd: in.run = binary_for<BitAnd>(k); break;
    case O::BitOr: in.run = binary_for<BitOr>(k); break;
    case O::BitXor: in.run = binary_for<BitXor>(k); break;
    case O::BitNot: in.run = unary_for<BitNot>(k); break;
    case O::Shl: in.run = binary_for<Shl>(k); break;
    case O::Shr: in.run = binary_for<Shr>(k); break;
    case O::RotateLeft: in.run = binary_for<RotateLeft>(k); break;
    case O::RotateRight: in.run = binary_for<RotateRight>(k); break;
    case O::MulHi: in.run = binary_for<MulHi>(k); break;
    case O::AddCarry: in.run = binary_for<AddCarry>(k); break;
    case O::PopCount: in.run = unary_for<PopCount>(k); break;
    case O::CountLeadingZeros: in.run = unary_for<CountLeadingZeros>(k); break;
    case O::CountTrailingZeros: in.run = unary_for<CountTrailingZeros>(k); break;
    case O::BitReverse: in.run = unary_for<BitReverse>(k); break;
    case O::ByteSwap: in.run = unary_for<ByteSwap>(k); break;
    case O::Eq: in.run = binary_for<Eq>(k); break;
    case O::Ne: in.run = binary_for<Ne>(k); break;
    case O::Lt: in.run = binary_for<Lt>(k); break;
    case O::Le: in.run = binary_for<Le>(k); break;
    case O::Gt: in.run = binary_for<Gt>(k); break;
    case O::Ge: in.run = binary_for<Ge>(k); break;
    case O::LogicalAnd: in.run = binary_for<LogicalAnd>(k); break;
    case O::LogicalOr: in.run = binary_for<LogicalOr>(k); break;
    case O::LogicalNot: in.run = unary_for<LogicalNot>(k); break;
    case O::Select:
      in.run = select_words;
      in.aux = n.operands[0]->type->components() == 1 && in.count > 1;
      break;
    case O::BitfieldExtract:
    case O::BitfieldInsert: {
      in.run = bitfield_for(n.op, k);
      std::size_t first = n.op == O::BitfieldExtract ? 1 : 2;
      for (std::size_t i = 0; i < 2 && first + i < n.operands.size(); ++i)
        if (n.operands[first + i]->type->components() > 1) in.aux |= 1u << i;
      break;
    }
    default: b.unsupported(n, "this operation");
  }
  if (!in.run) b.unsupported(n, std::string(ir::op_name(n.op)) + " on " + ir::to_string(operand));
}

}  // namespace sprig::sim
