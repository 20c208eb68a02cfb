#include "base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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

}  // namespace pykern::files
