#include "atomic_file.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), temporary_(path_ + ".tmp.XXXXXX") {
  fd_ = ::mkstemp(temporary_.data());
  if (fd_ < 0) throw AtomicFileError(errno, std::generic_category(), "cannot create " + path_ + ".tmp.XXXXXX");
  // mkstemp makes the file private (0600); the final file gets the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
  stream_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!stream_) {
    const int error = errno;
    discard();
    throw AtomicFileError(error, std::generic_category(), "cannot write " + temporary_);
  }
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::commit() {
  stream_.close();
  if (!stream_) fail("writing");
  if (::fsync(fd_) != 0) fail("fsync of");  // the inode's data, whichever descriptor wrote it
  ::close(fd_);
  fd_ = -1;
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) fail("renaming");
  committed_ = true;
  sync_directory();
}

void AtomicFile::fail(const char* what) {
  throw AtomicFileError(errno, std::generic_category(), std::string(what) + " " + temporary_ + " failed");
}

void AtomicFile::discard() noexcept {
  stream_.close();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
}

void AtomicFile::sync_directory() const {
  std::filesystem::path directory = std::filesystem::path(path_).parent_path();
  int dir = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir < 0) return;  // the rename happened; only its durability across a crash is weaker
  ::fsync(dir);
  ::close(dir);
}
