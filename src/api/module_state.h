// Internal to the API: what a loaded module keeps (its text, its compiled specialisations).
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "abi/arguments.h"
#include "api/specialization_note.h"
#include "cache/cache.h"
#include "compiler/translate.h"
#include "pykern/module.h"
#include "cuda/launcher.h"
#include "sim/simulator.h"

namespace pykern {

namespace detail {

// One compiled form of a kernel, and what runs it.
struct Specialization {
  CompiledKernel kernel;
  // Empty when it came from a note (api/specialization_note.h): the digest finds the library.
  std::string simulator_source;
  std::string simulator_digest;
  bool simulator_uses_cxx_runtime = false;
  bool debug = false;
  // A host call's one-thread kernel: built as Numba's CPU target builds the function
  // (sim::BuildOptions::cpu_function), its checks and fastmath as the function asks.
  bool cpu_function = false;
  bool boundscheck = false;
  FastMath fastmath;
  std::shared_ptr<sim::Library> library;  // the CPU simulator's build, made on first CPU launch
  std::string signature;                  // what it was compiled for ("" for the decorator's)
  std::optional<compiler::GeneratedKernel> generated;  // a kernel pykern writes, not the module's
  // Loaded on the current GPU with its launch prepared, on first GPU launch there; loaded again
  // when select_gpu chooses another GPU (a module belongs to one context).
  std::shared_ptr<cuda::GpuKernel> gpu;
};

// A module loaded from a bundle (pykern/bundle.h): its kernels compiled ahead of time, copied
// out of the header's data when loaded.
struct BundledCode {
  struct Image {
    std::string arch;  // "sm_90": a cubin; "compute_90": PTX
    std::string bytes;
  };
  std::vector<Image> images;
  std::string host_library;               // the simulator's build; empty when left out
  std::string no_host_library;            // why a build the bundle holds cannot be used here
  std::shared_ptr<sim::Library> library;  // host_library loaded, on first CPU launch
};

// The image of a bundle a GPU of compute capability `major`.`minor` runs: the cubin of the
// newest architecture of its major version not newer than it ("sm_90a" only on 9.0), else the
// PTX of the newest architecture not newer than it. An error lists what the bundle holds.
Result<const BundledCode::Image*> choose_bundle_image(const BundledCode& code, int major, int minor,
                                                      const std::string& module_name);

// A @jit function typed for one set of argument types, and the one-thread kernel that calls it
// (api/function.cpp).
struct HostCall {
  std::string function;
  std::vector<ArgumentType> given;  // the argument types it was typed for
  compiler::FunctionReturn returns;
  std::string warnings;  // of typing the function for these arguments
  std::shared_ptr<Specialization> caller;
  // Per argument, the type of one passed as encoded bytes (a str, list, dict, tuple), in
  // signature syntax; "" for a scalar or array. Empty when none is (api/host_values.h).
  std::vector<std::string> encoded;
  bool encoded_result = false;  // the value comes back as encoded bytes (Returned::other)
};

// " from x.npy" for an argument whose array says where it came from (Array::label), else "".
inline std::string label_of(const Argument& argument) {
  const Array* array = std::get_if<Array>(&argument);
  return array && !array->label().empty() ? " from " + array->label() : "";
}

struct ModuleState {
  std::string text;
  std::string name;
  std::string warnings;  // of loading the file
  ModuleOptions options;
  std::vector<std::string> kernels;
  std::vector<std::vector<std::string>> parameters;
  std::vector<compiler::GeneratorFunction> generators;
  std::vector<std::string> host_functions;  // @jit / @njit
  std::vector<std::vector<std::string>> host_function_parameters;
  std::vector<std::string> device_functions;  // @cuda.jit(device=True): not callable from the host
  std::vector<std::shared_ptr<HostCall>> host_calls;  // one per function and argument types
  // Kernels generated for ufuncs, gufuncs, reductions and host calls, by compiler::describe.
  std::map<std::string, std::shared_ptr<Specialization>> generated;
  // @vectorize signatures without a return type, by "name(argument types)": what the function
  // returns for them (api/ufunc.cpp).
  std::map<std::string, DType> ufunc_results;
  // The loops a @vectorize without signatures (Numba's DUFunc) compiled for calls, by name, in
  // the order they were added: NumPy chooses among them (api/ufunc.cpp).
  std::map<std::string, std::vector<compiler::GeneratorSignature>> dufunc_loops;
  std::optional<cache::KernelCache> cache;
  std::shared_ptr<BundledCode> bundled;  // set for Module::load_bundle: nothing is compiled then
  std::mutex mutex;
  // A kernel's compiled forms, found with one lookup per launch.
  struct KernelForms {
    // Specialised eagerly with Kernel::specialize, tried before anything else.
    std::vector<std::shared_ptr<Specialization>> eager;
    // The decorator's signatures, compiled together when the module was loaded.
    std::vector<std::shared_ptr<Specialization>> declared;
    // Specialised from launch arguments, one per argument types seen.
    std::vector<std::shared_ptr<Specialization>> specialized;
  };
  std::map<std::string, KernelForms> forms;

