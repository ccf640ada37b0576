// The check behind Problem::StaleTransientRead: a transient buffer (a view a sequence
// placed in shared scratch memory) may read only the words it wrote itself. Runs on every
// buffer access of a launch that binds a transient, whatever analyses are on.
#pragma once

#include "memory_access.hpp"
#include "transient_owners.hpp"

namespace sprig::sim {

inline void check_transient(Context& c, const Instr& in, const MemoryOp& op, AccessKind kind, Mask lanes,
                            const Word* offsets, std::uint64_t bytes) {
  const BoundBuffer& b = c.launch->buffers[op.root];
  for_each_lane(lanes, c.width, [&](std::uint32_t l) {
    std::uint64_t first = b.first_word + offsets[l] / 4, end = b.first_word + (offsets[l] + bytes + 3) / 4;
    if (kind != AccessKind::Write) {
      if (std::string stale = b.owners->stale(b.owner_id, first, end); !stale.empty()) [[unlikely]]
        report_problem(c, Problem::StaleTransientRead, in.node, l, [&] { return stale; });
    }
    if (kind != AccessKind::Read) b.owners->wrote(b.owner_id, first, end);
  });
}

}  // namespace sprig::sim
