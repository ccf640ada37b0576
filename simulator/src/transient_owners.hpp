// Which transient buffer last wrote each 4-byte word of a sequence's scratch memory. A
// transient may read only words it wrote itself: anything else is stale bytes of another
// transient placed at the same memory (a wrong memory plan) or bytes nothing wrote.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sprig::sim {

struct TransientOwners {
  std::vector<std::uint32_t> last_writer;  // per word of the scratch memory; 0: never written
  std::vector<std::string> names;          // names[id - 1]: the transient with that id

  // Words [first, end) as seen by transient `id`: empty if it wrote them all, else why not.
  std::string stale(std::uint32_t id, std::uint64_t first, std::uint64_t end) const {
    for (std::uint64_t w = first; w < end; ++w) {
      std::uint32_t writer = last_writer[w];
      if (writer == id) continue;
      std::string text = "the transient '" + names[id - 1] + "' reads bytes it has not written";
      if (writer == 0) return text + " (nothing has written them)";
      return text + "; the transient '" + names[writer - 1] +
             "' wrote them last (the memory plan placed both at the same bytes while both were alive)";
    }
    return {};
  }
  void wrote(std::uint32_t id, std::uint64_t first, std::uint64_t end) {
    for (std::uint64_t w = first; w < end; ++w) last_writer[w] = id;
  }
};

}  // namespace sprig::sim