  cache::KernelCache* disk_cache() { return cache && cache->enabled() ? &*cache : nullptr; }

  // Translates for the simulator: `kernel` of the module's text specialised with `signature`,
  // or the generated kernel. One specialisation per compiled kernel. `origin` names the
  // signature in errors about its text (KernelSignature::origin).
  Result<std::vector<std::shared_ptr<Specialization>>> compile(const std::string& kernel, const std::string& signature,
                                                               const std::optional<compiler::GeneratedKernel>& generated = {},
                                                               const std::string& origin = {});
  // The specialisations a translation holds (every kernel its decorator or signature typed).
  std::vector<std::shared_ptr<Specialization>> specializations_of(const compiler::Translation& translation,
                                                                  const std::string& signature,
                                                                  const std::optional<compiler::GeneratedKernel>& generated);

  // The specialisation a launch with `args` uses: an eager one that accepts them, else one of
  // the decorator's signatures, else the one compiled for exactly these argument types (the
  // first launch compiles it). Warm launches find it without building any text.
  Result<std::shared_ptr<Specialization>> specialization(const std::string& kernel, const std::vector<Argument>& args) {
    std::lock_guard<std::mutex> lock(mutex);
    KernelForms& known = forms[kernel];
    for (const auto& s : known.eager)
      if (detail::accepts(s->kernel, args)) return s;
    const auto& fixed = known.declared;
    if (!fixed.empty()) {
      for (const auto& s : fixed)
        if (detail::accepts(s->kernel, args)) return s;
      std::string offered;
      for (const auto& s : fixed) offered += "\n  " + s->kernel.signature;
      auto wanted = signature_for(args);
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("no signature of kernel '{}' accepts these arguments {}; it was compiled for:{}",
                                     kernel, wanted.ok() ? *wanted : "", offered));
    }
    for (const auto& s : known.specialized)
      if (detail::matches_exactly(s->kernel, args)) return s;
    auto signature = signature_for(args);
    if (!signature.ok())
      return Error::make(ErrorKind::invalid_argument, fmt::format("kernel '{}': {}", kernel, signature.error().message));
    auto compiled = compile(kernel, *signature);
    if (!compiled.ok()) return while_specialising(compiled.error(), kernel, args);
    if (compiled->size() != 1) return Error::make(ErrorKind::internal, "expected one specialisation of " + kernel);
    known.specialized.push_back(compiled->front());
    return compiled->front();
  }

