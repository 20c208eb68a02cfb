// pykern bundle FILE --sig NAME=SIG... [--kernel NAME]... [--arch sm_80,sm_90|none] [--no-ptx] [--no-simulator]
//                    [--namespace NS] [--cache-dir DIR] -o HEADER
#include <fcntl.h>
#include <unistd.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "base/files.h"
#include "bundle/bundle.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/progress.h"

namespace pykern::cli {

namespace {

struct BundleArgs {
  std::string file;
  std::vector<std::string> signatures;
  std::vector<std::string> kernels;
  std::vector<std::string> archs;
  bool no_ptx = false;
  bool no_simulator = false;
  std::string name_space;
  std::string output;
  bool no_cache = false;
  std::string cache_dir;
  bool debug = false;
};

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
// it, so that a build never sees half a header (nor a header of an earlier run that failed).
Status write_replacing(const std::string& path, const std::string& text) {
  std::string scratch = scratch_pattern(path);
  int fd = ::mkstemp(scratch.data());
  if (fd < 0) return cannot_write(path, errno);
  // mkstemp makes the file private; a header is read as any file the user writes is.
  mode_t mask = ::umask(0);
  ::umask(mask);
  bool written = ::fchmod(fd, 0666 & ~mask) == 0 && files::write_all(fd, text);
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
Status write_in_place(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0) return cannot_write(path, errno);
  struct stat status {};
  Status result = ok_status();
  if (::fstat(fd, &status) != 0) {
    result = cannot_write(path, errno);
  } else if (!S_ISREG(status.st_mode) && !S_ISFIFO(status.st_mode) && !S_ISCHR(status.st_mode)) {
    result = Error::make(ErrorKind::io, fmt::format("cannot write '{}': it leads to a block device or a socket; write "
                                                    "the header to a file", path));
  } else if (S_ISREG(status.st_mode) && is_standard_output(status)) {
    // -o /dev/stdout with stdout a file: written through stdout, whose offset stderr may share
    // (2>&1), so that neither overwrites the other.
    if (!files::write_all(STDOUT_FILENO, text)) result = cannot_write(path, errno);
  } else if ((S_ISREG(status.st_mode) && ::ftruncate(fd, 0) != 0) || !files::write_all(fd, text)) {
    result = cannot_write(path, errno);
  }
  if (::close(fd) != 0 && result.ok()) result = cannot_write(path, errno);
  return result;
}

// `-o PATH`: a missing path or a regular file is replaced whole (write_replacing); anything else
// is written in place or refused, never replaced: a rename over /dev/null (as root), a FIFO or a
// link to /dev/stdout would put a regular file where they were.
Status write_output(const std::string& path, const std::string& text) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) {
    if (errno != ENOENT) return cannot_write(path, errno);
    return write_replacing(path, text);
  }
  if (S_ISREG(status.st_mode)) return write_replacing(path, text);
  if (S_ISDIR(status.st_mode))
    return Error::make(ErrorKind::io, fmt::format("cannot write '{}': it is a folder; name the header file", path));
  if (S_ISLNK(status.st_mode) || S_ISFIFO(status.st_mode) || S_ISCHR(status.st_mode)) return write_in_place(path, text);
  return Error::make(ErrorKind::io, fmt::format("cannot write '{}': it is a block device or a socket; write the header "
                                                "to a file", path));
}

int run_bundle(const BundleArgs& args) {
  if (auto writable = check_output_path(args.file, args.output); !writable.ok()) {
    std::cerr << "pykern: error: " << writable.error().message << "\n";
    return 2;
  }
  auto signatures = parse_sig_options(args.signatures);
  if (!signatures.ok()) {
    std::cerr << "pykern: error: " << signatures.error().message << "\n";
    return 2;
  }
  bundle::Request request;
  request.file = args.file;
  request.signatures = *signatures;
  if (args.archs.empty()) {
    std::string current = current_gpu_arch();
    request.archs = {current.empty() ? "sm_90" : current};
  } else if (!(args.archs.size() == 1 && args.archs[0] == "none")) {
    request.archs = args.archs;
  }
  request.kernels = args.kernels;
  request.ptx = !args.no_ptx;
  request.simulator = !args.no_simulator;
  request.name_space = args.name_space;
  request.use_cache = !args.no_cache;
  request.cache_dir = args.cache_dir;
  request.debug = args.debug;
  auto contents = [&] {
    Progress progress("bundling " + args.file);
    return bundle::make_bundle(request);
  }();
  if (!contents.ok()) {
    print_error(contents.error());
    return 1;
  }
  auto header = bundle::render_bundle(*contents);
  if (!header.ok()) {
    print_error(header.error());
    return 1;
  }
  if (auto written = write_output(args.output, *header); !written.ok()) {
    std::cerr << "pykern: error: " << written.error().message << "\n";
    return 1;
  }
  std::string held;
  for (const auto& image : contents->images) held += (held.empty() ? "" : ", ") + image.arch;
  if (!contents->host_library.empty()) held += (held.empty() ? "" : ", ") + std::string("simulator");
  for (const CompiledKernel& k : contents->kernels)
    std::cerr << fmt::format("bundled {}{} ({})\n", k.function, k.signature, held);
  return 0;
}

}  // namespace

void add_bundle_command(CLI::App& app) {
  auto args = std::make_shared<BundleArgs>();
  CLI::App* bundle = app.add_subcommand(
      "bundle", "Compile kernels ahead of time into a C++ header: GPU code and the simulator's build, with typed "
                "launch functions; the program needs no NVRTC and no .py at run time");
  bundle->add_option("file", args->file, "the kernel file (.py)")->required()->check(CLI::ExistingFile);
  bundle->add_option("--sig", args->signatures,
                     "NAME=SIGNATURE in Numba's syntax, e.g. 'add=void(float32[::1], int64)' (repeatable); "
                     "kernels whose decorator has signatures are bundled with those too");
  bundle->add_option("--kernel", args->kernels, "only this kernel (repeatable); default: every kernel with a signature");
  bundle->add_option("--arch", args->archs,
                     "GPU architectures for cubins, e.g. sm_80,sm_90 (default: the current GPU's, else sm_90); "
                     "'none': the simulator's build only")
      ->delimiter(',');
  bundle->add_flag("--no-ptx", args->no_ptx, "leave out the PTX for GPUs newer than the newest architecture");
  bundle->add_flag("--no-simulator", args->no_simulator, "leave out the CPU simulator's build");
  bundle->add_option("--namespace", args->name_space,
                     "the C++ namespace of the launch functions (default: the file's name, e.g. kernels)");
  bundle->add_option("-o,--output", args->output, "the header to write, e.g. kernels_bundle.h")->required();
  bundle->add_flag("--no-cache", args->no_cache, "neither read nor write the kernel cache");
  bundle->add_option("--cache-dir", args->cache_dir, "the kernel cache to use (default: $PYKERN_CACHE_DIR, else ~/.cache/pykern)");
  bundle->add_flag("--debug", args->debug, "compile every kernel as with debug=True");
  bundle->callback([args] { set_exit_code(run_bundle(*args)); });
}

}  // namespace pykern::cli
