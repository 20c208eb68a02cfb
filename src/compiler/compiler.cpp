// The pipeline, in one place:
//   SourceFile → parse → syntax tree → module model / lower → AST → infer → typed IR
//   → emit → CUDA C++ → NVRTC → cubin/PTX → disk cache
#include "compiler/compile.h"

#include <chrono>

#include <fmt/format.h>

#include "base/diagnostics.h"
#include "compiler/pipeline.h"
#include "emit/emit_cuda.h"
#include "frontend/module.h"
#include "cache/cache.h"
#include "jit/nvrtc.h"
#include "embed/runtime_headers.h"
#include "sema/infer.h"
#include "syntax/syntax_tree.h"

namespace pykern {

namespace {

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

Error compile_error(const Diagnostics& diagnostics) {
  return Error::make(ErrorKind::compile, diagnostics.render());
}

}  // namespace

namespace compiler {

Result<CompileOutput> compile(const std::string& text, const std::string& file_name, const CompileOptions& options) {
  try {
    if (text.size() > max_source_bytes)
      return Error::make(ErrorKind::invalid_argument, fmt::format("{}: {} bytes of source is more than the {} MiB pykern "
                                                                  "translates", file_name, text.size(), max_source_bytes >> 20));
    CompileOutput output;
    if (!options.arch.empty() && options.emit != EmitKind::cuda)
      if (auto valid = jit::check_arch_form(options.arch); !valid.ok()) return valid.error();
    output.arch = options.arch.empty() ? default_arch : options.arch;
    Stopwatch clock;

    // The cache first: a front-end hit skips everything below.
    std::optional<cache::KernelCache> cache;
    if (options.use_cache && options.emit != EmitKind::cuda) {
      cache.emplace(options.cache_dir.empty() ? cache::KernelCache::default_root()
                                             : std::filesystem::path(options.cache_dir));
      if (!cache->enabled()) output.warnings += cache->warning() + "\n";
    }
    // Only a compile to PTX or a cubin has a cache, and only its key names NVRTC's version: a
    // translation for the simulator never loads NVRTC.
    std::string frontend_key = cache ? compiler::frontend_key(text, file_name, options, output.arch) : std::string();
    if (cache && cache->enabled() && !options.want_types && !options.want_simulator) {
      if (auto entry_key = cache->frontend_lookup(frontend_key)) {
        if (auto entry = cache->load(*entry_key)) {
          compiler::fill_from_cache(*entry, output);
          output.timings.cache_ms = clock.lap_ms();
          return output;
        }
      }
    }

    SourceFile file(file_name, text);
    Diagnostics diagnostics;
    auto tree = syntax::SyntaxTree::parse(file);
    if (!tree.ok()) return tree.error();
    output.timings.parse_ms = clock.lap_ms();

    frontend::Module module = frontend::Module::build(*tree, diagnostics);
    if (diagnostics.has_errors()) return compile_error(diagnostics);
    std::vector<SourceFile> signature_files;  // kept alive: diagnostics point into them
    auto entries = compiler::collect_entries(module, options, signature_files, output.checked_only, diagnostics);
    if (!entries.ok()) return entries.error();
    output.timings.lower_ms = clock.lap_ms();

    ir::Program program = sema::infer(module, *entries, diagnostics, options.debug);
    output.timings.infer_ms = clock.lap_ms();
    if (diagnostics.has_errors()) return compile_error(diagnostics);
    output.warnings += diagnostics.render();  // only warnings are left
    if (options.want_types) output.types = compiler::types_report(file, program);

    emit::EmittedSource emitted = emit::emit_cuda(program, file.display_name());
    output.timings.emit_ms = clock.lap_ms();
    compiler::describe_kernels(program, emitted, output);
    for (frontend::ModuleFunction* f : module.functions_in_order()) {
      bool host = f->decoration.role == frontend::FunctionRole::device;
      if (!host && f->decoration.role != frontend::FunctionRole::kernel) continue;
      std::vector<std::string> names;
      if (const ast::Function* lowered = module.lowered_function(f->name, diagnostics))
        for (const ast::Parameter& p : lowered->parameters) names.push_back(p.name);
      (host ? output.host_functions : output.kernel_functions).push_back(f->name);
      (host ? output.host_function_parameters : output.kernel_parameters).push_back(std::move(names));
    }
    compiler::describe_generators(module, diagnostics, output);
    compiler::describe_functions(program, output);
    if (program.functions.empty()) return output;
    output.cuda_source = std::move(emitted.text);
    if (options.want_simulator) {
      output.simulator_source = output.cuda_source + emit::emit_simulator_entries(program);
      output.simulator_uses_cxx_runtime = emit::uses_cxx_runtime(program);
    }
    if (options.emit == EmitKind::cuda) return output;

    auto compiled = compiler::compile_cached(program, output, file, options, cache, frontend_key, clock);
    if (!compiled.ok()) return compiled.error();
    return output;
  } catch (const std::exception& exception) {
    return Error::make(ErrorKind::internal, std::string("internal error: ") + exception.what());
  }
}

}  // namespace compiler

}  // namespace pykern
