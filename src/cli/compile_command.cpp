// pykern compile FILE [--sig NAME=SIG]... [--kernel NAME]... [--emit cuda|ptx|cubin] [-o OUT]
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "abi/arguments.h"
#include "cli/arguments.h"
#include "base/files.h"
#include "cli/commands.h"
#include "cli/file_functions.h"
#include "cli/progress.h"
#include "cli/resources_report.h"
#include "cli/suggest.h"
#include "cache/cache.h"
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
  bool debug = false;
  bool json = false;  // the result as one JSON object on stdout
  bool resources = false;  // registers, spills, memory and occupancy, read from the cubin
  std::string block;       // with --resources: the occupancy at this many threads per block too
  std::string cache_dir;
};

// --like NAME=a.npy,b.npy,3: the kernel's name and example arguments.
struct LikeArguments {
  std::string function;
  std::vector<Argument> arguments;
};

Result<LikeArguments> parse_like(const std::string& like) {
  size_t equals = like.find('=');
  if (equals == std::string::npos || equals == 0)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("--like takes NAME=ARG,ARG,... (.npy files and scalars), not '{}'", like));
  LikeArguments out{like.substr(0, equals), {}};
  std::stringstream list(like.substr(equals + 1));
  for (std::string text; std::getline(list, text, ',');) {
    auto argument = parse_argument(text);
    if (!argument.ok()) return argument.error();
    out.arguments.push_back(*argument);
  }
  return out;
}

// A kernel whose decorator gives signatures is compiled for those (Numba's eager compilation),
// and a call converts its arguments to the first that accepts them, as a launch picks it
// (api/module_state.h): then --like adds no signature of the arguments' own. True when the
// decorator's signatures take the arguments; false when the decorator gives none (or the file
// does not compile: the compile itself reports that); an error when none takes them.
Result<bool> decorator_takes(const std::string& file, const CompileOptions& options, const LikeArguments& like) {
  CompileOptions declared_only;
  declared_only.kernels = {like.function};
  declared_only.emit = EmitKind::cuda;
  declared_only.use_cache = options.use_cache;
  declared_only.cache_dir = options.cache_dir;
  auto declared = compile_file(file, declared_only);
  if (!declared.ok() || declared->kernels.empty()) return false;
  for (const CompiledKernel& kernel : declared->kernels)
    if (detail::accepts(kernel, like.arguments)) return true;
  std::string offered;
  for (const CompiledKernel& kernel : declared->kernels) offered += "\n  " + kernel.signature;
  auto wanted = detail::signature_for(like.arguments);  // void(float64[::1], float64): the types
  std::string types = wanted.ok() && wanted->rfind("void", 0) == 0 ? wanted->substr(4) : "";
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("--like {}: no signature in the decorator of kernel '{}' accepts these arguments {}; "
                                 "it is compiled for:{}",
                                 like.function, like.function, types, offered));
}

// The signature --like adds: the arguments' own types, as Numba types a call of a kernel whose
// decorator gives none; nullopt when the decorator's signatures take them.
Result<std::optional<KernelSignature>> signature_like(const std::string& file, const CompileOptions& options,
                                                      const std::string& text) {
  auto like = parse_like(text);
  if (!like.ok()) return like.error();
  auto taken = decorator_takes(file, options, *like);
  if (!taken.ok()) return taken.error();
  if (*taken) return std::optional<KernelSignature>();
  auto signature = detail::signature_for(like->arguments);
  if (!signature.ok()) return signature.error();
  return std::optional<KernelSignature>(KernelSignature{like->function, *signature, "--like " + like->function});
}

// --arch compute_90 names a virtual architecture: NVRTC makes PTX for it, never a cubin.
Status check_arch_for_emit(const std::string& arch, const std::string& emit) {
  if (emit != "cubin" || arch.rfind("compute_", 0) != 0) return ok_status();
  std::string number = arch.substr(8);
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("--arch {} is a virtual architecture, which makes PTX, not a cubin: use --emit ptx "
                                 "for PTX, or --arch sm_{} for a cubin", arch, number));
}

