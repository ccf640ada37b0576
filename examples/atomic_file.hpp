// A file that appears under its final name complete or not at all, even if the program is
// killed or the machine fails mid-write: the data goes to a temporary file of a unique name
// in the same directory (so the rename cannot cross file systems), is fsynced, and is then
// renamed over the final name, and the directory is fsynced so that the rename lasts.
// A killed program may leave its temporary file (FILE.tmp.XXXXXX) behind, never a partial FILE.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

class AtomicFile {
 public:
  explicit AtomicFile(std::string path) : path_(std::move(path)), temporary_(path_ + ".tmp.XXXXXX") {
    fd_ = ::mkstemp(temporary_.data());
    if (fd_ < 0) throw std::runtime_error("cannot create " + temporary_ + ": " + std::strerror(errno));
    // mkstemp makes the file private (0600); the final file gets the usual permissions.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);
    stream_.open(temporary_, std::ios::binary | std::ios::trunc);
    if (!stream_) {
      discard();
      throw std::runtime_error("cannot write " + temporary_ + ": " + std::strerror(errno));
    }
  }
  ~AtomicFile() {
    if (!committed_) discard();
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& temporary_path() const { return temporary_; }

  // Makes the file durable and visible under its final name.
  void commit() {
    stream_.close();
    if (!stream_) fail("writing");
    if (::fsync(fd_) != 0) fail("fsync of");  // the inode's data, whichever descriptor wrote it
    ::close(fd_);
    fd_ = -1;
    if (std::rename(temporary_.c_str(), path_.c_str()) != 0) fail("renaming");
    committed_ = true;
    sync_directory();
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw std::runtime_error(std::string(what) + " " + temporary_ + " failed: " + std::strerror(errno));
  }
  void discard() noexcept {
    stream_.close();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
  void sync_directory() const {
    std::filesystem::path directory = std::filesystem::path(path_).parent_path();
    int dir = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY);
    if (dir < 0) return;  // the rename happened; only its durability across a crash is weaker
    ::fsync(dir);
    ::close(dir);
  }

  std::string path_, temporary_;
  int fd_ = -1;
  std::ofstream stream_;
  bool committed_ = false;
};
