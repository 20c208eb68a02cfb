// pykern's own host work per GPU launch (argument checks, specialisation lookup, packing),
// measured against the fake driver of the unit tests, whose cuLaunchKernel does nothing: what
// pykern adds on top of a bare cuLaunchKernel (about 2 µs on a real driver). The whole launch,
// driver included, is measured on a GPU by bench_gpu.
#include <benchmark/benchmark.h>

#include <optional>

#include "../tests/unit/fake_driver.h"
#include "pykern/device.h"
#include "pykern/module.h"

using namespace pykern;

namespace {

// The seed's grid-stride add: three 1-d arrays, as bench_gpu's launch-overhead case.
const char* add_file = PYKERN_SOURCE_DIR "/tests/corpus/seeds/s001_cupy_add_gridstride/kernel.py";

struct Setup {
  test::FakeDriver fake;
  std::optional<Module> module;
  std::optional<Kernel> kernel;
  Array a, b, out;
  Setup() {
    fake.parameter_count = 3;
    fake.select_gpu();
    module = Module::load_file(add_file).value();
    kernel = module->kernel("add").value();
    a = device_array(DType::int_(64), {1024}, Order::C, Backend::cuda).value();
    b = device_array(DType::int_(64), {1024}, Order::C, Backend::cuda).value();
    out = device_array(DType::int_(64), {1024}, Order::C, Backend::cuda).value();
    if (!kernel->prepare({a, b, out}, Backend::cuda).ok()) std::abort();  // NVRTC, once
  }
};

void launch_three_arrays(benchmark::State& state) {
  Setup s;
  Launch launch = Launch(1, 32).backend(Backend::cuda);
  for (auto _ : state) {
    if (!s.kernel->launch(launch, s.a, s.b, s.out).ok()) std::abort();
    s.fake.launches.clear();
    s.fake.calls.clear();
  }
}
BENCHMARK(launch_three_arrays);

void launch_three_arrays_prebuilt_vector(benchmark::State& state) {
  Setup s;
  Launch launch = Launch(1, 32).backend(Backend::cuda);
  std::vector<Argument> args = {s.a, s.b, s.out};
  for (auto _ : state) {
    if (!s.kernel->launch(launch, args).ok()) std::abort();
    s.fake.launches.clear();
    s.fake.calls.clear();
  }
}
BENCHMARK(launch_three_arrays_prebuilt_vector);

}  // namespace

BENCHMARK_MAIN();
