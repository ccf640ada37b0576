// A file that appears under its final name complete or not at all, even if the program is
// killed or the machine fails mid-write: the data goes to a temporary file of a unique name
// in the same directory (so the rename cannot cross file systems), is fsynced, and is then
// renamed over the final name, and the directory is fsynced so that the rename lasts.
// A killed program may leave its temporary file (FILE.tmp.XXXXXX) behind, never a partial FILE.
//
// This is the program's file-system policy, not part of the plot format: the standard
// library's PlotFileWriter writes to any std::ostream, and sprig-plot hands it stream().
// Failures are AtomicFileErrors naming the call, the file and the system's reason.
#pragma once

#include <fstream>
#include <string>
#include <system_error>

struct AtomicFileError : std::system_error {
  using std::system_error::system_error;
};

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& temporary_path() const { return temporary_; }

  // Makes the file durable and visible under its final name.
  void commit();

 private:
  [[noreturn]] void fail(const char* what);
  void discard() noexcept;
  void sync_directory() const;

  std::string path_, temporary_;
  int fd_ = -1;
  std::ofstream stream_;
  bool committed_ = false;
};
