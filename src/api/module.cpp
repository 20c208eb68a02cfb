#include "pykern/module.h"

#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "api/arguments.h"
#include "base/source_file.h"
#include "jit/cache.h"
#include "sim/simulator.h"

namespace pykern {

namespace detail {

// One compiled form of a kernel, and what runs it.
struct Specialization {
  CompiledKernel kernel;
  std::string simulator_source;
  bool debug = false;
  std::shared_ptr<sim::Library> library;  // the CPU simulator's build, made on first CPU launch
};

struct ModuleState {
  std::string text;
  std::string name;
  ModuleOptions options;
  std::vector<std::string> kernels;
  std::vector<std::vector<std::string>> parameters;
  std::optional<jit::KernelCache> cache;
  std::mutex mutex;
  // Kernels whose decorator gives signatures: those, compiled together.
  std::map<std::string, std::vector<std::shared_ptr<Specialization>>> declared;
  // Kernels specialised eagerly with Kernel::specialize, tried before anything else.
  std::map<std::string, std::vector<std::shared_ptr<Specialization>>> eager;
  // Kernels specialised from their arguments: by kernel and signature.
  std::map<std::string, std::shared_ptr<Specialization>> specialized;

  jit::KernelCache* disk_cache() { return cache && cache->enabled() ? &*cache : nullptr; }

  // Compiles `kernel` (with `signature`, or with its decorator's) for the simulator.
  Result<std::vector<std::shared_ptr<Specialization>>> compile(const std::string& kernel,
                                                               const std::string& signature) {
    CompileOptions options;
    options.emit = EmitKind::cuda;
    options.use_cache = false;
    options.want_simulator = true;
    options.kernels = {kernel};
    if (!signature.empty()) options.signatures.push_back({kernel, signature});
    std::string source = text;
    auto output = compile_source(source, name, options);
    if (!output.ok()) return output.error();
    std::vector<std::shared_ptr<Specialization>> result;
    for (const CompiledKernel& k : output->kernels) {
      auto s = std::make_shared<Specialization>();
      s->kernel = k;
      s->simulator_source = output->simulator_source;
      s->debug = k.debug || this->options.debug;
      result.push_back(s);
    }
    return result;
  }

  const std::vector<std::shared_ptr<Specialization>>& declared_for(const std::string& kernel) {
    auto found = declared.find(kernel);
    if (found != declared.end()) return found->second;
    auto compiled = compile(kernel, "");
    return declared[kernel] = compiled.ok() ? *compiled : std::vector<std::shared_ptr<Specialization>>{};
  }

  Result<std::shared_ptr<Specialization>> specialization(const std::string& kernel, const std::vector<Argument>& args) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& s : eager[kernel])
      if (detail::accepts(s->kernel, args)) return s;
    const auto& fixed = declared_for(kernel);
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
    auto signature = signature_for(args);
    if (!signature.ok())
      return Error::make(ErrorKind::invalid_argument, fmt::format("kernel '{}': {}", kernel, signature.error().message));
    std::string key = kernel + "|" + *signature;
    if (auto found = specialized.find(key); found != specialized.end()) return found->second;
    auto compiled = compile(kernel, *signature);
    if (!compiled.ok()) return compiled.error();
    if (compiled->size() != 1) return Error::make(ErrorKind::internal, "expected one specialisation of " + kernel);
    return specialized[key] = compiled->front();
  }

  Status ensure_library(Specialization& s) {
    std::lock_guard<std::mutex> lock(mutex);
    if (s.library) return ok_status();
    auto library = sim::build_library(s.simulator_source, s.debug, disk_cache());
    if (!library.ok()) return library.error();
    s.library = *library;
    return ok_status();
  }
};

}  // namespace detail

const char* to_string(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
  }
  return "?";
}

Launch Launch::forall(int64_t tasks) {
  // Any block size gives Numba's answer for kernels that check their index; 128 keeps the
  // simulator's blocks small and a GPU's occupancy reasonable.
  uint32_t block = static_cast<uint32_t>(std::clamp<int64_t>(tasks, 1, 128));
  uint32_t grid = static_cast<uint32_t>(std::max<int64_t>((tasks + block - 1) / block, 1));
  return Launch(grid, block);
}

Backend Kernel::resolve(Backend requested) {
  // The CUDA launcher is not part of this build yet: automatic means the simulator.
  return requested == Backend::automatic ? Backend::cpu : requested;
}

