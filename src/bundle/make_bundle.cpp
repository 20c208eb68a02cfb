// The compiles behind `pykern bundle`: the same pipeline as `pykern compile`, once per output.
#include <algorithm>
#include <filesystem>
#include <future>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/source_file.h"
#include "bundle/bundle.h"
#include "cache/cache.h"
#include "compiler/translate.h"
#include "jit/nvrtc.h"
#include "sim/simulator.h"

namespace pykern::bundle {

namespace {

// One translation of the kernel file: to CUDA C++ with the simulator's entry points, or to an image.
compiler::Request translation_for(const Request& request, const std::string& text, EmitKind emit,
                                  const std::string& arch) {
  compiler::Request translation{text, request.file, {}};
  translation.for_simulator = emit == EmitKind::cuda;
  CompileOptions& options = translation.options;
  options.signatures = request.signatures;
  options.kernels = request.kernels;
  options.emit = emit;
  options.arch = arch;
  options.use_cache = request.use_cache;
  options.cache_dir = request.cache_dir;
  options.debug = request.debug;
  return translation;
}

// The kernels a compile made, by symbol: every output of a bundle must hold the same ones.
std::vector<std::string> symbols_of(const CompileOutput& output) {
  std::vector<std::string> symbols;
  for (const CompiledKernel& k : output.kernels) symbols.push_back(k.symbol);
  std::sort(symbols.begin(), symbols.end());
  return symbols;
}

// The architecture PTX is made for: the newest listed that is not architecture-specific
// (PTX for sm_90a would run on 9.0 GPUs only, where the sm_90a cubin runs already).
std::string ptx_arch(const std::vector<std::string>& archs) {
  std::string best;
  int best_number = -1;
  for (const std::string& arch : archs) {
    auto name = jit::parse_arch(arch);
    if (!name || name->specific) continue;
    if (name->number > best_number) best = arch, best_number = name->number;
  }
  return best;
}

// `text` is the kernel file, read once: every output is made from the same text.
Status add_gpu_images(const Request& request, const std::string& text, const std::vector<std::string>& symbols,
                      Contents& contents) {
  auto compile_image = [&](EmitKind emit, const std::string& arch, const std::string& label) -> Status {
    auto translated = compiler::translate(translation_for(request, text, emit, arch));
    if (!translated.ok()) return translated.error();
    CompileOutput& output = translated->output;
    if (symbols_of(output) != symbols)
      return Error::make(ErrorKind::internal, "internal error: the " + label + " image holds other kernels than the "
                                              "bundle's; this is a pykern bug, please report it");
    contents.images.push_back({label, std::move(output.binary)});
    return ok_status();
  };
  for (const std::string& arch : request.archs) {
    if (arch.rfind("sm_", 0) != 0)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("'{}' is not a real architecture: a bundle lists real ones (sm_80, sm_90a), and "
                                     "adds PTX of the newest for newer GPUs itself", arch));
    if (auto made = compile_image(EmitKind::cubin, arch, arch); !made.ok()) return made;
  }
  std::string newest = ptx_arch(request.archs);
  if (request.ptx && !newest.empty())
    return compile_image(EmitKind::ptx, newest, "compute_" + newest.substr(3));
  return ok_status();
}

// The simulator's shared library for the bundle's kernels, from the kernel cache when it has it.
Result<std::string> build_host_library(const Request& request, const compiler::Translation& checked, bool debug) {
  try {
    std::optional<cache::KernelCache> cache;
    if (request.use_cache)
      cache.emplace(request.cache_dir.empty() ? cache::KernelCache::default_root()
                                              : std::filesystem::path(request.cache_dir));
    return sim::build_library_bytes(checked.simulator_source, {debug, checked.simulator_uses_cxx_runtime},
                                    cache ? &*cache : nullptr);
  } catch (const std::exception& e) {  // on its own thread: nothing may escape
    return Error::make(ErrorKind::internal, std::string("internal error: building the simulator's library: ") + e.what());
  }
}

}  // namespace

Result<Contents> make_bundle(const Request& request) {
  Contents contents;
  contents.source_name = std::filesystem::path(request.file).filename().string();
  auto name_space = namespace_from(request.name_space, request.file);
  if (!name_space.ok()) return name_space.error();
  contents.name_space = *name_space;
  for (const std::string& arch : request.archs)
    if (auto form = jit::check_arch_form(arch); !form.ok()) return form.error();
  // The kernels and the simulator's source, without NVRTC.
  auto file = SourceFile::load(request.file);
  if (!file.ok()) return file.error();
  auto translated = compiler::translate(translation_for(request, file->text(), EmitKind::cuda, ""));
  if (!translated.ok()) return translated.error();
  const CompileOutput& checked = translated->output;
  if (checked.kernels.empty())
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{} has no kernel with a signature to bundle: give a kernel one, e.g. "
                                   "'void(float32[::1], float32[::1])', in its decorator or with the request",
                                   request.file));
  if (auto named = check_cxx_names(checked.kernels); !named.ok()) return named.error();
  contents.kernels = checked.kernels;
  bool any_debug = request.debug;
  for (CompiledKernel& k : contents.kernels) {
    k.debug = k.debug || request.debug;
    any_debug = any_debug || k.debug;  // one simulator build: checked if any kernel asks for it
  }
  // The host compiler builds the simulator's library while NVRTC makes the GPU images.
  std::future<Result<std::string>> host_library;
  if (request.simulator)
    host_library = std::async(std::launch::async, [&request, &translated, any_debug] {
      return build_host_library(request, *translated, any_debug);
    });
  Status images = add_gpu_images(request, file->text(), symbols_of(checked), contents);
  if (host_library.valid()) {
    auto library = host_library.get();
    if (!library.ok()) return library.error();
    contents.host_library = std::move(*library);
  }
  if (!images.ok()) return images.error();
  if (contents.images.empty() && contents.host_library.empty())
    return Error::make(ErrorKind::invalid_argument,
                       "the bundle would hold nothing: it was asked for no GPU architecture and no simulator build");
  return contents;
}

}  // namespace pykern::bundle
