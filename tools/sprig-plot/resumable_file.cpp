#include "resumable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

#include "command_line.hpp"

namespace sprig_plot {

namespace {

constexpr const char* progress_magic = "sprig-plot partial plot";

struct Progress {
  std::string identity;
  std::uint32_t records = 0;
  std::uint64_t bytes = 0;
};

// The progress file's three lines: the magic, the plot's identity, "records N bytes B".
std::optional<Progress> read_progress(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  Progress progress;
  std::string magic, counts, word1, word2;
  std::getline(in, magic);
  std::getline(in, progress.identity);
  std::getline(in, counts);
  std::istringstream fields(counts);
  if (!in || magic != progress_magic || !(fields >> word1 >> progress.records >> word2 >> progress.bytes) ||
      word1 != "records" || word2 != "bytes") {
    throw UsageError(path + " is damaged; delete it and " + path.substr(0, path.size() - 9) + " to start again");
  }
  return progress;
}

}  // namespace

ResumableFile::ResumableFile(std::string path, std::string identity, bool resume)
    : path_(std::move(path)),
      partial_(path_ + ".partial"),
      progress_(partial_ + ".progress"),
      identity_(std::move(identity)) {
  std::optional<Progress> progress = read_progress(progress_);
  std::error_code ignored;
  if (progress && !std::filesystem::exists(partial_)) {
    // A commit that renamed FILE.partial and stopped before removing this: nothing to resume.
    std::filesystem::remove(progress_, ignored);
    progress.reset();
  }
  if (progress && progress->identity != identity_) {
    throw UsageError(partial_ + " holds " + std::to_string(progress->records) + " records of another plot (" +
                     progress->identity + "); this command plots " + identity_ + ". Delete " + partial_ + " and " +
                     progress_ + " to start again");
  }
  if (progress && !resume) {
    throw UsageError(partial_ + " holds " + std::to_string(progress->records) +
                     " records of an earlier run of this plot: continue it with --resume, or delete " + partial_ +
                     " and " + progress_ + " to start again");
  }
  if (resume && !progress) {
    std::fprintf(stderr, "sprig-plot: nothing to resume (no %s); plotting from the first record\n", progress_.c_str());
  }

  if (progress) {
    fd_ = ::open(partial_.c_str(), O_WRONLY);
    if (fd_ < 0) fail("opening", partial_);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail("reading the size of", partial_);
    if (std::uint64_t(st.st_size) < progress->bytes) {
      throw UsageError(partial_ + " has " + std::to_string(st.st_size) + " bytes, fewer than the " +
                       std::to_string(progress->bytes) + " its progress file vouches for: it was changed. Delete " +
                       partial_ + " and " + progress_ + " to start again");
    }
    // Bytes past the last checkpoint may be a record cut short: they are written again.
    if (::ftruncate(fd_, off_t(progress->bytes)) != 0) fail("cutting back", partial_);
    stream_.open(partial_, std::ios::binary | std::ios::in | std::ios::out);
    stream_.seekp(std::streamoff(progress->bytes));
    resumed_records_ = checkpointed_records_ = progress->records;
  } else {
    fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd_ < 0) fail("creating", partial_);
    stream_.open(partial_, std::ios::binary | std::ios::trunc);
  }
  if (!stream_) fail("opening", partial_);
}

ResumableFile::~ResumableFile() {
  if (committed_) return;
  stream_.close();
  if (fd_ >= 0) ::close(fd_);
  if (checkpointed_records_ > 0) return;  // kept for --resume
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
  std::filesystem::remove(progress_, ignored);
}

void ResumableFile::checkpoint(std::uint32_t records) {
  last_checkpoint_ = std::chrono::steady_clock::now();
  if (records == 0 || records == checkpointed_records_) return;
  stream_.flush();
  if (!stream_) fail("writing", partial_);
  const std::uint64_t bytes = std::uint64_t(stream_.tellp());
  if (::fdatasync(fd_) != 0) fail("fdatasync of", partial_);
  write_progress(records, bytes);
  checkpointed_records_ = records;
}

void ResumableFile::checkpoint_now_and_then(std::uint32_t records, std::chrono::milliseconds interval) {
  if (std::chrono::steady_clock::now() - last_checkpoint_ >= interval) checkpoint(records);
}

void ResumableFile::write_progress(std::uint32_t records, std::uint64_t bytes) {
  const std::string temporary = progress_ + ".tmp";
  const std::string text = std::string(progress_magic) + "\n" + identity_ + "\nrecords " + std::to_string(records) +
                           " bytes " + std::to_string(bytes) + "\n";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) fail("creating", temporary);
  const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size()) && ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  errno = error;
  if (!written) fail("writing", temporary);
  if (std::rename(temporary.c_str(), progress_.c_str()) != 0) fail("renaming", temporary);
  sync_directory();
}

void ResumableFile::commit() {
  stream_.close();
  if (!stream_) fail("writing", partial_);
  if (::fsync(fd_) != 0) fail("fsync of", partial_);  // the inode's data, whichever descriptor wrote it
  ::close(fd_);
  fd_ = -1;
  if (std::rename(partial_.c_str(), path_.c_str()) != 0) fail("renaming", partial_);
  committed_ = true;
  std::error_code ignored;
  std::filesystem::remove(progress_, ignored);
  sync_directory();
}

void ResumableFile::fail(const char* what, const std::string& file) {
  throw ResumableFileError(errno, std::generic_category(), std::string(what) + " " + file + " failed");
}

void ResumableFile::sync_directory() const {
  std::filesystem::path directory = std::filesystem::path(path_).parent_path();
  int dir = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir < 0) return;  // the rename happened; only its durability across a crash is weaker
  ::fsync(dir);
  ::close(dir);
}

}  // namespace sprig_plot
