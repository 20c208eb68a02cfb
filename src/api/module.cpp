#include "pykern/module.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "abi/arguments.h"
#include "api/module_state.h"
#include "api/stream_capture.h"
#include "api/specialization_note.h"
#include "base/source_file.h"
#include "cache/cache.h"
#include "jit/nvrtc.h"
#include "sim/simulator.h"

namespace pykern {

namespace detail {

std::shared_ptr<Specialization> ModuleState::new_specialization(const CompiledKernel& kernel,
                                                                const std::string& signature) const {
  auto s = std::make_shared<Specialization>();
  s->kernel = kernel;
  s->debug = kernel.debug || options.debug;
  s->signature = signature;
  return s;
}

std::vector<std::shared_ptr<Specialization>> ModuleState::specializations_of(
    const compiler::Translation& translation, const std::string& signature,
    const std::optional<compiler::GeneratedKernel>& generated) {
  std::vector<std::shared_ptr<Specialization>> result;
  for (const CompiledKernel& k : translation.output.kernels) {
    auto s = new_specialization(k, signature);
    s->simulator_source = translation.simulator_source;
    s->simulator_uses_cxx_runtime = translation.simulator_uses_cxx_runtime;
    s->generated = generated;
    result.push_back(std::move(s));
  }
  return result;
}

compiler::Request ModuleState::typing_request() const {
  compiler::Request request{text, name, {}};
  request.options.emit = EmitKind::cuda;
  request.options.use_cache = false;
  request.options.debug = options.debug;
  return request;
}

compiler::Request ModuleState::request_for(const std::string& kernel, const std::string& signature,
                                           const std::optional<compiler::GeneratedKernel>& generated,
                                           const std::string& origin) const {
  compiler::Request request = typing_request();
  request.generated = generated;
  if (generated) return request;
  request.options.kernels = {kernel};
  // No signature means the decorator's; one a caller gave (it has an origin) is parsed even when
  // empty, so that an empty string is refused as one.
  if (!signature.empty() || !origin.empty()) request.options.signatures.push_back({kernel, signature, origin});
  return request;
}

Result<std::vector<std::shared_ptr<Specialization>>> ModuleState::compile(
    const std::string& kernel, const std::string& signature, const std::optional<compiler::GeneratedKernel>& generated,
    const std::string& origin) {
  if (bundled) return cannot_compile_bundled(kernel, signature);
  // A kernel of the file specialised for given types: an earlier process may have noted it.
  std::string note_key;
  if (!generated && !signature.empty() && disk_cache()) {
    note_key = specialization_note_key(name, text, kernel, signature, options.debug);
    if (auto found = noted(note_key, signature)) return std::move(*found);
  }
  compiler::Request request = request_for(kernel, signature, generated, origin);
  request.for_simulator = true;
  auto translated = compiler::translate(request);
  if (!translated.ok()) return translated.error();
  if (!note_key.empty() && !translated->output.kernels.empty()) {
    SpecializationNote note{translated->output.kernels, sim::source_digest(translated->simulator_source),
                            translated->simulator_uses_cxx_runtime};
    if (std::string written = note_text(note); !written.empty()) disk_cache()->note_store(note_key, written);
  }
  return specializations_of(*translated, signature, generated);
}

std::optional<std::vector<std::shared_ptr<Specialization>>> ModuleState::noted(const std::string& note_key,
                                                                               const std::string& signature) {
  auto text = disk_cache()->note_lookup(note_key);
  if (!text) return std::nullopt;
  auto note = parse_note(*text);
  if (!note) return std::nullopt;
  return specializations_from(*note, signature);
}

std::vector<std::shared_ptr<Specialization>> ModuleState::specializations_from(const SpecializationNote& note,
                                                                                const std::string& signature) {
  std::vector<std::shared_ptr<Specialization>> result;
  for (const CompiledKernel& k : note.kernels) {
    auto s = new_specialization(k, signature);
    s->simulator_digest = note.source_digest;
    s->simulator_uses_cxx_runtime = note.uses_cxx_runtime;
    result.push_back(std::move(s));
  }
  return result;
}

Status ModuleState::translate_again(Specialization& s) {
  compiler::Request request = request_for(s.kernel.function, s.signature, s.generated);
  request.for_simulator = true;
  auto translated = compiler::translate(request);
  if (!translated.ok()) return translated.error();
  s.simulator_source = std::move(translated->simulator_source);
  s.simulator_digest = sim::source_digest(s.simulator_source);
  return ok_status();
}

Result<std::shared_ptr<Specialization>> ModuleState::compile_generated(const compiler::GeneratedKernel& kernel) {
  std::lock_guard<std::mutex> lock(mutex);
  std::string key = compiler::describe(kernel);
  if (auto found = generated.find(key); found != generated.end()) return found->second;
  auto compiled = compile(compiler::kernel_name(kernel), kernel.signature, kernel);
  if (!compiled.ok()) return compiled.error();
  if (compiled->size() != 1) return Error::make(ErrorKind::internal, "expected one generated kernel " + key);
  return generated[key] = compiled->front();
}

Result<std::shared_ptr<cuda::GpuKernel>> ModuleState::ensure_gpu(Specialization& s) {
  auto gpu = cuda::Gpu::current();
  if (!gpu.ok()) return gpu.error();
  std::lock_guard<std::mutex> lock(mutex);
  // A kernel loaded on the GPU used before select_gpu chose this one would run in that GPU's
  // context, with this one's pointers and streams.
  if (s.gpu && &s.gpu->gpu() == gpu->get()) return s.gpu;
  if (bundled) {
    if (auto loaded = load_bundled_gpu(s); !loaded.ok()) return loaded.error();
    return s.gpu;
  }
  auto supported = jit::nvrtc_supported_archs();
  if (!supported.ok()) return supported.error();
  const cuda::DeviceInfo& device = (*gpu)->info();
  auto target = jit::choose_gpu_target(device.major * 10 + device.minor, *supported);
  if (!target.ok()) return target.error();
  compiler::Request request = request_for(s.kernel.function, s.signature, s.generated);
  request.options.emit = target->output == jit::Output::cubin ? EmitKind::cubin : EmitKind::ptx;
  request.options.arch = target->arch;
  request.options.use_cache = options.use_cache;
  request.options.cache_dir = options.cache_dir;
  auto translated = compiler::translate(request);
  if (!translated.ok()) return translated.error();
  auto loaded = cuda::GpuKernel::load(*gpu, translated->output.binary, s.kernel, s.debug);
  if (!loaded.ok()) return loaded.error();
  s.gpu = *loaded;
  return s.gpu;
}

Status ModuleState::prepare(Specialization& s, Backend backend, const CancelToken& cancel) {
  if (Kernel::resolve(backend) == Backend::cuda) {
    if (auto loaded = ensure_gpu(s); !loaded.ok()) return loaded.error();
    return ok_status();
  }
  return ensure_library(s, cancel);
}

Status ModuleState::run(Specialization& s, const Launch& config, const std::vector<Argument>& args) {
  if (Kernel::resolve(config.backend()) == Backend::cuda) {
    // The kernel held for the launch: another thread's select_gpu may replace s.gpu meanwhile.
    auto kernel = ensure_gpu(s);
    if (!kernel.ok()) return kernel.error();
    return (*kernel)->launch(config, args);
  }
  if (auto ready = prepare(s, config.backend(), config.cancel_token()); !ready.ok()) return ready;
  PackedArguments packed;
  if (auto packing = pack_arguments(s.kernel, args, Location::host, packed); !packing.ok()) return packing;
  return sim::launch(*s.library, s.kernel.symbol, packed.pointers.data(), config);
}

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
  // simulator's blocks small and a GPU's occupancy reasonable. Counted in 64 bits: a task
  // count past the largest grid is refused by the launch, never wrapped.
  int64_t block = std::clamp<int64_t>(tasks, 1, 128);
  int64_t grid = tasks > 0 ? (tasks - 1) / block + 1 : 1;
  Launch launch(static_cast<uint32_t>(std::min<int64_t>(grid, UINT32_MAX)), static_cast<uint32_t>(block));
  launch.forall_tasks_ = tasks;
  return launch;
}

Backend Kernel::resolve(Backend requested) {
  // The GPU launcher has not yet been run against a device's test suite: until it has,
  // automatic means the simulator and the GPU is used only when asked for.
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
  if (auto tasks = launch.forall_tasks(); tasks && (*tasks < 0 || *tasks > int64_t(2147483647) * 128))
    return Error::make(ErrorKind::launch, fmt::format("cannot launch kernel '{}' for {} tasks: forall takes 0 to "
                                                      "(2^31-1)*128 tasks", kernel, *tasks));
  if (!(launch.timeout() >= 0)) return refuse("the timeout must be a non-negative number of seconds");
  if (launch.progress() && launch.progress_every().count() <= 0)
    return refuse("the progress callback's interval must be at least 1 ms");
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0)
    return refuse("every dimension must be at least 1");
  if (b.count() > 1024) return refuse("a block has at most 1024 threads");
  // sm_80 and sm_90 give a block up to 227 KiB of shared memory; the simulator keeps to it too.
  if (launch.shared_bytes() > 227 * 1024)
    return refuse(fmt::format("{} bytes of dynamic shared memory; a block has at most 227 KiB", launch.shared_bytes()));
  if (b.z > 64) return refuse("a block's z dimension is at most 64");
  if (g.x > 2147483647u || g.y > 65535 || g.z > 65535) return refuse("the grid is at most (2^31-1, 65535, 65535)");
  return ok_status();
}
}  // namespace

