// kernel_resources reads a cubin's ELF as cuobjdump -res-usage does (registers, stack, shared
// and constant memory), spills as ptxas -v counts them, and the parameter table; occupancy
// follows NVIDIA's occupancy calculator; `pykern compile --resources` prints both. A garbled
// cubin is an error, never a crash.
#include <algorithm>
#include <random>
#include <regex>

#include <doctest/doctest.h>

#include "case_selection.h"
#include "cli_run.h"
#include "helpers.h"
#include "jit/nvrtc.h"
#include "parameter_bank.h"
#include "pykern/compiler.h"

namespace fs = std::filesystem;

namespace {

const pykern::KernelResources* find(const std::vector<pykern::KernelResources>& functions, const std::string& symbol) {
  auto it = std::find_if(functions.begin(), functions.end(), [&](const auto& f) { return f.symbol == symbol; });
  return it == functions.end() ? nullptr : &*it;
}

std::string fixture(const std::string& name) { return test::read(test::source_dir() / "tests/cubin" / name); }

// Register pressure past __launch_bounds__(1024, 2)'s 32 registers spills; a shared array with
// a barrier; parameters of several sizes and alignments, a struct by value among them.
const char* const resource_kernels = R"(
extern "C" __global__ void __launch_bounds__(1024, 2) spill(float* a, int n) {
  float v[48];
  #pragma unroll
  for (int k = 0; k < 48; ++k) v[k] = a[k * n + threadIdx.x];
  for (int r = 0; r < n; ++r) {
    #pragma unroll
    for (int k = 0; k < 48; ++k) v[k] = v[k] * v[(k + 1) % 48] + v[(k + 17) % 48];
  }
  float s = 0;
  #pragma unroll
  for (int k = 0; k < 48; ++k) s += v[k];
  a[threadIdx.x] = s;
}
extern "C" __global__ void shared(float* a) {
  __shared__ float tile[512];
  tile[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = tile[511 - threadIdx.x];
}
struct Triple { double x[3]; };
extern "C" __global__ void params(char c, double d, float* p, Triple t, short h) { p[0] = c + d + t.x[1] + h; }
)";

struct PtxasReport {
  int registers = -1, barriers = -1;
  int64_t frame = -1, spill_stores = -1, spill_loads = -1, smem = 0;
};

// ptxas -v's lines for each function: "Compiling entry function 'NAME'", "N bytes stack frame,
// N bytes spill stores, N bytes spill loads", "Used N registers, used N barriers, N bytes smem".
std::map<std::string, PtxasReport> ptxas_reports(const std::string& log) {
  std::map<std::string, PtxasReport> reports;
  std::regex entry(R"(Compiling entry function '([^']+)')"), frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)"),
      used(R"(Used (\d+) registers, used (\d+) barriers(, (\d+) bytes smem)?)");
  std::string current;
  std::stringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) current = m[1];
    else if (std::regex_search(line, m, frame)) {
      reports[current].frame = std::stoll(m[1]);
      reports[current].spill_stores = std::stoll(m[2]);
      reports[current].spill_loads = std::stoll(m[3]);
    } else if (std::regex_search(line, m, used)) {
      reports[current].registers = std::stoi(m[1]);
      reports[current].barriers = std::stoi(m[2]);
      if (m[4].matched) reports[current].smem = std::stoll(m[4]);
    }
  }
  return reports;
}

}  // namespace

TEST_CASE("kernel_resources reads registers, spills, stack and shared memory as ptxas -v reports them") {
  if (!pykern::jit::nvrtc_version().ok()) return test::skip("NVRTC not found: no cubin to make");
  for (const char* arch : {"sm_80", "sm_90"}) {
    CAPTURE(arch);
    pykern::jit::NvrtcRequest request{resource_kernels, "resources.cu", arch, pykern::jit::Output::cubin,
                                      {"--ptxas-options=-v"}, 3};
    auto compiled = pykern::jit::nvrtc_compile(request);
    REQUIRE_MESSAGE(compiled.ok(), compiled.error().describe());
    auto functions = pykern::kernel_resources(compiled->binary);
    REQUIRE_MESSAGE(functions.ok(), functions.error().describe());
    auto reports = ptxas_reports(compiled->log);
    REQUIRE(reports.size() == 3);
    for (const auto& [symbol, report] : reports) {
      CAPTURE(symbol);
      const pykern::KernelResources* k = find(*functions, symbol);
      REQUIRE(k);
      CHECK(k->is_kernel);
      CHECK(k->arch == std::stoi(std::string(arch).substr(3)));
      CHECK(k->registers == report.registers);
      CHECK(k->barriers == report.barriers);
      CHECK(k->stack_bytes == report.frame);
      CHECK(k->spill_store_bytes == report.spill_stores);
      CHECK(k->spill_load_bytes == report.spill_loads);
      CHECK(k->shared_bytes - (k->shared_includes_reserve ? 1024 : 0) == report.smem);
    }
    const pykern::KernelResources* spill = find(*functions, "spill");
    CHECK(spill->spill_store_bytes > 0);  // the test holds only while the kernel spills
    CHECK(spill->max_threads_per_block == 1024);
    // params(char c, double d, float* p, Triple t, short h): each at its alignment.
    const pykern::KernelResources* params = find(*functions, "params");
    REQUIRE(params->parameters.size() == 5);
    std::vector<std::pair<int64_t, int64_t>> places;
    for (const auto& p : params->parameters) places.push_back({p.offset, p.size});
    CHECK(places == std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {8, 8}, {16, 8}, {24, 24}, {48, 2}});
    CHECK(params->parameter_bank_bytes == 50);
  }
}