// A refusal of a name given to --kernel or --sig that the file does not define, with the
// names it may have meant. The compile decides what is a kernel (a decorator, an assignment,
// a factory's call); this only adds the hint, from the file's decorated functions.
Error with_name_hint(const CompileArgs& args, const std::vector<KernelSignature>& signatures, Error error) {
  std::vector<std::string> given = args.kernels;
  for (const KernelSignature& signature : signatures) given.push_back(signature.function);
  std::vector<std::string> names = names_of(decorated_functions(args.file));
  for (const std::string& name : given) {
    if (error.message.find("'" + name + "'") == std::string::npos) continue;
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    std::string hint = did_you_mean(name, names);
    if (!hint.empty()) error.message += "; " + hint;
    break;
  }
  return error;
}

// One line per rendered warning, for --json.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

nlohmann::json kernel_json(const CompiledKernel& k) {
  nlohmann::json parameters = nlohmann::json::array();
  for (const ParameterInfo& p : k.parameters) {
    nlohmann::json parameter = {{"name", p.name}, {"array", p.is_array}, {"dtype", p.dtype.name()}};
    if (p.is_array) {
      parameter["ndim"] = p.ndim;
      parameter["layout"] = std::string(1, p.layout);
    }
    parameters.push_back(parameter);
  }
  return {{"function", k.function}, {"signature", k.signature}, {"symbol", k.symbol}, {"parameters", parameters},
          {"debug", k.debug}, {"cooperative", k.cooperative}};
}

nlohmann::json compile_json(const CompileArgs& args, const CompileOutput& out, const std::string& written_to) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const CompiledKernel& k : out.kernels) kernels.push_back(kernel_json(k));
  const PhaseTimings& t = out.timings;
  nlohmann::json result = {
      {"file", std::filesystem::absolute(args.file).lexically_normal().string()},
      {"emit", args.emit},
      {"arch", args.emit == "cuda" ? nlohmann::json(nullptr) : nlohmann::json(out.arch)},
      {"output", written_to.empty() ? nlohmann::json(nullptr) : nlohmann::json(written_to)},
      {"kernels", kernels},
      {"checked_only", out.checked_only},
      {"cache_hit", out.cache_hit},
      {"timings_ms", {{"parse", t.parse_ms}, {"lower", t.lower_ms}, {"infer", t.infer_ms}, {"emit", t.emit_ms},
                      {"nvrtc", t.nvrtc_ms}, {"cache", t.cache_ms}}},
      {"warnings", lines_of(out.warnings)}};
  if (args.types) result["types"] = out.types;
  return result;
}

std::string cache_root(const CompileArgs& args) {
  return (args.cache_dir.empty() ? cache::KernelCache::default_root() : std::filesystem::path(args.cache_dir)).string();
}

