// pykern bundle FILE --sig NAME=SIG... [--kernel NAME]... [--arch sm_80,sm_90|none] [--no-ptx] [--no-simulator]
//                    [--namespace NS] [--cache-dir DIR] -o HEADER
#include <unistd.h>


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
#include "cli/suggest.h"
#include "cli/progress.h"
#include "pykern/device.h"

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

// What the options ask for, checked in the options' words before any work (the library
// refuses the same in its own).
Status check_bundle_options(const BundleArgs& args) {
  for (const std::string& arch : args.archs)
    if (arch.rfind("compute_", 0) == 0)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("--arch {}: a bundle lists real architectures (sm_80, sm_90a); PTX for GPUs "
                                     "newer than the newest is added unless --no-ptx", arch));
  if (args.archs.size() == 1 && args.archs[0] == "none" && args.no_simulator)
    return Error::make(ErrorKind::invalid_argument,
                       "--arch none with --no-simulator: the bundle would hold nothing; list GPU architectures with "
                       "--arch, or leave out --no-simulator");
  return ok_status();
}

// A file with no kernel to bundle: the command line gives signatures with --sig.
Error with_sig_hint(const bundle::Request& request, Error error) {
  if (request.signatures.empty() && error.message.find("has no kernel with a signature to bundle") != std::string::npos)
    error.message += "; on the command line: --sig NAME=SIGNATURE, e.g. --sig 'add=void(float32[::1], float32[::1])'";
  return error;
}

int run_bundle(const BundleArgs& args) {
  if (auto file = check_input_file(args.file); !file.ok()) {
    print_error(file.error());
    return 2;
  }
  if (auto writable = check_output_path(args.file, args.output); !writable.ok()) {
    print_error(writable.error());
    return 2;
  }
  auto signatures = parse_sig_options(args.signatures);
  if (!signatures.ok()) {
    print_error(signatures.error());
    return 2;
  }
  if (auto options = check_bundle_options(args); !options.ok()) {
    print_error(options.error());
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
    print_error(with_sig_hint(request, contents.error()));
    return 1;
  }
  auto header = bundle::render_bundle(*contents);
  if (!header.ok()) {
    print_error(header.error());
    return 1;
  }
  if (auto written = files::write_output(args.output, *header); !written.ok()) {
    print_error(written.error());
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
  bundle->add_option("file", args->file, "the kernel file (.py)")->required();
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
