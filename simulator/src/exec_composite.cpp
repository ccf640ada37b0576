// Composite values: construct, extract, insert and shuffle only move components between
// register rows, so they all run one plan of row copies; dynamic vector extraction picks a
// component per lane.
#include <algorithm>

#include "context.hpp"
#include "program_builder.hpp"

namespace sprig::sim {

namespace {

// Rows (one component, all lanes) copied in order; later copies overwrite earlier ones.
struct CopyPlan {
  struct Copy {
    std::uint32_t from, to, count;
  };
  std::vector<Copy> copies;
};

void copy_rows(Context& c, const Instr& in) {
  for (const CopyPlan::Copy& k : static_cast<const CopyPlan*>(in.data)->copies)
    std::copy_n(c.reg(k.from), std::size_t(k.count) * c.width, c.reg(k.to));
}

// An index outside the vector gives 0 (SPIR-V leaves it undefined).
void dynamic_extract(Context& c, const Instr& in) {
  Word* d = c.reg(in.dst);
  const Word* index = c.reg(in.src[1]);
  const bool signed_index = in.aux != 0;
  for (std::uint32_t l = 0; l < c.width; ++l) {
    std::uint64_t i =
        signed_index ? std::uint64_t(std::int64_t(get<std::int32_t>(index[l]))) : get<std::uint32_t>(index[l]);
    d[l] = i < in.imm ? c.reg(in.src[0] + std::uint32_t(i))[l] : 0;
  }
}

}  // namespace

void lower_composite(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  CopyPlan plan;
  switch (n.op) {
    case ir::Op::Construct: {
      std::uint32_t at = in.dst;
      for (ir::NodeRef part : n.operands) {
        std::uint32_t count = flat_count(part->type);
        plan.copies.push_back({b.slot(part), at, count});
        at += count;
      }
      if (at - in.dst != in.count) b.unsupported(n, "a construct whose parts do not fill " + ir::to_string(n.type));
      break;
    }
    case ir::Op::Extract: {
      ComponentRange r = component_range(n.operands.at(0)->type, std::uint32_t(n.a));
      plan.copies.push_back({in.src[0] + r.first, in.dst, r.count});
      break;
    }
    case ir::Op::Insert: {
      ComponentRange r = component_range(n.type, std::uint32_t(n.a));
      plan.copies.push_back({in.src[0], in.dst, in.count});
      plan.copies.push_back({in.src[1], in.dst + r.first, r.count});
      break;
    }
    case ir::Op::Shuffle: {
      const std::uint32_t first_count = n.operands.at(0)->type->components();
      const std::uint32_t second_count = n.operands.at(1)->type->components();
      for (std::size_t k = 0; k < n.imm.size(); ++k) {
        std::uint32_t i = std::uint32_t(n.imm[k]);
        if (i >= first_count + second_count) b.unsupported(n, "a shuffle index out of range");
        std::uint32_t from = i < first_count ? in.src[0] + i : in.src[1] + (i - first_count);
        plan.copies.push_back({from, in.dst + std::uint32_t(k), 1});
      }
      break;
    }
    case ir::Op::DynamicExtract:
      in.run = dynamic_extract;
      in.imm = n.operands.at(0)->type->components();
      in.aux = n.operands.at(1)->type->is_signed_int();
      return;
    default: b.unsupported(n, "this composite operation");
  }
  in.run = copy_rows;
  in.data = b.program().keep(std::move(plan));
}

}  // namespace sprig::sim
