// The pipeline, in one place (the steps that are more than a call are in pipeline.cpp):
//   SourceFile → syntax tree → module model → AST (lowered on use) → typed IR → passes
//   → CUDA C++ → NVRTC → cubin/PTX, through the disk cache
#include "compiler/translate.h"

#include <fmt/format.h>

#include "base/profile_range.h"
#include "base/diagnostics.h"
#include "compiler/generated_source.h"
#include "compiler/pipeline.h"
#include "emit/emit_cuda.h"
#include "frontend/module.h"
#include "sema/infer.h"
#include "sema/name_resolution.h"
#include "sema/passes.h"
#include "syntax/syntax_tree.h"

namespace pykern::compiler {

namespace {

Error compile_error(const Diagnostics& diagnostics) { return Error::make(ErrorKind::compile, diagnostics.render()); }

Result<Translation> run_pipeline(const Request& request) {
  ProfileRange range("pykern: translate " + request.file_name);
  Translation result;
  CompileOutput& output = result.output;
  if (auto checked = check_request(request, output); !checked.ok()) return checked.error();
  std::string text = request.text + (request.generated ? generated_source(*request.generated) : "");
  Stopwatch clock;
  std::optional<cache::KernelCache> cache = open_cache(request, output);
  std::string frontend_key = cache ? compiler::frontend_key(request, text, output.arch, *cache) : std::string();
  if (load_cached(request, cache, frontend_key, output)) {
    output.timings.cache_ms = clock.lap_ms();
    return result;
  }

  SourceFile file(request.file_name, text);
  Diagnostics diagnostics;
  auto tree = syntax::SyntaxTree::parse(file);
  if (!tree.ok()) return tree.error();
  output.timings.parse_ms = clock.lap_ms();
  frontend::Module module = frontend::Module::build(*tree, diagnostics);
  if (diagnostics.has_errors()) return compile_error(diagnostics);
  if (request.generated) module.mark_generated(static_cast<uint32_t>(request.text.size()), origin_of(*request.generated));
  std::vector<SourceFile> signature_files;  // kept alive: diagnostics point into them
  auto entries = collect_entries(module, request, signature_files, output.checked_only, diagnostics);
  if (!entries.ok()) return entries.error();
  sema::resolve_names(module, name_roots(request, *entries, output.checked_only), diagnostics);
  output.timings.lower_ms = clock.lap_ms();

  ir::Program program = sema::infer(module, *entries, diagnostics, request.options.debug);
  check_deferred_kernels(module, request, output.checked_only, diagnostics);
  sema::sequence_effects(program);
  sema::mark_index_facts(program);
  sema::plan_parallel_loops(program, file, diagnostics);
  sema::account_memory(program, file, diagnostics);
  output.timings.infer_ms = clock.lap_ms();
  if (diagnostics.has_errors()) return compile_error(diagnostics);
  output.warnings += diagnostics.render();  // only warnings are left
  if (request.options.want_types) output.types = types_report(file, program);

  emit::EmittedSource emitted = emit::emit_cuda(program, file.display_name());
  output.timings.emit_ms = clock.lap_ms();
  describe_translation(module, program, emitted, diagnostics, result);
  if (program.functions.empty()) return result;
  output.cuda_source = std::move(emitted.text);
  if (request.for_simulator) {
    result.simulator_source = output.cuda_source + emit::emit_simulator_entries(program);
    result.simulator_uses_cxx_runtime = emit::uses_cxx_runtime(program);
  }
  if (request.options.emit == EmitKind::cuda) return result;
  if (auto compiled = compile_cached(program, output, file, request.options, cache, frontend_key, clock); !compiled.ok())
    return compiled.error();
  return result;
}

}  // namespace

Result<Translation> translate(const Request& request) {
  try {
    return run_pipeline(request);
  } catch (const std::exception& exception) {
    return Error::make(ErrorKind::internal, std::string("internal error: ") + exception.what());
  }
}

}  // namespace pykern::compiler