namespace {
// Runs a launch (now, or as a graph's replay on the simulator), its errors naming the kernel.
Status run_launch(detail::ModuleState& module, detail::Specialization& specialization, const Launch& config,
                  const std::vector<Argument>& args, const std::string& name) {
  auto ran = module.run(specialization, config, args);
  if (!ran.ok() && ran.error().kind == ErrorKind::launch)
    return Error::make(ErrorKind::launch, fmt::format("kernel '{}' failed: {}", name, ran.error().message));
  if (!ran.ok() && ran.error().kind == ErrorKind::cancelled)
    return Error::make(ErrorKind::cancelled, fmt::format("kernel '{}': {}", name, ran.error().message));
  return ran;
}
}  // namespace

Status Kernel::launch(const Launch& config, const std::vector<Argument>& args) const {
  return detail::guarded([&]() -> Status {
    if (auto checked = check_launch(name_, config); !checked.ok()) return checked;
    if (args.size() != parameters_.size()) return detail::arity_error(name_, parameters_, args.size());
    if (auto data = detail::check_array_data(name_, parameters_, args); !data.ok()) return data;
    auto cancelled_before = [&] {
      return Error::make(ErrorKind::cancelled,
                         fmt::format("kernel '{}': the launch was cancelled before it started; nothing ran", name_));
    };
    if (config.cancel_token().cancel_requested()) return cancelled_before();
    auto specialization = module_->specialization(name_, args);
    if (!specialization.ok()) return specialization.error();
    if (config.cancel_token().cancel_requested()) return cancelled_before();  // during the translation
    if (config.forall_tasks() == 0) return ok_status();  // Numba's forall(0) launches nothing
    if (const auto& capture = config.capture(); capture && capture->active()) {
      if (auto s = detail::check_capturable(name_, *capture, config, args); !s.ok()) return s;
      auto replay = [module = module_, s = *specialization, config, args, name = name_] {
        return run_launch(*module, *s, config, args, name);
      };
      if (capture->take("kernel '" + name_ + "'", args, std::move(replay))) return ok_status();  // the simulator's
    }
    return run_launch(*module_, **specialization, config, args, name_);
  });
}

