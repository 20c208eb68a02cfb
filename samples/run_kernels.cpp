// A C++ program that loads Python kernels and launches them on its own buffers, with no
// Python anywhere: the embedded API in a page. Runs on the CPU simulator when no GPU is used.
//
//   ./build/samples/run_kernels samples/kernels.py
#include <cmath>
#include <cstdio>
#include <vector>

#include "pykern/module.h"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "samples/kernels.py";
  auto module = pykern::Module::load_file(path);
  if (!module) {
    std::fprintf(stderr, "%s\n", module.error().describe().c_str());
    return 1;
  }

  // vector_add over a million elements with a grid-stride loop.
  const int64_t n = 1 << 20;
  std::vector<float> x(n), y(n), r(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 2.0f * static_cast<float>(i);
  }
  // The API views the program's own memory: no copies.
  auto view = [n](std::vector<float>& v) { return pykern::Array::wrap(v.data(), pykern::DType::of<float>(), {n}); };
  auto add = module->kernel("vector_add");
  if (!add) return std::fprintf(stderr, "%s\n", add.error().message.c_str()), 1;
  if (auto status = add->launch({64}, {256}, view(r), view(x), view(y)); !status) {
    std::fprintf(stderr, "%s\n", status.error().describe().c_str());
    return 1;
  }
  for (int64_t i = 0; i < n; ++i)
    if (r[i] != 3.0f * static_cast<float>(i)) return std::fprintf(stderr, "vector_add: wrong r[%lld]\n", (long long)i), 1;

  // The shared-memory matmul of the Numba docs, 128x128.
  const int64_t size = 128;
  auto A = pykern::Array::zeros(pykern::DType::of<float>(), {size, size});
  auto B = pykern::Array::zeros(pykern::DType::of<float>(), {size, size});
  auto C = pykern::Array::zeros(pykern::DType::of<float>(), {size, size});
  for (int64_t i = 0; i < size; ++i)
    for (int64_t j = 0; j < size; ++j) {
      A.at<float>(i, j) = static_cast<float>((i + j) % 7);
      B.at<float>(i, j) = static_cast<float>((i * j) % 5);
    }
  auto matmul = module->kernel("fast_matmul");
  if (auto status = matmul->launch({size / 16, size / 16}, {16, 16}, A, B, C); !status) {
    std::fprintf(stderr, "%s\n", status.error().describe().c_str());
    return 1;
  }
  double worst = 0;
  for (int64_t i = 0; i < size; ++i)
    for (int64_t j = 0; j < size; ++j) {
      double want = 0;
      for (int64_t k = 0; k < size; ++k) want += A.at<float>(i, k) * B.at<float>(k, j);
      worst = std::max(worst, std::fabs(want - C.at<float>(i, j)));
    }
  if (worst > 1e-3) return std::fprintf(stderr, "fast_matmul: off by %g\n", worst), 1;

  std::printf("vector_add: %lld elements ok\nfast_matmul: %lldx%lld ok (max error %g)\n", (long long)n,
              (long long)size, (long long)size, worst);
  return 0;
}
