// compile_cached is a template over the stopwatch only; it lives here to stay readable.
#pragma once
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/profile_range.h"
#include "jit/nvrtc.h"
#include "pykern/version.h"
#include "embed/runtime_headers.h"

namespace pykern::compiler {

template <class Clock>
Status compile_cached(const ir::Program& program, CompileOutput& output, const SourceFile& file,
                      const CompileOptions& options, std::optional<cache::KernelCache>& cache,
                      const std::string& frontend_key, Clock& clock) {
  auto flags = nvrtc_options(program);
  if (!flags.ok()) return flags.error();
  auto nvrtc_version = jit::nvrtc_version();
  if (!nvrtc_version.ok()) return nvrtc_version.error();
  jit::Output kind = options.emit == EmitKind::ptx ? jit::Output::ptx : jit::Output::cubin;
  // compute_NN is a virtual architecture: NVRTC makes PTX for it. A cubin asked for it would be
  // an sm_NN cubin labelled compute_NN (and cached apart from the same sm_NN cubin).
  if (kind == jit::Output::cubin && output.arch.rfind("compute_", 0) == 0)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' is a virtual architecture, which makes PTX, not a cubin: ask for PTX, or for "
                                   "a cubin for sm_{}", output.arch, output.arch.substr(8)));
  std::string joined;
  for (const std::string& flag : *flags) joined += flag + " ";
  std::string key = cache::cache_key({version(), embed::runtime_headers_hash(), output.cuda_source, joined, output.arch,
                                    kind == jit::Output::ptx ? "ptx" : "cubin", *nvrtc_version});
  if (cache && cache->enabled()) {
    if (auto entry = cache->load(key)) {
      output.binary = std::move(entry->binary);
      output.cache_hit = true;
      cache->frontend_store(frontend_key, key);
      output.timings.cache_ms = clock.lap_ms();
      return ok_status();
    }
  }
  if (auto supported = jit::check_arch_supported(output.arch); !supported.ok()) return supported;
  jit::NvrtcRequest request;
  request.source = output.cuda_source;
  request.name = file.display_name() + ".cu";
  request.arch = output.arch;
  request.output = kind;
  request.options = *flags;
  request.kernels = static_cast<int>(output.kernels.size());
  auto compiled = [&] {
    ProfileRange range("pykern: nvrtc " + request.name);
    return jit::nvrtc_compile(request);
  }();
  output.timings.nvrtc_ms = clock.lap_ms();
  if (!compiled.ok()) return compiled.error();
  output.binary = std::move(compiled->binary);
  if (cache && cache->enabled()) {
    cache::CacheEntry entry;
    entry.key = key;
    entry.binary = output.binary;
    entry.cuda_source = output.cuda_source;
    nlohmann::json kernels = nlohmann::json::array();
    for (const CompiledKernel& k : output.kernels) {
      nlohmann::json parameters = nlohmann::json::array();
      for (const ParameterInfo& p : k.parameters)
        parameters.push_back({{"name", p.name}, {"array", p.is_array}, {"dtype", p.dtype.descr()},
                              {"ndim", p.ndim}, {"layout", std::string(1, p.layout)}});
      kernels.push_back({{"function", k.function}, {"symbol", k.symbol}, {"signature", k.signature},
                         {"parameters", parameters}, {"debug", k.debug},
                         {"cooperative", k.cooperative}, {"prints", k.prints}});
    }
    // The file's absolute path, so `pykern cache list` names it from any folder.
    std::error_code absolute_error;
    std::string source_file = std::filesystem::is_regular_file(file.path(), absolute_error)
                                  ? std::filesystem::absolute(file.path(), absolute_error).lexically_normal().string()
                                  : file.path();
    entry.record = {{"source_file", source_file},     {"kernels", kernels},
                    {"options", joined},              {"arch", output.arch},
                    {"output", kind == jit::Output::ptx ? "ptx" : "cubin"},
                    {"nvrtc_version", *nvrtc_version}, {"pykern_version", version()},
                    {"source_bytes", output.cuda_source.size()},
                    {"compile_ms", output.timings.nvrtc_ms},  {"nvrtc_log", compiled->log}};
    auto stored = cache->store(entry);
    if (stored.ok()) cache->frontend_store(frontend_key, key);
    else output.warnings += "warning: " + stored.error().message + "\n";
  }
  output.timings.cache_ms = clock.lap_ms();
  return ok_status();
}

}  // namespace pykern::compiler
