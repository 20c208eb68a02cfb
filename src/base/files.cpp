#include "base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

// Writes into what `path` is now (a device, a FIFO, a file behind a link), without creating it.
Status write_in_place(const std::string& path, std::string_view bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return cannot_write(path, errno);
  struct stat status {};
  // Truncate only a regular file: O_TRUNC on a device or FIFO is meaningless or refused.
  if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && ::ftruncate(fd, 0) != 0) {
    int error = errno;
    ::close(fd);
    return cannot_write(path, error);
  }
  bool written = write_all(fd, bytes);
  int error = errno;
  if (::close(fd) != 0 && written) written = false, error = errno;
  if (!written) return cannot_write(path, error);
  return ok_status();
}

// The folder a new file beside `path` goes into.
std::string folder_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Writes a fresh file beside `path` and renames it over `path`. The temporary name is short
// (not `path` plus a suffix), so a name near NAME_MAX does not fail for want of room.
Status replace_whole(const std::string& path, std::string_view bytes, mode_t mode) {
  std::string temporary = folder_of(path) + "/.pykern-out-XXXXXX";
  int fd = ::mkstemp(temporary.data());
  if (fd < 0) return cannot_write(path, errno);
  bool written = write_all(fd, bytes) && ::fchmod(fd, mode) == 0;
  int error = errno;
  if (::close(fd) != 0 && written) written = false, error = errno;
  if (written && std::rename(temporary.c_str(), path.c_str()) != 0) written = false, error = errno;
  if (!written) {
    ::unlink(temporary.c_str());
    return cannot_write(path, error);
  }
  return ok_status();
}

mode_t default_file_mode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
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

Status write_output(const std::string& path, std::string_view bytes) {
  if (path.empty()) return Error::make(ErrorKind::invalid_argument, "the output file needs a name");
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT) return cannot_write(path, errno);
    return replace_whole(path, bytes, default_file_mode());
  }
  if (S_ISREG(link.st_mode)) return replace_whole(path, bytes, link.st_mode & 07777);
  if (S_ISDIR(link.st_mode)) return Error::make(ErrorKind::io, fmt::format("cannot write '{}': it is a folder", path));
  return write_in_place(path, bytes);  // a device, a FIFO, a socket or a link: keep what it is
}

}  // namespace pykern::files
