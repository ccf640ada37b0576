// Rank 0's view of the other ranks while a job runs: which still send messages, and the end
// of the job, after which every rank has said Bye and none waits for an answer.
#pragma once

#include <vector>

#include "mpi_world.hpp"

namespace sprig_plot {

class OtherRanks {
 public:
  explicit OtherRanks(const MpiWorld& world) : world_(world), bye_(std::size_t(world.size()), false) { bye_[0] = true; }
  // Ends the job if end() was not called: a failure on rank 0 stops the others.
  ~OtherRanks() { end(/*stop=*/true); }
  OtherRanks(const OtherRanks&) = delete;
  OtherRanks& operator=(const OtherRanks&) = delete;

  void said_bye(int rank) { bye_[std::size_t(rank)] = true; }

  // With `stop`, tells every rank still working to finish what is in flight and stop; then
  // answers every request with Done, and drops finished work, until every rank has said Bye.
  // Another rank's failure meanwhile is printed, not thrown.
  void end(bool stop) noexcept;

 private:
  const MpiWorld& world_;
  std::vector<bool> bye_;
  bool ended_ = false;
};

}  // namespace sprig_plot
