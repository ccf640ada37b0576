#include "other_ranks.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

namespace sprig_plot {

void OtherRanks::end(bool stop) noexcept {
  if (ended_) return;
  ended_ = true;
  try {
    if (stop)
      for (int r = 1; r < world_.size(); ++r)
        if (!bye_[std::size_t(r)]) world_.send(r, Tag::Stop);
    while (std::find(bye_.begin(), bye_.end(), false) != bye_.end()) {
      Message message = world_.receive();
      if (message.tag == Tag::Take) world_.send(message.from, Tag::Done);
      if (message.tag == Tag::Bye) said_bye(message.from);
      if (message.tag == Tag::Failed) {
        std::fprintf(stderr, "sprig-plot: error: %s: %s\n", world_.name(message.from).c_str(),
                     std::string(message.bytes.begin(), message.bytes.end()).c_str());
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sprig-plot: error: ending the job: %s\n", e.what());
  }
}

}  // namespace sprig_plot
