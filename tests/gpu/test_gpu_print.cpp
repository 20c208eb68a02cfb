// print() on a GPU, through `pykern run` (issue 28, item 16): the GPU prints what the simulator
// prints, past printf's 32 values too; a launch that returns at once still has its output shown,
// because the command waits for the GPU before it ends; and many threads' lines all arrive, the
// printf buffer being grown past CUDA's 1 MiB. Skips itself without a GPU.
#include <algorithm>
#include <string>

#include <doctest/doctest.h>

#include "../unit/cli_run.h"
#include "../unit/helpers.h"
#include "cuda/driver.h"
#include "pykern/npy.h"

namespace fs = std::filesystem;

namespace {

bool have_gpu() {
  auto devices = pykern::cuda::list_devices();
  if (devices.ok() && !devices->empty()) return true;
  MESSAGE("no GPU: skipped");
  return false;
}

// The kernels the simulator's tests use too (tests/unit/test_print.cpp).
const std::string printing = test::read(test::source_dir() / "tests/print/printing.py");

// What `pykern run FILE KERNEL ARGS` prints on stdout with `backend`, and its exit status.
std::pair<int, std::string> printed(const test::Scratch& s, const std::string& kernel, const std::string& args,
                                    const std::string& backend) {
  fs::path file = s.write("printing.py", printing);
  fs::path out = s.path / ("stdout-" + kernel + "-" + backend);
  test::CliRun run = test::run_cli("run " + file.string() + " " + kernel + " " + args + " --backend " + backend +
                                       " --out " + (s.path / "out").string(),
                                   s.cache_env(), "> " + out.string());
  if (run.status != 0) MESSAGE(run.output);
  return {run.status, test::read(out)};
}

}  // namespace

TEST_CASE("gpu: print() prints on the GPU what it prints in the simulator, past printf's 32 values too") {
  if (!have_gpu()) return;
  test::Scratch s;
  std::string r = (s.path / "r.npy").string();
  for (const char* kernel : {"items", "values"}) {
    CAPTURE(kernel);
    REQUIRE(pykern::save_npy(r, pykern::Array::from<int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9})).ok());
    auto gpu = printed(s, kernel, r + " --grid 1 --block 1", "cuda");
    REQUIRE(pykern::save_npy(r, pykern::Array::from<int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9})).ok());
    auto simulator = printed(s, kernel, r + " --grid 1 --block 1", "cpu");
    CHECK(gpu.first == 0);
    CHECK(simulator.first == 0);
    CHECK(gpu.second == simulator.second);
  }
}

TEST_CASE("gpu: a launch that returns at once still prints: pykern run waits for the GPU before it ends") {
  if (!have_gpu()) return;
  test::Scratch s;
  auto run = printed(s, "hello", "5 --grid 1 --block 1", "cuda");
  CHECK(run.first == 0);
  CHECK(run.second == "hello 5\n");
}

TEST_CASE("gpu: 262144 threads' lines all arrive: the printf buffer is grown past CUDA's 1 MiB") {
  if (!have_gpu()) return;
  test::Scratch s;
  auto run = printed(s, "many", "262144 --grid 1024 --block 256", "cuda");
  CHECK(run.first == 0);
  CHECK(std::count(run.second.begin(), run.second.end(), '\n') == 262144);
  CHECK(run.second.find("thread 262143 of 262144\n") != std::string::npos);
}