  // A translation of the module's text to CUDA C++, without the disk cache (what typing and the
  // simulator need); a GPU load sets what to emit, the architecture and the cache.
  compiler::Request typing_request() const;
  // The same for `kernel` specialised with `signature` (its decorator's when empty), or for
  // the generated kernel.
  compiler::Request request_for(const std::string& kernel, const std::string& signature,
                                const std::optional<compiler::GeneratedKernel>& generated,
                                const std::string& origin = {}) const;
  // A compile error met while specialising `kernel` for `args`, with a note naming the
  // argument types, as Numba's "During: ..." lines do: the error in the kernel follows from them.
  Error while_specialising(Error error, const std::string& kernel, const std::vector<Argument>& args) const {
    if (error.kind != ErrorKind::compile) return error;
    std::vector<std::string> names;
    for (size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i] == kernel) names = parameters[i];
    std::string types;
    for (size_t i = 0; i < args.size(); ++i)
      types += fmt::format("{}{}{}{}", i ? ", " : "", i < names.size() ? names[i] + ": " : "", numba_type_name(args[i]),
                           label_of(args[i]));
    if (!error.message.empty() && error.message.back() != '\n') error.message += '\n';
    error.message += fmt::format("note: while specialising kernel '{}' for ({})\n", kernel, types);
    return error;
  }
  // A noted specialisation's simulator source, translated again (its library was not in the cache).
  Status translate_again(Specialization& s);
  // The specialisations an earlier process noted for `kernel` and `signature`, if any.
  std::optional<std::vector<std::shared_ptr<Specialization>>> noted(const std::string& note_key,
                                                                    const std::string& signature);
  std::vector<std::shared_ptr<Specialization>> specializations_from(const SpecializationNote& note,
                                                                    const std::string& signature);
  // One kernel's specialisation, with what a translation and a note both give it.
  std::shared_ptr<Specialization> new_specialization(const CompiledKernel& kernel, const std::string& signature) const;
  // Compiles a kernel pykern writes (once per form): translated with the module's text.
  Result<std::shared_ptr<Specialization>> compile_generated(const compiler::GeneratedKernel& kernel);
  // Makes ready what a launch on `backend` needs: the simulator's build, or the GPU's module.
  // `cancel` stops the simulator's host compiler (an NVRTC compile runs to its end).
  Status prepare(Specialization& s, Backend backend, const CancelToken& cancel = {});
  // Packs the arguments, builds the simulator library if needed, launches.
  Status run(Specialization& s, const Launch& config, const std::vector<Argument>& args);

  // Bundled modules: the simulator's build and the GPU image, as the bundle holds them (the
  // mutex held).
  Status load_bundled_library(Specialization& s);
  Status load_bundled_gpu(Specialization& s);
  // Why a bundled module cannot compile `kernel` for `signature`.
  Error cannot_compile_bundled(const std::string& kernel, const std::string& signature) const;

  // Compiles the specialisation to a cubin for the current GPU and loads it (once per GPU):
  // the kernel to launch there.
  Result<std::shared_ptr<cuda::GpuKernel>> ensure_gpu(Specialization& s);

  Status ensure_library(Specialization& s, const CancelToken& cancel = {}) {
    std::lock_guard<std::mutex> lock(mutex);
    if (s.library) return ok_status();
    if (bundled) return load_bundled_library(s);
    sim::BuildOptions build{s.debug,     s.simulator_uses_cxx_runtime, s.cpu_function, s.boundscheck,
                            s.fastmath, cancel.can_be_cancelled() ? &cancel : nullptr};
    if (s.simulator_source.empty() && !s.simulator_digest.empty()) {
      auto cached = sim::load_cached_library(s.simulator_digest, build, disk_cache());
      if (!cached.ok()) return cached.error();
      if (*cached) {
        s.library = *cached;
        return ok_status();
      }
      if (auto source = translate_again(s); !source.ok()) return source;  // the library is gone: build it
    }
    auto library = sim::build_library(s.simulator_source, build, disk_cache());
    if (!library.ok()) return library.error();
    s.library = *library;
    return ok_status();
  }
};

// Runs a public API call so that no exception escapes it: memory that cannot be had (a huge
// broadcast, a huge array) is an error that says so; anything else is a pykern bug, reported.
template <class F> auto guarded(F&& call) -> decltype(call()) {
  try {
    return call();
  } catch (const std::bad_alloc&) {
    return Error::make(ErrorKind::invalid_argument, "not enough memory for the arrays this call needs");
  } catch (const std::exception& e) {
    return Error::make(ErrorKind::internal, std::string("internal error: ") + e.what());
  }
}

// Where `name` is in one of a module's lists of names (its kernels, its @jit functions), or an
// error that names the module and lists them: "m.py has no kernel named 'x' (its kernels: a, b)".
Result<size_t> find_named(const ModuleState& module, const std::vector<std::string>& names, const std::string& name,
                          const std::string& what, const std::string& plural);

}  // namespace detail

}  // namespace pykern
