// The embedded API: load a kernel file, get a kernel, launch it on NumPy-style buffers.
//
//   auto module = pykern::Module::load_file("kernels.py");
//   if (!module) { std::cerr << module.error().describe(); return 1; }
//   auto kernel = module->kernel("cuda_fast_matmul");               // specialised lazily per argument types
//   auto status = kernel->launch({4, 4}, {16, 16}, A, B, C);        // grid, block, arguments
//   kernel->launch(pykern::Launch{grid, block}.backend(pykern::Backend::cpu), A, B, C);
//   kernel->specialize("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])");   // eager
//
// Every call returns a Result: a compile error carries the translator's diagnostics, a bad
// argument names the kernel and the parameter, a failing kernel says where and why.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "pykern/array.h"
#include "pykern/compiler.h"
#include "pykern/result.h"
#include "pykern/scalar.h"

namespace pykern {

enum class Backend {
  automatic,  // the GPU when one is present and supported, else the CPU simulator
  cpu,        // the CPU simulator
  cuda,       // an NVIDIA GPU through the driver API
};
const char* to_string(Backend backend);

class Stream;  // pykern/device.h

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(uint32_t x_, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
  uint64_t count() const { return uint64_t(x) * y * z; }
};

class Launch {
 public:
  Launch(Dim3 grid, Dim3 block) : grid_(grid), block_(block) {}
  // Numba's kernel.forall(n): enough threads for n tasks, the block size chosen for you.
  static Launch forall(int64_t tasks);

  Launch& stream(void* stream) { stream_ = stream; return *this; }  // a CUstream
  Launch& stream(const Stream& stream);
  Launch& shared_bytes(size_t bytes) { shared_bytes_ = bytes; return *this; }
  Launch& backend(Backend backend) { backend_ = backend; return *this; }
  // A launch still running after `seconds` fails with a TimeoutError. On the simulator its
  // threads stop at their next loop iteration. On a GPU the launch waits for the kernel (even
  // with device arrays only) and, since a GPU kernel cannot be stopped, a kernel past its
  // timeout leaves that GPU refusing all further work until the process restarts. 0: no timeout.
  Launch& timeout(double seconds) { timeout_ = seconds; return *this; }

  const Dim3& grid() const { return grid_; }
  const Dim3& block() const { return block_; }
  void* stream() const { return stream_; }
  size_t shared_bytes() const { return shared_bytes_; }
  Backend backend() const { return backend_; }
  double timeout() const { return timeout_; }
  std::optional<int64_t> forall_tasks() const { return forall_tasks_; }

 private:
  Dim3 grid_, block_;
  void* stream_ = nullptr;
  size_t shared_bytes_ = 0;
  Backend backend_ = Backend::automatic;
  double timeout_ = 0;
  std::optional<int64_t> forall_tasks_;  // set by forall(n)
};

using Argument = std::variant<Array, Scalar>;

struct ModuleOptions {
  bool use_cache = true;
  std::string cache_dir;  // empty: the default kernel cache
  bool debug = false;     // compile every kernel as with debug=True
};

namespace detail {
struct ModuleState;
}
namespace bundle {
struct Data;  // pykern/bundle.h
}
class Ufunc;
class Reduction;
class Function;  // pykern/function.h

class Kernel {
 public:
  const std::string& name() const { return name_; }
  const std::vector<std::string>& parameter_names() const { return parameters_; }

  Status launch(const Launch& launch, const std::vector<Argument>& args) const;
  template <class... A>
  Status launch(const Launch& config, const A&... args) const {
    return launch(config, std::vector<Argument>{Argument(args)...});
  }
  template <class... A>
  Status launch(Dim3 grid, Dim3 block, const A&... args) const {
    return launch(Launch(grid, block), std::vector<Argument>{Argument(args)...});
  }
  // Compiles for a signature now (Numba's syntax); returns the kernel's argument types.
  Result<std::string> specialize(const std::string& signature) const;
  // The backend a launch (or an allocation) with `requested` would use.
  static Backend resolve(Backend requested);
  // The kernel's launch on `backend` for these arguments, compiled if need be, ready to go:
  // what the first launch would do, without launching (for timing a cold start, or warming up).
  Status prepare(const std::vector<Argument>& args, Backend backend = Backend::automatic) const;

 private:
  friend class Module;
  Kernel(std::shared_ptr<detail::ModuleState> module, std::string name, std::vector<std::string> parameters)
      : module_(std::move(module)), name_(std::move(name)), parameters_(std::move(parameters)) {}
  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
  std::vector<std::string> parameters_;
};

class Module {
 public:
  static Result<Module> load_file(const std::string& path, ModuleOptions options = {});
  static Result<Module> load_source(std::string text, std::string name, ModuleOptions options = {});
  // The kernels of a header made by `pykern bundle` (pykern/bundle.h): compiled ahead of time,
  // they launch without NVRTC or the .py file, with the signatures the bundle holds only.
  static Result<Module> load_bundle(const bundle::Data& data);

  Result<Kernel> kernel(const std::string& name) const;
  Result<Ufunc> ufunc(const std::string& name) const;          // @vectorize or @guvectorize
  Result<Reduction> reduction(const std::string& name) const;  // @cuda.reduce
  Result<Function> function(const std::string& name) const;    // @jit / @njit, called on the host
  // What a name is: "kernel", "vectorize", "guvectorize", "reduce", "function" (@jit), or "".
  std::string kind_of(const std::string& name) const;
  const std::vector<std::string>& kernel_names() const;
  const std::string& name() const;

 private:
  std::shared_ptr<detail::ModuleState> state_;
};

}  // namespace pykern
