// The output file of `sprig-plot plot`: it appears under its final name complete or not at
// all, and a run that is stopped at any moment (killed, a failed device, a full disk, a
// machine that goes down) can be continued by the same command with --resume.
//
// The data goes to FILE.partial, appended in order. checkpoint() makes what is written so
// far durable (fdatasync) and then replaces FILE.partial.progress, which names the plot (the
// command's `identity`) and how many records and bytes of FILE.partial are complete; that
// file is written to a temporary name, fsynced and renamed, so it is always whole. A resumed
// run cuts FILE.partial back to the bytes the progress file vouches for and appends from
// there. commit() fsyncs FILE.partial, renames it to FILE and removes the progress file.
//
// A run that ends without committing removes FILE.partial unless a checkpoint holds records
// (then kept() is true and both files stay for --resume). Failures are ResumableFileErrors
// naming the call, the file and the system's reason; a progress file of another plot, or a
// --resume with nothing to resume, is a UsageError.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <system_error>

namespace sprig_plot {

struct ResumableFileError : std::system_error {
  using std::system_error::system_error;
};

class ResumableFile {
 public:
  // Starts FILE.partial afresh, or with `resume` continues the one an earlier run of the same
  // `identity` left. Without `resume`, a progress file with records in it is a UsageError
  // (the earlier run's work is not thrown away silently).
  ResumableFile(std::string path, std::string identity, bool resume);
  ~ResumableFile();
  ResumableFile(const ResumableFile&) = delete;
  ResumableFile& operator=(const ResumableFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& partial_path() const { return partial_; }
  // Records complete in FILE.partial when it was opened (0 unless resumed).
  std::uint32_t resumed_records() const { return resumed_records_; }

  // After `records` records were written to stream(): makes them durable and records them.
  void checkpoint(std::uint32_t records);
  // checkpoint(), at most once per `interval`: durability costs a disk flush.
  void checkpoint_now_and_then(std::uint32_t records, std::chrono::milliseconds interval);
  // Makes the file durable and visible under its final name.
  void commit();
  // After a run that did not commit: whether FILE.partial and its progress file were kept.
  bool kept() const { return checkpointed_records_ > 0; }
  std::uint32_t kept_records() const { return checkpointed_records_; }

 private:
  [[noreturn]] void fail(const char* what, const std::string& file);
  void write_progress(std::uint32_t records, std::uint64_t bytes);
  void sync_directory() const;

  std::string path_, partial_, progress_, identity_;
  int fd_ = -1;
  std::ofstream stream_;
  std::uint32_t resumed_records_ = 0, checkpointed_records_ = 0;
  std::chrono::steady_clock::time_point last_checkpoint_ = std::chrono::steady_clock::now();
  bool committed_ = false;
};

}  // namespace sprig_plot
