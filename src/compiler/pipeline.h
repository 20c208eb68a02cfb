// The steps of translate() that are more than one call: checking the request, the cache,
// which functions to specialise, NVRTC through the cache, and describing what was made.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "cache/cache.h"
#include "compiler/translate.h"
#include "emit/emit_cuda.h"
#include "frontend/module.h"
#include "sema/infer.h"
#include "sema/name_resolution.h"

namespace pykern::compiler {

class Stopwatch {
 public:
  double lap_ms() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - start_).count();
    start_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Refuses a source too large or a malformed architecture; sets output.arch.
Status check_request(const Request& request, CompileOutput& output);

// The disk cache a compile to PTX or a cubin uses (a warning in `output` where it is off);
// nullopt for a translation to CUDA C++ or with use_cache off.
std::optional<cache::KernelCache> open_cache(const Request& request, CompileOutput& output);

// Covers everything that decides the output: pykern version, runtime headers, the whole text
// (the user's file and any generated kernel: a conservative stand-in for "the kernel and all it
// calls"), signatures, options, arch, and the NVRTC version (a front-end hit skips NVRTC, so its
// PTX must not outlive an NVRTC change).
std::string frontend_key(const Request& request, const std::string& text, const std::string& arch,
                         const std::string& nvrtc_version);
// The same with the version of the NVRTC this process would load ("none" where none can be):
// from the cache's memo when it still holds (jit/nvrtc_identity.h), so a hit loads no NVRTC.
std::string frontend_key(const Request& request, const std::string& text, const std::string& arch,
                         cache::KernelCache& cache);
// The version of the NVRTC this process would load, as frontend_key names it.
std::string nvrtc_version_for_key(cache::KernelCache& cache);

// A front-end cache hit fills `output` and skips everything below (not when the types report
// or the simulator's source is wanted: the cache holds neither).
bool load_cached(const Request& request, std::optional<cache::KernelCache>& cache, const std::string& frontend_key,
                 CompileOutput& output);

frontend::Origin origin_of(const GeneratedKernel& kernel);

// The entry points to specialise: kernels with a signature (from the options or the decorator;
// kernels without one are lowered and checked only, and named in `checked_only`), @jit
// functions typed for a host call, or the generated kernel alone.
Result<std::vector<sema::EntryRequest>> collect_entries(frontend::Module& module, const Request& request,
                                                        std::vector<SourceFile>& signature_files,
                                                        std::vector<std::string>& checked_only,
                                                        Diagnostics& diagnostics);

// What the name pass checks (sema/name_resolution.h): the entries and the kernels checked
// without a signature, whose mistakes are errors, or, with defer_unsigned_kernels, those
// kernels as warnings; and, when the request is for the whole file, the decorated functions no
// kernel calls.
sema::NameRoots name_roots(const Request& request, const std::vector<sema::EntryRequest>& entries,
                           const std::vector<std::string>& checked_only);

// Kernels without a signature, with defer_unsigned_kernels: lowered now, their errors reported
// as warnings (a kernel an entry calls was lowered already, its errors errors).
void check_deferred_kernels(frontend::Module& module, const Request& request,
                            const std::vector<std::string>& checked_only, Diagnostics& diagnostics);

// Fills the translation's kernels (from the emitted symbols), the file's contents and what the
// typed @jit functions return.
void describe_translation(frontend::Module& module, const ir::Program& program, const emit::EmittedSource& emitted,
                          Diagnostics& diagnostics, Translation& translation);

template <class Clock>
Status compile_cached(const ir::Program& program, CompileOutput& output, const SourceFile& file,
                      const CompileOptions& options, std::optional<cache::KernelCache>& cache,
                      const std::string& frontend_key, Clock& clock);

std::string types_report(const SourceFile& file, const ir::Program& program);

// NVRTC options for a program's kernels; an error when kernels need different options.
Result<std::vector<std::string>> nvrtc_options(const ir::Program& program);

}  // namespace pykern::compiler

#include "compiler/pipeline_impl.h"