// Values cuobjdump -res-usage (CUDA 13) printed for these cubins, kept in tests/cubin so that
// the reader is checked without NVRTC, whatever its version:
//   matmul_shared.sm_90.cubin (tests/corpus/seeds/s003_matmul_shared, made by pykern)
//   spill.sm_80.cubin (`spill` above, made by NVRTC 13.0 for sm_80)
TEST_CASE("kernel_resources agrees with cuobjdump -res-usage on recorded cubins") {
  SUBCASE("sm_90") {
    auto functions = pykern::kernel_resources(fixture("matmul_shared.sm_90.cubin"));
    REQUIRE_MESSAGE(functions.ok(), functions.error().describe());
    REQUIRE(functions->size() == 1);
    const pykern::KernelResources& k = functions->front();
    CHECK(k.symbol == "pk_kernel_py_cuda_fast_matmul_51bd1c30");
    CHECK(k.registers == 32);
    CHECK(k.stack_bytes == 0);
    CHECK(k.shared_bytes == 3072);
    CHECK(k.local_bytes == 0);
    CHECK(k.constant_bytes == 648);
    CHECK(k.shared_includes_reserve);
    CHECK(k.parameters.size() == 3);  // three 2-d arrays of 40 bytes
    CHECK(k.parameter_bank_bytes == 120);
  }
  SUBCASE("sm_80") {
    auto functions = pykern::kernel_resources(fixture("spill.sm_80.cubin"));
    REQUIRE_MESSAGE(functions.ok(), functions.error().describe());
    const pykern::KernelResources* k = find(*functions, "spill");
    REQUIRE(k);
    CHECK(k->arch == 80);
    CHECK(k->registers == 32);
    CHECK(k->stack_bytes == 224);
    CHECK(k->shared_bytes == 0);
    CHECK(k->constant_bytes == 364);
    CHECK(k->spill_store_bytes == 400);  // ptxas -v: 400 bytes spill stores, 464 bytes spill loads
    CHECK(k->spill_load_bytes == 464);
    const pykern::KernelResources* shared = find(*functions, "shared");
    REQUIRE(shared);
    CHECK(shared->shared_bytes == 2048);
    CHECK(!shared->shared_includes_reserve);
  }
}

// Hostile input: every truncation and thousands of bit flips of real cubins read to a result or
// an error (ASan and UBSan in CI see any read out of bounds), and what reads is usable.
TEST_CASE("a truncated or bit-flipped cubin is an error or a result, never a crash") {
  int errors = 0, results = 0;
  auto read = [&](const std::string& bytes) {
    auto functions = pykern::kernel_resources(bytes);
    if (!functions.ok()) {
      CHECK(functions.error().kind == pykern::ErrorKind::invalid_argument);
      CHECK(functions.error().message.rfind("not a readable cubin: ", 0) == 0);
      ++errors;
      return;
    }
    ++results;
    for (const pykern::KernelResources& k : *functions)
      for (int block : {0, 1, 256, 1024}) (void)pykern::occupancy(k, block);
  };
  std::mt19937 random(12345);
  for (const char* name : {"matmul_shared.sm_90.cubin", "spill.sm_80.cubin"}) {
    CAPTURE(name);
    std::string cubin = fixture(name);
    REQUIRE(cubin.size() > 1000);
    for (size_t length = 0; length < cubin.size(); length += length < 512 ? 1 : 7) read(cubin.substr(0, length));
    for (int i = 0; i < 3000; ++i) {
      std::string flipped = cubin;
      for (int flips = 1 + static_cast<int>(random() % 4); flips > 0; --flips)
        flipped[random() % flipped.size()] ^= static_cast<char>(1u << (random() % 8));
      read(flipped);
    }
    // Header fields made extreme: section counts, offsets and sizes.
    for (size_t field : {0x28, 0x3a, 0x3c, 0x3e}) {
      std::string extreme = cubin;
      std::fill_n(extreme.begin() + field, 2, '\xff');
      read(extreme);
    }
  }
  read("");
  read("\x7f" "ELF");
  read(std::string(4096, '\0'));
  CHECK(errors > 0);
  CHECK(results > 0);
  MESSAGE(errors << " garbled cubins refused, " << results << " read");
}

