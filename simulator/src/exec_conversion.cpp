// cast<T> (Convert) and bitcast<T> (Bitcast), component-wise. Value conversions follow
// semantics.hpp: float -> integer truncates and saturates (NaN -> 0); integer -> integer
// wraps or extends by the source's signedness, as C++ does; bool converts to 0/1 and from
// "not zero".
#include <cstring>

#include "context.hpp"
#include "program_builder.hpp"
#include "sprig/dsl/semantics.hpp"

namespace sprig::sim {

namespace {

template <class To, class From>
To convert_scalar(From v) {
  if constexpr (std::is_same_v<To, bool>) return v != From(0);
  else if constexpr (std::is_same_v<From, float> && !std::is_same_v<To, float>) return semantics::float_to_int<To>(v);
  else return To(v);
}

template <class To, class From>
void convert(Context& c, const Instr& in) {
  const std::size_t n = std::size_t(in.count) * c.width;
  Word* d = c.reg(in.dst);
  const Word* a = c.reg(in.src[0]);
  for (std::size_t i = 0; i < n; ++i) d[i] = put(convert_scalar<To>(get<From>(a[i])));
}

Handler convert_for(ir::ScalarKind to, ir::ScalarKind from) {
  return with_scalar_type(to, [from]<class To>() {
    return with_scalar_type(from, []<class From>() -> Handler { return &convert<To, From>; });
  });
}

// Bitcast tables: the bytes of the source components in order, re-split into the result's.
struct BitcastLayout {
  std::vector<std::uint32_t> from_bytes, to_bytes;  // per component: 4 or 8
};

void bitcast(Context& c, const Instr& in) {
  const auto& layout = *static_cast<const BitcastLayout*>(in.data);
  for (std::uint32_t l = 0; l < c.width; ++l) {
    std::byte bytes[32];
    std::size_t at = 0;
    for (std::size_t k = 0; k < layout.from_bytes.size(); ++k) {
      Word w = c.reg(in.src[0] + std::uint32_t(k))[l];
      std::memcpy(bytes + at, &w, layout.from_bytes[k]);  // little-endian: the low bytes
      at += layout.from_bytes[k];
    }
    at = 0;
    for (std::size_t k = 0; k < layout.to_bytes.size(); ++k) {
      Word w = 0;
      std::memcpy(&w, bytes + at, layout.to_bytes[k]);
      c.reg(in.dst + std::uint32_t(k))[l] = w;
      at += layout.to_bytes[k];
    }
  }
}

}  // namespace

void lower_conversion(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  ir::TypeRef from = n.operands.at(0)->type, to = n.type;
  bool shapes_ok = (from->is_scalar() || from->is_vector()) && (to->is_scalar() || to->is_vector());
  if (!shapes_ok) b.unsupported(n, "conversions of " + ir::to_string(from));
  if (n.op == ir::Op::Convert) {
    if (from->components() != to->components()) b.unsupported(n, "a conversion that changes the component count");
    in.run = convert_for(to->scalar, from->scalar);
    return;
  }
  BitcastLayout layout;
  std::uint32_t from_total = 0, to_total = 0;
  for (std::uint32_t k = 0; k < from->components(); ++k)
    from_total += layout.from_bytes.emplace_back(memory_bytes(from->scalar));
  for (std::uint32_t k = 0; k < to->components(); ++k)
    to_total += layout.to_bytes.emplace_back(memory_bytes(to->scalar));
  if (from_total != to_total || from->is_bool() || to->is_bool() || from_total > 32)
    b.unsupported(n, "a bitcast from " + ir::to_string(from) + " to " + ir::to_string(to));
  in.run = bitcast;
  in.data = b.program().keep(std::move(layout));
}

}  // namespace sprig::sim