Status Kernel::prepare(const std::vector<Argument>& args, Backend backend, const CancelToken& cancel) const {
  return detail::guarded([&]() -> Status {
    if (args.size() != parameters_.size()) return detail::arity_error(name_, parameters_, args.size());
    auto specialization = module_->specialization(name_, args);
    if (!specialization.ok()) return specialization.error();
    auto prepared = module_->prepare(**specialization, backend, cancel);
    if (!prepared.ok() && prepared.error().kind == ErrorKind::cancelled)
      return Error::make(ErrorKind::cancelled, fmt::format("kernel '{}': {}", name_, prepared.error().message));
    return prepared;
  });
}

std::vector<std::string> Kernel::signatures() const {
  std::lock_guard<std::mutex> lock(module_->mutex);
  std::vector<std::string> made;
  const detail::ModuleState::KernelForms& forms = module_->forms[name_];
  for (const auto* list : {&forms.declared, &forms.eager, &forms.specialized})
    for (const auto& s : *list)
      if (std::find(made.begin(), made.end(), s->kernel.signature) == made.end()) made.push_back(s->kernel.signature);
  return made;
}

Result<std::string> Kernel::inspect_types(const std::string& signature) const {
  if (module_->bundled) return module_->cannot_compile_bundled(name_, signature);
  compiler::Request request = module_->request_for(name_, signature, std::nullopt, "Kernel::inspect_types for " + name_);
  request.options.want_types = true;
  auto translated = compiler::translate(request);
  if (!translated.ok()) return translated.error();
  return translated->output.types;
}

