#include "base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace pykern::files {

Result<RegularFile> RegularFile::open(const std::string& path, bool follow_links) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (follow_links ? 0 : O_NOFOLLOW));
  if (fd < 0) return Error::make(ErrorKind::io, fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return Error::make(ErrorKind::io, fmt::format("'{}' is not a regular file", path));
  }
  return RegularFile(fd, static_cast<uint64_t>(status.st_size));
}

bool RegularFile::status(struct ::stat* out) const { return ::fstat(fd_, out) == 0; }

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool RegularFile::read_at(void* into, size_t bytes, uint64_t offset) const {
  size_t done = 0;
  while (done < bytes) {
    ssize_t n = ::pread(fd_, static_cast<char*>(into) + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::optional<std::string> RegularFile::read_to_end() const {
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return bytes;
    bytes.append(buffer, static_cast<size_t>(n));
  }
}

Result<std::string> read_regular(const std::string& path, uint64_t max_bytes, const char* what, bool follow_links) {
  auto file = RegularFile::open(path, follow_links);
  if (!file.ok()) return file.error();
  auto too_large = [&] {
    return Error::make(ErrorKind::io, fmt::format("'{}' is larger than the {} MiB pykern reads as a {}", path,
                                                  max_bytes >> 20, what));
  };
  if (file->size() > max_bytes) return too_large();
  auto bytes = file->read_to_end();
  if (!bytes) return Error::make(ErrorKind::io, fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  if (bytes->size() > max_bytes) return too_large();  // it grew while being read
  return std::move(*bytes);
}

bool write_all(int fd, std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

namespace {

Error cannot_write(const std::string& path, int error) {
  return Error::make(ErrorKind::io, fmt::format("cannot write '{}': {}", path, std::strerror(error)));
}

// The scratch file's name beside `target`: ".NAME.XXXXXX", its NAME cut short where the whole
// would pass the folder's limit on a name (NAME_MAX), which `target` itself may come near.
std::string scratch_pattern(const std::filesystem::path& target) {
  std::filesystem::path folder = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  long limit = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  size_t name_max = limit > 0 ? static_cast<size_t>(limit) : 255;
  const std::string suffix = ".XXXXXX";
  std::string name = target.filename().string();
  name = name.substr(0, std::min(name.size(), name_max - suffix.size() - 1));
  return (folder / ("." + name + suffix)).string();
}

// Writes `text` to `path` whole or not at all: into a fresh file beside it, then renamed over
// it, so that a reader never sees half a file (nor the file of an earlier run that failed).
Status write_replacing(const std::string& path, std::string_view text) {
  std::string scratch = scratch_pattern(path);
  int fd = ::mkstemp(scratch.data());
  if (fd < 0) return cannot_write(path, errno);
  // mkstemp makes the file private; an output is read as any file the user writes is.
  mode_t mask = ::umask(0);
  ::umask(mask);
  bool written = ::fchmod(fd, 0666 & ~mask) == 0 && write_all(fd, text);
  bool closed = ::close(fd) == 0;
  if (!written || !closed || std::rename(scratch.c_str(), path.c_str()) != 0) {
    int error = errno;
    std::remove(scratch.c_str());
    return cannot_write(path, error);
  }
  return ok_status();
}

bool is_standard_output(const struct stat& file) {
  struct stat out {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == file.st_dev && out.st_ino == file.st_ino;
}

// Writes `text` into what `path` is, in place: a FIFO, a character device (/dev/null, a
// terminal), or whatever a link leads to (/dev/stdout; a regular file there is emptied first).
// A folder, a block device or a socket is refused, as the file opened turns out to be.
Status write_in_place(const std::string& path, std::string_view text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0) return cannot_write(path, errno);
  struct stat status {};
  Status result = ok_status();
  if (::fstat(fd, &status) != 0) {
    result = cannot_write(path, errno);
  } else if (!S_ISREG(status.st_mode) && !S_ISFIFO(status.st_mode) && !S_ISCHR(status.st_mode)) {
    result = Error::make(ErrorKind::io, fmt::format("cannot write '{}': it leads to a block device or a socket; write "
                                                    "to a file", path));
  } else if (S_ISREG(status.st_mode) && is_standard_output(status)) {
    // -o /dev/stdout with stdout a file: written through stdout, whose offset stderr may share
    // (2>&1), so that neither overwrites the other.
    if (!write_all(STDOUT_FILENO, text)) result = cannot_write(path, errno);
  } else if ((S_ISREG(status.st_mode) && ::ftruncate(fd, 0) != 0) || !write_all(fd, text)) {
    result = cannot_write(path, errno);
  }
  if (::close(fd) != 0 && result.ok()) result = cannot_write(path, errno);
  return result;
}

}  // namespace

Result<std::string> temp_root() {
  const char* chosen = std::getenv("TMPDIR");
  if (chosen == nullptr || *chosen == 0) return std::string("/tmp");
  struct stat status {};
  const char* why = ::stat(chosen, &status) != 0 ? std::strerror(errno) : !S_ISDIR(status.st_mode) ? "not a folder" : nullptr;
  if (why != nullptr) {
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("TMPDIR='{}' is not a folder pykern can make scratch folders in ({}): point it "
                                   "at one, or unset it to use /tmp", chosen, why));
  }
  return std::string(chosen);
}

// `-o PATH`: a missing path or a regular file is replaced whole (write_replacing); anything else
// is written in place or refused, never replaced: a rename over /dev/null (as root), a FIFO or a
// link to /dev/stdout would put a regular file where they were.
Status write_output(const std::string& path, std::string_view text) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) {
    if (errno != ENOENT) return cannot_write(path, errno);
    return write_replacing(path, text);
  }
  if (S_ISREG(status.st_mode)) return write_replacing(path, text);
  if (S_ISDIR(status.st_mode))
    return Error::make(ErrorKind::io, fmt::format("cannot write '{}': it is a folder; name a file", path));
  if (S_ISLNK(status.st_mode) || S_ISFIFO(status.st_mode) || S_ISCHR(status.st_mode)) return write_in_place(path, text);
  return Error::make(ErrorKind::io, fmt::format("cannot write '{}': it is a block device or a socket; write to a "
                                                "file", path));
}


}  // namespace pykern::files
