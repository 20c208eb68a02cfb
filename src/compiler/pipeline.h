// The steps of compile_source that are more than one call: which functions to specialise,
// the cache keys, NVRTC through the cache, and the --types report.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "emit/emit_cuda.h"
#include "frontend/module.h"
#include "cache/cache.h"
#include "pykern/compiler.h"
#include "sema/infer.h"

namespace pykern::compiler {

// Kernels with a signature (from --sig or the decorator) become entries; kernels without one
// are lowered and checked only, and named in `checked_only`.
Result<std::vector<sema::EntryRequest>> collect_entries(frontend::Module& module, const CompileOptions& options,
                                                        std::vector<SourceFile>& signature_files,
                                                        std::vector<std::string>& checked_only,
                                                        Diagnostics& diagnostics);

// Covers everything that decides the output: pykern version, runtime headers, the whole file
// text (a conservative stand-in for "the kernel and all it calls"), signatures, options, arch,
// and the NVRTC version (a front-end hit skips NVRTC, so its PTX must not outlive an NVRTC change).
std::string frontend_key(const std::string& text, const std::string& file_name, const CompileOptions& options,
                         const std::string& arch, const std::string& nvrtc_version);
// The same with the loaded NVRTC's version ("none" where NVRTC cannot be loaded).
std::string frontend_key(const std::string& text, const std::string& file_name, const CompileOptions& options,
                         const std::string& arch);

void fill_from_cache(const cache::CacheEntry& entry, CompileOutput& output);

template <class Clock>
Status compile_cached(const ir::Program& program, CompileOutput& output, const SourceFile& file,
                      const CompileOptions& options, std::optional<cache::KernelCache>& cache,
                      const std::string& frontend_key, Clock& clock);

// Fills output.kernels from the emitted symbols and the kernels' parameter types.
void describe_kernels(const ir::Program& program, const emit::EmittedSource& emitted, CompileOutput& output);

// Describes the file's @vectorize/@guvectorize/@cuda.reduce functions and their signatures.
void describe_generators(frontend::Module& module, Diagnostics& diagnostics, CompileOutput& output);
void describe_functions(const ir::Program& program, CompileOutput& output);

std::string types_report(const SourceFile& file, const ir::Program& program);

// NVRTC options for a program's kernels; an error when kernels need different options.
Result<std::vector<std::string>> nvrtc_options(const ir::Program& program);

}  // namespace pykern::compiler

#include "compiler/pipeline_impl.h"
