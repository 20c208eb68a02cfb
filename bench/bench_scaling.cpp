// Translation time against file size (Google Benchmark): a kernel file padded with n own-line
// comments, at module level or inside the kernel's block, or with n statements in the kernel
// (one a line, or all on one line).
// Time per line must not grow with the file: Complexity() fits each family and should report
// O(N) (issue 27: comment runs once cost n^2, 80k lines more than 120 s).
// Run: ./build/bench/pykern_bench_scaling
#include <string>

#include <benchmark/benchmark.h>

#include "pykern/compiler.h"

namespace {

enum class Padding { module_comments, block_comments, statements, one_line };

std::string kernel_file(Padding padding, int64_t lines) {
  std::string text = "from numba import cuda\n\n@cuda.jit\ndef k(a):\n    a[0] = 1\n";
  for (int64_t i = 0; i < lines; ++i) {
    switch (padding) {
      case Padding::module_comments: text += "# comment line " + std::to_string(i) + "\n"; break;
      case Padding::block_comments: text += "    # comment line " + std::to_string(i) + "\n"; break;
      case Padding::statements: text += "    a[" + std::to_string(i % 4) + "] += 1  # and a comment\n"; break;
      case Padding::one_line: text += "    a[0] += 1;"; break;
    }
  }
  return text + (padding == Padding::one_line ? "\n" : "") + "    a[1] = 2\n";
}

void translate(benchmark::State& state, Padding padding) {
  std::string text = kernel_file(padding, state.range(0));
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"k", "void(int64[:])"}};
  for (auto _ : state) {
    auto result = pykern::compile_source(text, "scaling.py", options);
    if (!result.ok()) state.SkipWithError(result.error().message.c_str());
    benchmark::DoNotOptimize(result);
  }
  state.SetComplexityN(state.range(0));
  state.counters["ns_per_line"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                     benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK_CAPTURE(translate, module_comments, Padding::module_comments)
    ->RangeMultiplier(4)->Range(1 << 10, 1 << 16)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK_CAPTURE(translate, block_comments, Padding::block_comments)
    ->RangeMultiplier(4)->Range(1 << 10, 1 << 16)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK_CAPTURE(translate, statements, Padding::statements)
    ->RangeMultiplier(4)->Range(1 << 10, 1 << 14)->Unit(benchmark::kMillisecond)->Complexity();

BENCHMARK_CAPTURE(translate, one_line, Padding::one_line)
    ->RangeMultiplier(4)->Range(1 << 10, 1 << 14)->Unit(benchmark::kMillisecond)->Complexity();

BENCHMARK_MAIN();
