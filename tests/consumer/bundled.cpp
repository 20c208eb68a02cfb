// Runs kernels.py's kernels from the bundle pykern_add_kernels made at build time, and checks
// the results. Run with no kernels.py nearby and no NVRTC loadable, it shows neither is needed.
//   bundled
#include <cstdio>
#include <vector>

#include "kernels_bundle.h"

namespace {
int fail(const pykern::Status& status) {
  std::fprintf(stderr, "%s\n", status.error().describe().c_str());
  return 1;
}
}  // namespace

int main() {
  const int64_t n = 1000;
  // float32, C-contiguous: std::vector<float> is a pykern::View<float, 1>.
  std::vector<float> x(n), y(n), out(n);
  for (int64_t i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f;
  if (auto status = kernels::saxpy(pykern::Launch::forall(n), 2.0f, x, y, out); !status) return fail(status);
  for (int64_t i = 0; i < n; ++i)
    if (out[i] != 2.0f * float(i) + 1.0f) return std::fprintf(stderr, "saxpy: wrong out[%lld]\n", (long long)i), 1;
  // float64, any layout: every other element of a vector.
  std::vector<double> xd(2 * n, 1.5), yd(2 * n, 0.25), outd(2 * n, -1.0);
  auto strided = [n](std::vector<double>& v) { return pykern::View<double, 1>(v.data(), {n}, {16}); };
  if (auto status = kernels::saxpy(pykern::Launch::forall(n), 2.0, strided(xd), strided(yd), strided(outd)); !status)
    return fail(status);
  for (int64_t i = 0; i < 2 * n; ++i)
    if (outd[i] != (i % 2 ? -1.0 : 3.25)) return std::fprintf(stderr, "saxpy f8: wrong out[%lld]\n", (long long)i), 1;
  // 2-d int32.
  std::vector<int32_t> m(3 * 5, 2), factors = {1, 10, 100};
  if (auto status = kernels::scale_rows(pykern::Launch({1, 1}, {4, 8}), pykern::View<int32_t, 2>(m.data(), {3, 5}),
                                        factors);
      !status)
    return fail(status);
  if (m[0] != 2 || m[5] != 20 || m[14] != 200) return std::fprintf(stderr, "scale_rows: wrong result\n"), 1;
  // A signature the bundle lacks (float32, strided) is refused at launch, naming what it holds.
  std::vector<float> wide(2 * n);
  auto refused = kernels::saxpy(pykern::Launch::forall(n), 2.0f, pykern::View<float, 1>(wide.data(), {n}, {8}), x, y);
  if (refused.ok() || refused.error().message.find("compiled for") == std::string::npos)
    return std::fprintf(stderr, "a strided float32 saxpy was not refused\n"), 1;
  std::printf("bundled: saxpy and scale_rows ok on the CPU simulator, from %s (pykern %s)\n",
              kernels::bundle_data::data.source_name, pykern::version());
  return 0;
}
