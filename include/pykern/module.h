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
//
// Threads: a Module, its Kernels, Ufuncs, Reductions and Functions may be used from any number
// of threads at once. Copies share one state; specialising, compiling and loading are done
// once, under the module's lock, and a thread that needs what another is compiling waits for
// it. Launches from several threads run concurrently (on the simulator, each on its own
// blocks; on a GPU, on the streams they name). Arrays are views: two launches that write the
// same memory at once race, as they would in CUDA.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "pykern/arguments.h"
#include "pykern/array.h"
#include "pykern/compiler.h"
#include "pykern/launch.h"
#include "pykern/result.h"
#include "pykern/scalar.h"

namespace pykern {

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
  // Arguments as pykern/arguments.h converts them: arrays, vectors, spans, views, numbers.
  template <class... A, if_arguments<A...> = 0>
  Status launch(const Launch& config, A&&... args) const {
    return launch(config, std::vector<Argument>{to_argument(std::forward<A>(args))...});
  }
  template <class... A, if_arguments<A...> = 0>
  Status launch(Dim3 grid, Dim3 block, A&&... args) const {
    return launch(Launch(grid, block), std::vector<Argument>{to_argument(std::forward<A>(args))...});
  }
  // Compiles for a signature now (Numba's syntax); returns the kernel's argument types.
  Result<std::string> specialize(const std::string& signature) const;
  // The argument types of every specialisation made so far, as Numba's kernel.signatures
  // lists them: "(array(float32, 1d, C), float32)", in the order they were made.
  std::vector<std::string> signatures() const;
  // The kernel's source annotated with the type of every parameter and assigned local for one
  // signature, as Numba's inspect_types() prints them.
  Result<std::string> inspect_types(const std::string& signature) const;
  // The backend a launch (or an allocation) with `requested` would use.
  static Backend resolve(Backend requested);
  // The kernel's launch on `backend` for these arguments, compiled if need be, ready to go:
  // what the first launch would do, without launching (for timing a cold start, or warming up).
  // Once `cancel` says so, a simulator build stops its host compiler and the call fails with
  // ErrorKind::cancelled (the translation and an NVRTC compile run to their end first).
  Status prepare(const std::vector<Argument>& args, Backend backend = Backend::automatic,
                 const CancelToken& cancel = {}) const;

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
  // What a name is: "kernel", "vectorize", "guvectorize", "reduce", "function" (@jit / @njit),
  // "device function" (@cuda.jit(device=True): kernels call it, the host cannot), or "".
  std::string kind_of(const std::string& name) const;
  // Every name kind_of knows, kernels first, then functions, device functions and ufuncs.
  std::vector<std::string> names() const;
  const std::vector<std::string>& kernel_names() const;
  const std::string& name() const;
  // Rendered warnings of loading the file. A kernel without a signature is compiled when first
  // launched, as Numba compiles it, so what is wrong with it is an error then; found at load, it
  // is a warning here, and the file's other kernels run.
  const std::string& warnings() const;

 private:
  std::shared_ptr<detail::ModuleState> state_;
};

}  // namespace pykern
