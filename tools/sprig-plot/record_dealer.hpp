// Plotting on several devices at once: records are dealt one at a time to whichever device
// asks next, so a faster device plots more of them, and are handed to the writer in record
// order. A device that fails gives its unfinished records back to the others; the plot fails
// only when every device has failed.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <sprig/stdlib/pos/plotter.hpp>

namespace sprig_plot {

class RecordDealer {
 public:
  struct Deal {
    enum Kind { Record, Later, Done } kind;
    std::uint32_t record = 0;
  };

  // Deals records first_record .. records - 1 (a resumed run starts past 0). `names` names
  // each device in messages; at most `lookahead` records past the one the writer waits for
  // are dealt, which bounds the finished records held in memory.
  RecordDealer(std::uint32_t records, std::vector<std::string> names, std::uint32_t lookahead,
               std::uint32_t first_record = 0);

  // For device d's worker: the next record to plot. With `wait`, blocks until there is one
  // or every record is plotted (Done); without, answers Later when none may be dealt now.
  Deal take(std::size_t d, bool wait);
  // Device d finished `record`.
  void deliver(std::size_t d, std::uint32_t record, sprig::pos::PlotResult result);
  // Device d failed: its undelivered records go back to the other devices.
  void fail(std::size_t d, const std::string& error);
  // Deals nothing more: the writer gave up (a failed write) or the job ends (a failed
  // rank), so the workers end, and a writer still waiting in await is told so (it throws).
  void stop();

  // For the writer, in record order: waits for `record` and hands it over. Throws
  // std::runtime_error, naming every device's error, when no device is left to plot it.
  sprig::pos::PlotResult await(std::uint32_t record);

  // Records each device has delivered so far.
  std::vector<std::uint32_t> delivered() const;

 private:
  bool record_available() const;
  std::optional<sprig::pos::PlotResult> take_finished(std::uint32_t record);

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  const std::uint32_t records_, lookahead_;
  const std::vector<std::string> names_;
  std::uint32_t next_ = 0;     // the first record never dealt
  std::uint32_t awaited_ = 0;  // the record the writer waits for
  std::deque<std::uint32_t> returned_;
  std::vector<std::set<std::uint32_t>> taken_;  // per device: dealt, not yet delivered
  std::map<std::uint32_t, sprig::pos::PlotResult> finished_;
  std::vector<std::uint32_t> delivered_;
  std::vector<std::string> errors_;  // per device; empty while it works
  std::size_t failed_ = 0;
  bool stopped_ = false;
};

}  // namespace sprig_plot