namespace {
pykern::KernelResources kernel_using(int arch, int registers, int64_t shared = 0, int barriers = 0) {
  pykern::KernelResources k;
  k.symbol = "k";
  k.is_kernel = true;
  k.arch = arch;
  k.registers = registers;
  k.shared_bytes = shared;
  k.shared_includes_reserve = arch >= 90 && shared > 0;
  k.barriers = barriers;
  return k;
}
}  // namespace

// Cases worked by the occupancy calculator's rules (CUDA_Occupancy_Calculator / cuda_occupancy.h).
TEST_CASE("occupancy follows NVIDIA's occupancy calculator") {
  auto at = [](const pykern::KernelResources& k, int block, int64_t dynamic = 0) {
    auto o = pykern::occupancy(k, block, dynamic);
    REQUIRE_MESSAGE(o.ok(), o.error().describe());
    return *o;
  };
  // 32 registers: 2048 threads fit an sm_90 multiprocessor in any block size.
  pykern::Occupancy full = at(kernel_using(90, 32), 1024);
  CHECK(full.blocks_per_sm == 2);
  CHECK(full.warps_per_sm == 64);
  CHECK(full.max_warps_per_sm == 64);
  CHECK(full.limited_by == "warps, registers");
  // 64 registers: 2048 per warp, 8 warps per sub-partition, 32 warps.
  CHECK(at(kernel_using(90, 64), 256).blocks_per_sm == 4);
  CHECK(at(kernel_using(90, 64), 256).limited_by == "registers");
  // 255 registers (8192 per warp): a block of 32 warps cannot be placed at all; 8 warps fit.
  CHECK(at(kernel_using(90, 255), 1024).blocks_per_sm == 0);
  pykern::Occupancy best = at(kernel_using(90, 255), 0);
  CHECK(best.block_size == 256);
  CHECK(best.blocks_per_sm == 1);
  // 37 registers round to 1280 per warp: 12 warps per sub-partition, 48 warps.
  CHECK(at(kernel_using(90, 37), 128).blocks_per_sm == 12);
  // Shared memory: 48 KiB declared (49 KiB in an sm_90 section) plus the 1 KiB reserve, in 128s.
  CHECK(at(kernel_using(90, 16, 48 * 1024 + 1024), 128).blocks_per_sm == 233472 / (49152 + 1024));
  CHECK(at(kernel_using(80, 16, 48 * 1024), 128).blocks_per_sm == 167936 / (49152 + 1024));
  CHECK(at(kernel_using(80, 16), 128, 100 * 1024).blocks_per_sm == 1);
  CHECK(at(kernel_using(75, 16, 1000), 32).blocks_per_sm == 16);  // 16 blocks per SM on Turing
  // Barriers bind from sm_90 on: 64 slots over 16 named barriers.
  CHECK(at(kernel_using(90, 16, 0, 16), 32).blocks_per_sm == 4);
  CHECK(at(kernel_using(90, 16, 0, 16), 32).limited_by == "barriers");
  // sm_86 holds 1536 threads: the best block is the largest that divides them (768).
  pykern::Occupancy ampere = at(kernel_using(86, 32), 0);
  CHECK(ampere.block_size == 768);
  CHECK(ampere.warps_per_sm == 48);
  CHECK(at(kernel_using(120, 32), 0).warps_per_sm == 48);
  CHECK(at(kernel_using(100, 32), 0).warps_per_sm == 64);
  // A compiled-in limit caps the block size: under 96, 64 threads fill the multiprocessor (32
  // blocks), where 96 leave a warp idle (21 blocks).
  pykern::KernelResources bounded = kernel_using(90, 32);
  bounded.max_threads_per_block = 96;
  CHECK(at(bounded, 0).block_size == 64);
  CHECK(at(bounded, 96).warps_per_sm == 63);
  CHECK(!pykern::occupancy(bounded, 128).ok());
  CHECK(!pykern::occupancy(kernel_using(60, 32), 128).ok());
  CHECK(!pykern::occupancy(kernel_using(90, 32), 128, 300 * 1024).ok());
}

