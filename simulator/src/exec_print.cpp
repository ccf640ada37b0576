// device_print: each active lane that the launch's filter admits appends a record (its
// workgroup, local id and arguments as 32-bit words, print_text.hpp's layout) to the
// launch's PrintCollector; the sequence turns them into lines when it completes
// (runtime/print_log.hpp), as the Vulkan runtime does with its print buffer. A print
// is not an operation of the kernel's: it counts as none in the idleness figures.
#include "launch_state.hpp"
#include "program_builder.hpp"
#include "sprig/dsl/print_text.hpp"

namespace sprig::sim {

namespace {

struct PrintArgument {
  std::uint32_t slot = 0;        // first register slot
  std::uint32_t components = 0;
  ir::ScalarKind kind = ir::ScalarKind::U32;
};

// aux = the format's index in Kernel::prints; data = the arguments.
void print(Context& c, const Instr& in) {
  PrintCollector* out = c.launch->prints;
  if (out == nullptr) return;
  const auto& arguments = *static_cast<const std::vector<PrintArgument>*>(in.data);
  const auto& size = c.program->kernel->workgroup_size;
  for_each_lane(c.active, [&](std::uint32_t lane) {
    PrintRecord record{in.aux, c.group->id, {c.local_id[0][lane], c.local_id[1][lane], c.local_id[2][lane]}, {}};
    if (!out->filter.admits(record.workgroup, record.local, size)) return;
    for (const PrintArgument& a : arguments) {
      for (std::uint32_t k = 0; k < a.components; ++k) {
        const Word w = c.reg(a.slot + k)[lane];
        if (ir::scalar_bits(a.kind) == 64) {
          record.words.push_back(std::uint32_t(w));
          record.words.push_back(std::uint32_t(w >> 32));
        } else {
          record.words.push_back(a.kind == ir::ScalarKind::Bool ? std::uint32_t(w & 1) : std::uint32_t(w));
        }
      }
    }
    out->records.push_back(std::move(record));
  });
}

}  // namespace

void lower_print(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  const ir::Kernel& k = b.kernel();
  if (n.a >= k.prints.size()) b.unsupported(n, "a print that names no format of the kernel");
  const ir::PrintFormat& format = k.prints[n.a];
  if (format.arguments.size() != n.operands.size()) b.unsupported(n, "a print whose arguments differ from its format");
  std::vector<PrintArgument> arguments;
  for (std::size_t i = 0; i < n.operands.size(); ++i) {
    ir::TypeRef t = n.operands[i]->type;
    if (t != format.arguments[i] || !(t->is_scalar() || t->is_vector()))
      b.unsupported(n, "a print argument whose type differs from its format's");
    arguments.push_back({b.slot(n.operands[i]), t->components(), t->scalar});
  }
  in.run = print;
  in.aux = std::uint32_t(n.a);
  in.weight = 0;
  in.data = b.program().keep(std::move(arguments));
}

}  // namespace sprig::sim
