// pykern compile FILE [--sig NAME=SIG]... [--kernel NAME]... [--emit cuda|ptx|cubin] [-o OUT]
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "abi/arguments.h"
#include "cli/arguments.h"
#include "base/files.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "pykern/compiler.h"

namespace pykern::cli {

namespace {
int g_exit_code = 0;

struct CompileArgs {
  std::string file;
  std::vector<std::string> signatures;
  std::vector<std::string> likes;  // NAME=ARG,ARG,...: example arguments, typed as Numba types them
  std::vector<std::string> kernels;
  std::string emit = "cubin";
  std::string arch;
  std::string output;
  bool output_given = false;  // -o '' is an error, not "no output"
  bool timings = false;
  bool types = false;
  bool no_cache = false;
};

// --like NAME=a.npy,b.npy,3: the signature Numba would give a call with these arguments.
Result<KernelSignature> signature_like(const std::string& like) {
  size_t equals = like.find('=');
  if (equals == std::string::npos || equals == 0)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("--like takes NAME=ARG,ARG,... (.npy files and scalars), not '{}'", like));
  std::vector<Argument> arguments;
  std::stringstream list(like.substr(equals + 1));
  for (std::string text; std::getline(list, text, ',');) {
    auto argument = parse_argument(text);
    if (!argument.ok()) return argument.error();
    arguments.push_back(*argument);
  }
  auto signature = detail::signature_for(arguments);
  if (!signature.ok()) return signature.error();
  return KernelSignature{like.substr(0, equals), *signature};
}

int run_compile(const CompileArgs& args) {
  if (args.output_given) {
    if (auto writable = check_output_path(args.file, args.output); !writable.ok()) {
      print_error(writable.error());
      return 2;
    }
  }
  auto signatures = parse_sig_options(args.signatures);
  if (!signatures.ok()) {
    print_error(signatures.error());
    return 2;
  }
  CompileOptions options;
  options.kernels = args.kernels;
  options.signatures = *signatures;
  for (const std::string& like : args.likes) {
    auto signature = signature_like(like);
    if (!signature.ok()) {
      print_error(signature.error());
      return 2;
    }
    options.signatures.push_back(*signature);
  }
  options.emit = args.emit == "cuda" ? EmitKind::cuda : args.emit == "ptx" ? EmitKind::ptx : EmitKind::cubin;
  options.arch = args.arch;
  options.use_cache = !args.no_cache;
  options.want_types = args.types;
  auto result = [&] {
    Progress progress("compiling " + args.file);
    return compile_file(args.file, options);
  }();
  if (!result.ok()) {
    print_error(result.error());
    return 1;
  }
  const CompileOutput& out = *result;
  std::cerr << out.warnings;
  if (args.types) std::cout << out.types;
  bool text_output = options.emit == EmitKind::cuda || options.emit == EmitKind::ptx;
  const std::string& payload = options.emit == EmitKind::cuda ? out.cuda_source : out.binary;
  if (!args.output.empty()) {
    if (auto written = files::write_output(args.output, payload); !written.ok()) {
      print_error(written.error());
      return 1;
    }
  } else if (text_output && !args.types) {
    std::cout << payload;
  }
  if (!text_output || !args.output.empty()) {
    for (const CompiledKernel& k : out.kernels)
      std::cerr << fmt::format("compiled {}{} as {} ({}, {}{}{})\n", k.function, k.signature, k.symbol, out.arch,
                               options.emit == EmitKind::ptx ? "ptx" : "cubin",
                               k.cooperative ? ", cooperative launch" : "", out.cache_hit ? ", cached" : "");
  }
  for (const std::string& name : out.checked_only)
    std::cerr << fmt::format("checked {} (no signature: give one with --sig {}=... to compile it)\n", name, name);
  if (args.timings) {
    const PhaseTimings& t = out.timings;
    std::cerr << fmt::format("timings (ms): parse {:.3f}  lower {:.3f}  infer {:.3f}  emit {:.3f}  nvrtc {:.3f}  "
                             "cache {:.3f}{}\n", t.parse_ms, t.lower_ms, t.infer_ms, t.emit_ms, t.nvrtc_ms,
                             t.cache_ms, out.frontend_cache_hit ? "  (front-end cache hit)" : "");
  }
  return 0;
}
}  // namespace

int exit_code() { return g_exit_code; }

void set_exit_code(int code) { g_exit_code = code; }

void add_compile_command(CLI::App& app) {
  auto args = std::make_shared<CompileArgs>();
  CLI::App* compile = app.add_subcommand(
      "compile", "Check every kernel of a Numba-CUDA file; compile those with signatures to a cubin, PTX or CUDA C++");
  compile->add_option("file", args->file, "the kernel file (.py)")->required()->check(CLI::ExistingFile);
  compile->add_option("--sig", args->signatures,
                      "NAME=SIGNATURE in Numba's syntax, e.g. 'add=void(float32[::1], int64)' (repeatable)");
  compile->add_option("--like", args->likes,
                      "NAME=ARG,ARG,...: type the kernel for these example arguments (.npy files and scalars such "
                      "as 3, 2.5, f4:1), as a call with them would (repeatable)");
  compile->add_option("--kernel", args->kernels, "only this kernel and what it calls (repeatable)");
  compile->add_option("--emit", args->emit, "what to produce: cubin (default), ptx or cuda")
      ->check(CLI::IsMember({"cubin", "ptx", "cuda"}));
  compile->add_option("--arch", args->arch,
                      "target architecture, e.g. sm_90; default: the current GPU's, else sm_90");
  compile->add_option("-o,--output", args->output, "write the cubin/PTX/CUDA here");
  compile->add_flag("--timings", args->timings, "print phase times: parse, lower, infer, emit, nvrtc, cache");
  compile->add_flag("--types", args->types, "print the source annotated with inferred types");
  compile->add_flag("--no-cache", args->no_cache, "neither read nor write the kernel cache");
  compile->callback([args, compile] {
    args->output_given = compile->count("-o") > 0;
    set_exit_code(run_compile(*args));
  });
}

}  // namespace pykern::cli