TEST_CASE("pykern compile --resources prints each kernel's resources and occupancy, as text and JSON") {
  if (!pykern::jit::nvrtc_version().ok()) return test::skip("NVRTC not found: no cubin to read");
  test::Scratch scratch;
  fs::path kernel = scratch.write("k.py", "from numba import cuda\n\n@cuda.jit\ndef scale(a, s):\n"
                                          "    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= s\n");
  std::string base = "compile '" + kernel.string() + "' --sig 'scale=void(float32[::1], float32)' --resources";
  test::CliRun text = test::run_cli(base + " --block 96", scratch.cache_env());
  REQUIRE_MESSAGE(text.status == 0, text.output);
  CHECK(std::regex_search(text.output, std::regex(R"(scale \(\S+\): \d+ registers, no spills, stack 0 B, local 0 B, shared 0 B, constant \d+ B)")));
  CHECK(text.output.find("sm_90 occupancy: best 2 blocks/SM of 1024 threads, 64/64 warps (100%)") != std::string::npos);
  CHECK(text.output.find("at --block 96: 21 blocks/SM of 96 threads, 63/64 warps (98%), limited by warps") !=
        std::string::npos);
  test::CliRun json = test::run_cli(base + " --json", scratch.cache_env());
  REQUIRE_MESSAGE(json.status == 0, json.output);
  nlohmann::json parsed = nlohmann::json::parse(json.output);
  const nlohmann::json& resources = parsed["kernels"][0]["resources"];
  CHECK(resources["registers"].get<int>() > 0);
  CHECK(resources["spill_store_bytes"] == 0);
  CHECK(resources["parameter_bytes"] == 28);  // an array of 1 dimension (24 bytes), then a float32
  CHECK(resources["occupancy"]["warps_per_sm"] == 64);
  // --resources needs a cubin, --block needs --resources: usage errors.
  test::CliRun ptx = test::run_cli(base + " --emit ptx", scratch.cache_env());
  CHECK(ptx.status == 2);
  CHECK(ptx.output.find("--resources reads the cubin, and --emit ptx makes none") != std::string::npos);
  test::CliRun block = test::run_cli("compile '" + kernel.string() + "' --block 64", scratch.cache_env());
  CHECK(block.status == 2);
  CHECK(block.output.find("give --resources too") != std::string::npos);
  test::CliRun zero = test::run_cli(base + " --block 0", scratch.cache_env());
  CHECK(zero.status == 2);
}

// Parameters of every size and alignment a kernel takes (bool and int8 of 1 byte, float16 of 2,
// complex64 aligned to 4, complex128 to 8, a record by value, arrays of 8 + 16 * ndim bytes) lie
// in the cubin's parameter bank where the launcher's layout puts them.
TEST_CASE("the launcher's parameter layout is the cubin's for every kind of parameter") {
  if (!pykern::jit::nvrtc_version().ok()) return test::skip("NVRTC not found: no cubin to read");
  const char* source =
      "from numba import cuda\n\n"
      "@cuda.jit\n"
      "def mix(b, i1, h, c8, c16, i2, a, u1, f):\n"
      "    a[0, 0, 0] = i1 + i2 + u1 + f + (1 if b else 0) + h + c8.real + c16.imag\n\n"
      "@cuda.jit\n"
      "def rec(b, r, c, out):\n"
      "    out[0] = r.x + r.y + c + (1 if b else 0)\n";
  pykern::CompileOptions options;
  options.arch = "sm_90";
  options.use_cache = false;
  options.signatures = {
      {"mix", "void(boolean, int8, float16, complex64, complex128, int16, float64[:, :, :], uint8, float32)"},
      {"rec", "void(boolean, Record(16, ('x', int8, 0), ('y', float64, 8)), int8, float64[::1])"}};
  auto compiled = pykern::compile_source(source, "mix.py", options);
  REQUIRE_MESSAGE(compiled.ok(), compiled.error().describe());
  REQUIRE(compiled->kernels.size() == 2);
  test::check_parameter_banks(*compiled);
  std::vector<size_t> offsets;
  for (const auto& place : pykern::detail::parameter_bank_layout(compiled->kernels[0])) offsets.push_back(place.offset);
  CHECK(offsets == std::vector<size_t>{0, 1, 2, 4, 16, 32, 40, 96, 100});
  CHECK(pykern::detail::parameter_bank_bytes(compiled->kernels[0]) == 104);
}