int run_compile(const CompileArgs& args) {
  if (auto file = check_input_file(args.file); !file.ok()) {
    print_error(file.error());
    return 2;
  }
  if (auto arch = check_arch_for_emit(args.arch, args.emit); !arch.ok()) {
    print_error(arch.error());
    return 2;
  }
  if (args.resources && args.emit != "cubin") {
    print_error(Error::make(ErrorKind::invalid_argument,
                            fmt::format("--resources reads the cubin, and --emit {} makes none: leave --emit out "
                                        "(or give --emit cubin)", args.emit)));
    return 2;
  }
  int block_size = 0;
  if (!args.block.empty()) {
    if (!args.resources) {
      print_error(Error::make(ErrorKind::invalid_argument, "--block sets the block size --resources reports occupancy "
                                                           "for: give --resources too"));
      return 2;
    }
    auto threads = parse_count(args.block, "--block", 1024);
    if (!threads.ok() || *threads == 0) {
      print_error(threads.ok() ? Error::make(ErrorKind::invalid_argument, "--block takes 1 to 1024 threads, not 0")
                               : threads.error());
      return 2;
    }
    block_size = static_cast<int>(*threads);
  }
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
  options.use_cache = !args.no_cache;
  options.cache_dir = args.cache_dir;
  for (const std::string& like : args.likes) {
    auto signature = signature_like(args.file, options, like);
    if (!signature.ok()) {
      print_error(signature.error());
      return 2;
    }
    if (*signature) options.signatures.push_back(**signature);
  }
  options.emit = args.emit == "cuda" ? EmitKind::cuda : args.emit == "ptx" ? EmitKind::ptx : EmitKind::cubin;
  options.arch = args.arch;
  options.debug = args.debug;
  options.want_types = args.types;
  auto result = [&] {
    Progress progress("compiling " + args.file);
    return compile_file(args.file, options);
  }();
  if (!result.ok()) {
    // What the command line asked for cannot be (a kernel name the file lacks, an --arch NVRTC
    // does not know): a usage error.
    if (result.error().kind == ErrorKind::invalid_argument) {
      print_error(with_name_hint(args, options.signatures, result.error()));
      return 2;
    }
    print_error(result.error());
    return 1;
  }
  const CompileOutput& out = *result;
  std::optional<ResourcesReport> resources;
  if (args.resources && !out.kernels.empty()) {
    auto report = resources_report(out, block_size);
    if (!report.ok()) {
      print_error(report.error());
      return report.error().kind == ErrorKind::invalid_argument && !args.block.empty() ? 2 : 1;
    }
    resources = std::move(*report);
  }
  if (!args.json) std::cerr << out.warnings;
  if (args.types && !args.json) std::cout << out.types;
  bool text_output = options.emit == EmitKind::cuda || options.emit == EmitKind::ptx;
  const std::string& payload = options.emit == EmitKind::cuda ? out.cuda_source : out.binary;
  std::string written_to;
  if (!args.output.empty()) {
    if (auto written = files::write_output(args.output, payload); !written.ok()) {
      print_error(written.error());
      return 1;
    }
    written_to = std::filesystem::absolute(args.output).lexically_normal().string();
  } else if (text_output && !args.types && !args.json) {
    std::cout << payload;
  }
  if (args.json) {
    nlohmann::json json = compile_json(args, out, written_to);
    if (resources)
      for (nlohmann::json& kernel : json["kernels"]) kernel["resources"] = resources->json[kernel["symbol"].get<std::string>()];
    if (resources) json["functions"] = resources->json;
    std::cout << json.dump(2) << "\n";
  } else if (!text_output || !args.output.empty()) {
    for (const CompiledKernel& k : out.kernels) {
      // CUDA C++ is for no architecture yet: it names no arch and no cubin.
      if (options.emit == EmitKind::cuda)
        std::cerr << fmt::format("translated {}{} to CUDA C++ as {}\n", k.function, k.signature, k.symbol);
      else
        std::cerr << fmt::format("compiled {}{} as {} ({}, {}{}{})\n", k.function, k.signature, k.symbol, out.arch,
                                 options.emit == EmitKind::ptx ? "ptx" : "cubin",
                                 k.cooperative ? ", cooperative launch" : "", out.cache_hit ? ", cached" : "");
    }
  }
  if (!args.json) {
    // Where the result went when no -o was given: PTX and CUDA C++ went to stdout; a cubin,
    // which is binary, was not written to a terminal.
    if (!written_to.empty() && !out.kernels.empty())
      std::cerr << fmt::format("wrote {}\n", args.output);
    else if (args.output.empty() && !text_output && !out.kernels.empty())
      std::cerr << fmt::format("pykern: note: the cubin was not written (no -o); {}give -o {}.cubin to write it\n",
                               options.use_cache ? fmt::format("it is in the kernel cache at {}; ", cache_root(args))
                                                 : "",
                               std::filesystem::path(args.file).stem().string());
  }
  if (resources && !args.json) std::cout << resources->text;
  for (const std::string& name : out.checked_only)
    if (!args.json) std::cerr << fmt::format("checked {} (no signature: give one with --sig {}=... to compile it)\n", name, name);
  if (args.timings && !args.json) {
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
  compile->add_option("file", args->file, "the kernel file (.py)")->required();
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
  compile->add_option("--cache-dir", args->cache_dir,
                      "the kernel cache to use (default: $PYKERN_CACHE_DIR, else ~/.cache/pykern)");
  compile->add_flag("--debug", args->debug, "compile every kernel as with debug=True (asserts, raise)");
  compile->add_flag("--json", args->json,
                    "print the result as JSON on stdout: kernels, signatures, symbols, output path, timings, warnings");
  compile->add_flag("--resources", args->resources,
                    "print what each kernel uses, read from its cubin: registers, spills, stack, local, shared and "
                    "constant memory, and the occupancy they allow");
  compile->add_option("--block", args->block, "with --resources: also the occupancy at this many threads per block");
  compile->callback([args, compile] {
    args->output_given = compile->count("-o") > 0;
    set_exit_code(run_compile(*args));
  });
}

}  // namespace pykern::cli
