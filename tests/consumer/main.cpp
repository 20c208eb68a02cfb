// Runs kernels.py's saxpy through the installed pykern (CPU simulator) and checks the result.
//   consumer path/to/kernels.py
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "pykern/module.h"
#include "pykern/version.h"

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: consumer kernels.py\n"), 2;
  auto module = pykern::Module::load_file(argv[1]);
  if (!module) return std::fprintf(stderr, "%s\n", module.error().describe().c_str()), 1;
  auto saxpy = module->kernel("saxpy");
  if (!saxpy) return std::fprintf(stderr, "%s\n", saxpy.error().describe().c_str()), 1;
  const int64_t n = 1000;
  std::vector<float> x(n), y(n), out(n);
  for (int64_t i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f;
  auto view = [n](std::vector<float>& v) { return pykern::Array::wrap(v.data(), pykern::DType::of<float>(), {n}); };
  pykern::Launch launch = pykern::Launch({8}, {128}).backend(pykern::Backend::cpu);
  if (auto status = saxpy->launch(launch, {pykern::Scalar(2.0f), view(x), view(y), view(out)}); !status)
    return std::fprintf(stderr, "%s\n", status.error().describe().c_str()), 1;
  for (int64_t i = 0; i < n; ++i)
    if (out[i] != 2.0f * float(i) + 1.0f) return std::fprintf(stderr, "saxpy: wrong out[%lld]\n", (long long)i), 1;
  // Vectors and spans launch as 1-d arrays: a const span is an input, a vector the output.
  std::vector<float> again(n);
  if (auto status = saxpy->launch(launch, 3.0f, std::span<const float>(x), y, again); !status)
    return std::fprintf(stderr, "%s\n", status.error().describe().c_str()), 1;
  if (again[10] != 31.0f) return std::fprintf(stderr, "saxpy with spans: wrong out[10]\n"), 1;
  // Reading a failed Result throws, carrying the error's text.
  try {
    (void)module->kernel("no_such_kernel")->name();
    return std::fprintf(stderr, "a failed Result was read without an exception\n"), 1;
  } catch (const pykern::BadResultAccess& e) {
    if (std::string(e.what()).find("no_such_kernel") == std::string::npos)
      return std::fprintf(stderr, "BadResultAccess does not name the kernel: %s\n", e.what()), 1;
  }
  std::printf("consumer: saxpy ok on the %s (pykern %s)\n", "CPU simulator", pykern::version());
  return 0;
}