namespace {
Status check_launch(const std::string& kernel, const Launch& launch) {
  const Dim3& g = launch.grid();
  const Dim3& b = launch.block();
  auto refuse = [&](const std::string& why) {
    return Error::make(ErrorKind::launch, fmt::format("cannot launch kernel '{}' with grid ({}, {}, {}) and block "
                                                      "({}, {}, {}): {}", kernel, g.x, g.y, g.z, b.x, b.y, b.z, why));
  };
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0)
    return refuse("every dimension must be at least 1");
  if (b.count() > 1024) return refuse("a block has at most 1024 threads");
  if (b.z > 64) return refuse("a block's z dimension is at most 64");
  if (g.x > 2147483647u || g.y > 65535 || g.z > 65535) return refuse("the grid is at most (2^31-1, 65535, 65535)");
  return ok_status();
}
}  // namespace

Status Kernel::launch(const Launch& config, const std::vector<Argument>& args) const {
  try {
    if (auto checked = check_launch(name_, config); !checked.ok()) return checked;
    if (args.size() != parameters_.size()) {
      std::string names;
      for (const std::string& p : parameters_) names += (names.empty() ? "" : ", ") + p;
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("kernel '{}' takes {} argument{} ({}), {} given", name_, parameters_.size(),
                                     parameters_.size() == 1 ? "" : "s", names, args.size()));
    }
    Backend backend = resolve(config.backend());
    if (backend == Backend::cuda)
      return Error::make(ErrorKind::driver, "the CUDA backend is not available in this build of pykern; "
                                            "use the CPU simulator (Backend::cpu)");
    auto specialization = module_->specialization(name_, args);
    if (!specialization.ok()) return specialization.error();
    detail::Specialization& s = **specialization;
    auto packed = detail::pack_arguments(s.kernel, args, Location::host);
    if (!packed.ok()) return packed.error();
    if (auto built = module_->ensure_library(s); !built.ok()) return built;
    const Dim3& g = config.grid();
    const Dim3& b = config.block();
    auto ran = sim::launch(*s.library, s.kernel.symbol, {g.x, g.y, g.z}, {b.x, b.y, b.z}, packed->pointers.data());
    if (!ran.ok())
      return Error::make(ErrorKind::launch, fmt::format("kernel '{}' failed: {}", name_, ran.error().message));
    return ok_status();
  } catch (const std::exception& e) {
    return Error::make(ErrorKind::internal, std::string("internal error: ") + e.what());
  }
}

Result<std::string> Kernel::specialize(const std::string& signature) const {
  std::lock_guard<std::mutex> lock(module_->mutex);
  auto compiled = module_->compile(name_, signature);
  if (!compiled.ok()) return compiled.error();
  auto s = compiled->front();
  module_->eager[name_].push_back(s);
  return s->kernel.signature;
}

Result<Module> Module::load_source(std::string text, std::string name, ModuleOptions options) {
  // Checking the whole file now reports its errors at load, as importing it would in Python.
  CompileOptions check;
  check.emit = EmitKind::cuda;
  check.use_cache = false;
  auto checked = compile_source(text, name, check);
  if (!checked.ok()) return checked.error();
  Module module;
  module.state_ = std::make_shared<detail::ModuleState>();
  module.state_->text = std::move(text);
  module.state_->name = std::move(name);
  module.state_->options = options;
  module.state_->kernels = checked->kernel_functions;
  module.state_->parameters = checked->kernel_parameters;
  if (options.use_cache)
    module.state_->cache.emplace(options.cache_dir.empty() ? jit::KernelCache::default_root()
                                                           : std::filesystem::path(options.cache_dir));
  return module;
}

Result<Module> Module::load_file(const std::string& path, ModuleOptions options) {
  auto file = SourceFile::load(path);
  if (!file.ok()) return file.error();
  return load_source(file->text(), path, options);
}

Result<Kernel> Module::kernel(const std::string& name) const {
  for (size_t i = 0; i < state_->kernels.size(); ++i)
    if (state_->kernels[i] == name) return Kernel(state_, name, state_->parameters[i]);
  std::string known;
  for (const std::string& k : state_->kernels) known += (known.empty() ? "" : ", ") + k;
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("{} has no kernel named '{}' (its kernels: {})", state_->name, name,
                                 known.empty() ? "none" : known));
}

const std::vector<std::string>& Module::kernel_names() const { return state_->kernels; }
const std::string& Module::name() const { return state_->name; }

}  // namespace pykern