Result<std::string> Kernel::specialize(const std::string& signature) const {
  std::lock_guard<std::mutex> lock(module_->mutex);
  auto compiled = module_->compile(name_, signature, std::nullopt, "Kernel::specialize for " + name_);
  if (!compiled.ok()) return compiled.error();
  if (compiled->empty()) return Error::make(ErrorKind::internal, "internal error: specialising '" + name_ + "' made nothing");
  auto s = compiled->front();
  module_->forms[name_].eager.push_back(s);
  return s->kernel.signature;
}

namespace {
// What Module::load_source learns by checking the whole file, translated or from its note.
struct CheckedFile {
  detail::ModuleNote note;
  std::optional<compiler::Translation> translation;  // absent when it came from the note
};

Result<CheckedFile> check_file(const std::string& text, const std::string& name, const ModuleOptions& options,
                               cache::KernelCache* cache) {
  std::string key = cache ? detail::module_note_key(name, text, options.debug) : std::string();
  if (cache)
    if (auto stored = cache->note_lookup(key))
      if (auto note = detail::parse_module_note(*stored)) return CheckedFile{std::move(*note), std::nullopt};
  compiler::Request check{text, name, {}};
  check.options.emit = EmitKind::cuda;
  check.options.use_cache = false;
  check.options.debug = options.debug;
  check.for_simulator = true;
  check.defer_unsigned_kernels = true;
  auto checked = compiler::translate(check);
  if (!checked.ok()) return checked.error();
  CheckedFile file;
  file.note.contents = checked->contents;
  file.note.warnings = checked->output.warnings;
  file.note.declared.kernels = checked->output.kernels;
  if (!checked->output.kernels.empty()) file.note.declared.source_digest = sim::source_digest(checked->simulator_source);
  file.note.declared.uses_cxx_runtime = checked->simulator_uses_cxx_runtime;
  if (std::string written = cache ? detail::module_note_text(file.note) : ""; !written.empty())
    cache->note_store(key, written);
  file.translation = std::move(*checked);
  return file;
}
}  // namespace

Result<Module> Module::load_source(std::string text, std::string name, ModuleOptions options) {
  // Checking the whole file now reports its errors at load, as importing it would in Python;
  // the same compile gives the kernels whose decorators carry signatures. A file checked
  // before (the same text, name and options) is taken from its note in the kernel cache.
  Module module;
  module.state_ = std::make_shared<detail::ModuleState>();
  module.state_->options = options;
  if (options.use_cache)
    module.state_->cache.emplace(options.cache_dir.empty() ? cache::KernelCache::default_root()
                                                           : std::filesystem::path(options.cache_dir));
  auto checked = check_file(text, name, options, module.state_->disk_cache());
  if (!checked.ok()) return checked.error();
  const detail::ModuleNote& note = checked->note;
  auto declared = checked->translation ? module.state_->specializations_of(*checked->translation, "", std::nullopt)
                                       : module.state_->specializations_from(note.declared, "");
  for (auto& s : declared) module.state_->forms[s->kernel.function].declared.push_back(s);
  module.state_->text = std::move(text);
  module.state_->name = std::move(name);
  for (const compiler::NamedFunction& kernel : note.contents.kernels) {
    module.state_->kernels.push_back(kernel.name);
    module.state_->parameters.push_back(kernel.parameters);
  }
  for (const compiler::NamedFunction& function : note.contents.host_functions) {
    if (function.device_only) {
      module.state_->device_functions.push_back(function.name);
      continue;
    }
    module.state_->host_functions.push_back(function.name);
    module.state_->host_function_parameters.push_back(function.parameters);
  }
  module.state_->generators = note.contents.generators;
  module.state_->warnings = note.warnings;
  return module;
}

Result<Module> Module::load_file(const std::string& path, ModuleOptions options) {
  auto file = SourceFile::load(path);
  if (!file.ok()) return file.error();
  return load_source(file->text(), path, options);
}

Result<size_t> detail::find_named(const ModuleState& module, const std::vector<std::string>& names,
                                  const std::string& name, const std::string& what, const std::string& plural) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return i;
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  return Error::make(ErrorKind::invalid_argument, fmt::format("{} has no {} named '{}' (its {}: {})", module.name, what,
                                                              name, plural, known.empty() ? "none" : known));
}

Result<Kernel> Module::kernel(const std::string& name) const {
  auto at = detail::find_named(*state_, state_->kernels, name, "kernel", "kernels");
  if (!at.ok()) return at.error();
  return Kernel(state_, name, state_->parameters[*at]);
}

const std::vector<std::string>& Module::kernel_names() const { return state_->kernels; }
const std::string& Module::name() const { return state_->name; }
const std::string& Module::warnings() const { return state_->warnings; }

}  // namespace pykern
