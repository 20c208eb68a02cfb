// Reading and writing whole files whose paths may be hostile. Only regular files are read (a
// FIFO would block, a device such as /dev/zero never end), links are followed only when the
// caller allows it, and every read and write goes on until all its bytes are through.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <sys/stat.h>

#include "pykern/result.h"

namespace pykern::files {

// An open regular file, closed when it goes.
class RegularFile {
 public:
  // Opens `path` for reading; an error names the path and why (missing, not a regular file, a
  // link where follow_links is false).
  static Result<RegularFile> open(const std::string& path, bool follow_links = true);
  RegularFile(RegularFile&& other) noexcept : fd_(other.fd_), size_(other.size_) { other.fd_ = -1; }
  RegularFile& operator=(RegularFile&&) = delete;
  ~RegularFile();

  uint64_t size() const { return size_; }  // when opened
  // Its owner and mode as it is now (fstat of the open file: what is checked is what is read).
  bool status(struct ::stat* out) const;
  // Reads exactly `bytes` at `offset`; false if the file ends first or a read fails.
  bool read_at(void* into, size_t bytes, uint64_t offset) const;
  // The rest of the file from where reading stands, to its end.
  std::optional<std::string> read_to_end() const;

 private:
  RegularFile(int fd, uint64_t size) : fd_(fd), size_(size) {}
  int fd_;
  uint64_t size_;
};

// A whole regular file; larger than max_bytes is an error that says "pykern reads as a <what>".
Result<std::string> read_regular(const std::string& path, uint64_t max_bytes = UINT64_MAX, const char* what = "file",
                                 bool follow_links = true);

// Writes all of `bytes` to `fd`, through short writes and interrupted calls.
bool write_all(int fd, std::string_view bytes);

// Where scratch folders go: $TMPDIR when it is set (an error when that is not a folder),
// else /tmp. An empty TMPDIR counts as unset, as POSIX's tmpfile() and Python's tempfile do.
Result<std::string> temp_root();

// Writes an output file the user named (-o PATH). A missing path or a regular file is replaced
// whole or not at all (a fresh file beside it, its name short enough for NAME_MAX, renamed over
// it); a FIFO, a character device (/dev/null) or a link (/dev/stdout) is written in place, never
// replaced by a rename; a folder, block device or socket is refused. Every write and the close
// are checked: a full disk is an error naming the path and why.
Status write_output(const std::string& path, std::string_view bytes);

}  // namespace pykern::files
