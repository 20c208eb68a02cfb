// Module::load_bundle: a module whose kernels were compiled ahead of time by `pykern bundle`.
// The header's data is checked field by field (it is compiled into a program, but may come
// from another pykern, or be edited by hand), copied, and then launched through the same
// specialisations, argument checks and launchers as a module loaded from source.
#include "pykern/bundle.h"
#include "pykern/version.h"

#include <fmt/format.h>
#include <xxhash.h>

#include "api/module_state.h"
#include "cuda/gpu.h"
#include "cuda/launcher.h"
#include "jit/nvrtc.h"
#include "sim/simulator.h"

namespace pykern {

namespace bundle {
const char* host_target() {
#if defined(__x86_64__)
  return "x86_64-linux";
#elif defined(__aarch64__)
  return "aarch64-linux";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return "ppc64le-linux";
#else
  return "unknown";
#endif
}

uint64_t checksum(const char* bytes, size_t size) { return XXH3_64bits(bytes, size); }
}  // namespace bundle

namespace {

Error bad_bundle(const bundle::Data& data, const std::string& why) {
  const char* source = data.source_name ? data.source_name : "?";
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("the kernel bundle made from {} cannot be used: {}", source, why));
}

// One parameter of a bundled kernel, as the launcher's argument checks know parameters.
Result<ParameterInfo> parameter_of(const bundle::Parameter& p) {
  if (p.name == nullptr || p.dtype == nullptr) return Error::make(ErrorKind::invalid_argument, "a parameter lacks its name or dtype");
  auto dtype = DType::from_descr(p.dtype);
  if (!dtype.ok()) return dtype.error();
  if (p.is_array && (p.ndim < 1 || p.ndim > 32 || (p.layout != 'C' && p.layout != 'F' && p.layout != 'A')))
    return Error::make(ErrorKind::invalid_argument, fmt::format("parameter '{}' has ndim {} and layout '{}'", p.name,
                                                                p.ndim, p.layout));
  ParameterInfo info;
  info.name = p.name;
  info.is_array = p.is_array;
  info.dtype = *dtype;
  info.ndim = p.is_array ? p.ndim : 0;
  info.layout = p.is_array ? p.layout : 'A';
  return info;
}

Result<CompiledKernel> kernel_of(const bundle::Kernel& k) {
  if (k.function == nullptr || k.symbol == nullptr || k.signature == nullptr)
    return Error::make(ErrorKind::invalid_argument, "a kernel lacks its name, symbol or signature");
  if (k.parameter_count < 0 || (k.parameter_count > 0 && k.parameters == nullptr))
    return Error::make(ErrorKind::invalid_argument, fmt::format("kernel '{}' lacks its parameters", k.function));
  CompiledKernel kernel;
  kernel.function = k.function;
  kernel.symbol = k.symbol;
  kernel.signature = k.signature;
  kernel.debug = k.debug;
  kernel.cooperative = k.cooperative;
  kernel.prints = k.prints;
  for (int i = 0; i < k.parameter_count; ++i) {
    auto parameter = parameter_of(k.parameters[i]);
    if (!parameter.ok())
      return Error::make(ErrorKind::invalid_argument, fmt::format("kernel '{}': {}", k.function, parameter.error().message));
    kernel.parameters.push_back(std::move(*parameter));
  }
  return kernel;
}

// Whether `size` bytes at `bytes` are the ones the header was written with: a header cut short
// or edited by hand would otherwise reach the driver or dlopen (a truncated library is a SIGBUS
// there), so nothing is loaded before this holds.
bool intact(const char* bytes, size_t size, uint64_t expected) { return bundle::checksum(bytes, size) == expected; }

Result<std::shared_ptr<detail::BundledCode>> code_of(const bundle::Data& data) {
  auto code = std::make_shared<detail::BundledCode>();
  if (data.image_count < 0 || (data.image_count > 0 && data.images == nullptr))
    return bad_bundle(data, "its GPU images are missing");
  for (int i = 0; i < data.image_count; ++i) {
    const bundle::Image& image = data.images[i];
    if (image.arch == nullptr || image.data == nullptr || image.size == 0)
      return bad_bundle(data, fmt::format("GPU image {} is empty", i));
    if (!intact(image.data, image.size, image.checksum))
      return bad_bundle(data, fmt::format("GPU image {} ({}, {} bytes) does not match its checksum: the header was cut "
                                          "short or changed; make it again with `pykern bundle`",
                                          i, image.arch, image.size));
    code->images.push_back({image.arch, std::string(image.data, image.size)});
  }
  if (data.host_library == nullptr && data.host_library_size > 0)
    return bad_bundle(data, "its simulator build is missing");
  if (data.host_library != nullptr && data.host_library_size > 0 &&
      !intact(data.host_library, data.host_library_size, data.host_library_checksum))
    return bad_bundle(data, fmt::format("its simulator build ({} bytes) does not match its checksum: the header was cut "
                                        "short or changed; make it again with `pykern bundle`",
                                        data.host_library_size));
  if (data.host_library != nullptr && data.host_library_size > 0) {
    std::string target = data.host_target ? data.host_target : "";
    // Another machine's simulator build (a cross-compiled program) leaves the GPU code usable;
    // a CPU launch says why it cannot run.
    if (target == bundle::host_target())
      code->host_library.assign(data.host_library, data.host_library_size);
    else
      code->no_host_library = fmt::format("its simulator build is for {}, and this machine is {}: make the bundle on "
                                          "a {} machine, or launch on the GPU", target.empty() ? "?" : target,
                                          bundle::host_target(), bundle::host_target());
  }
  if (code->images.empty() && code->host_library.empty())
    return bad_bundle(data, code->no_host_library.empty() ? "it holds neither GPU images nor a simulator build"
                                                          : code->no_host_library);
  return code;
}

}  // namespace

Result<Module> Module::load_bundle(const bundle::Data& data) {
  return detail::guarded([&]() -> Result<Module> {
    if (data.format != bundle::format_version)
      return bad_bundle(data, fmt::format("it has format {}, and this pykern reads format {}; make it again with "
                                          "`pykern bundle`", data.format, bundle::format_version));
    std::string made_by = data.pykern_version ? data.pykern_version : "?";
    // The simulator build calls into this library's engine, and the launchers lay arguments
    // out as this version does: a bundle is used by the pykern that made it.
    if (made_by != version())
      return bad_bundle(data, fmt::format("pykern {} made it, and this program links pykern {}; make it again with "
                                          "this pykern (pykern_add_kernels does, at build time)", made_by, version()));
    if (data.kernel_count < 0 || (data.kernel_count > 0 && data.kernels == nullptr))
      return bad_bundle(data, "its kernel list is missing");
    auto code = code_of(data);
    if (!code.ok()) return code.error();
    Module module;
    auto state = std::make_shared<detail::ModuleState>();
    state->name = data.source_name ? data.source_name : "bundle";
    state->options.use_cache = false;
    state->bundled = *code;
    for (int i = 0; i < data.kernel_count; ++i) {
      auto kernel = kernel_of(data.kernels[i]);
      if (!kernel.ok()) return bad_bundle(data, kernel.error().message);
      auto s = std::make_shared<detail::Specialization>();
      s->debug = kernel->debug;
      s->kernel = std::move(*kernel);
      auto& forms = state->forms[s->kernel.function].declared;
      if (forms.empty()) {
        state->kernels.push_back(s->kernel.function);
        std::vector<std::string> names;
        for (const ParameterInfo& p : s->kernel.parameters) names.push_back(p.name);
        state->parameters.push_back(std::move(names));
      }
      forms.push_back(std::move(s));
    }
    module.state_ = std::move(state);
    return module;
  });
}

namespace detail {

Result<const BundledCode::Image*> choose_bundle_image(const BundledCode& code, int major, int minor,
                                                      const std::string& module_name) {
  const BundledCode::Image* best_cubin = nullptr;
  const BundledCode::Image* best_ptx = nullptr;
  int cubin_arch = -1, ptx_arch = -1;
  int device = major * 10 + minor;
  for (const BundledCode::Image& image : code.images) {
    auto name = jit::parse_arch(image.arch);
    if (!name) continue;
    int arch = name->number;
    // A cubin runs on its major version at the same or a later minor; an "a" cubin only on its
    // own architecture. PTX is compiled by the driver for any later GPU.
    if (name->cubin && arch / 10 == major && arch % 10 <= minor && (!name->specific || arch == device) &&
        arch > cubin_arch) {
      best_cubin = &image;
      cubin_arch = arch;
    }
    if (!name->cubin && !name->specific && arch <= device && arch > ptx_arch) {
      best_ptx = &image;
      ptx_arch = arch;
    }
  }
  if (best_cubin) return best_cubin;
  if (best_ptx) return best_ptx;
  std::string held;
  for (const BundledCode::Image& image : code.images) held += (held.empty() ? "" : ", ") + image.arch;
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("the kernel bundle made from {} has no code this GPU (sm_{}) can run; it holds: {}. "
                                 "Make it again with sm_{} among its architectures", module_name, device, held.empty() ? "none" : held,
                                 device));
}

Status ModuleState::load_bundled_gpu(Specialization& s) {
  auto gpu = cuda::Gpu::current();
  if (!gpu.ok()) return gpu.error();
  const cuda::DeviceInfo& device = (*gpu)->info();
  auto image = choose_bundle_image(*bundled, device.major, device.minor, name);
  if (!image.ok()) return image.error();
  auto loaded = cuda::GpuKernel::load(*gpu, (*image)->bytes, s.kernel, s.debug);
  if (!loaded.ok()) return loaded.error();
  s.gpu = *loaded;
  return ok_status();
}

Status ModuleState::load_bundled_library(Specialization& s) {
  if (!bundled->library) {
    if (bundled->host_library.empty())
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("the kernel bundle made from {} cannot run on the CPU simulator: {}", name,
                                     bundled->no_host_library.empty()
                                         ? "it has no simulator build (it was made without one); launch on the GPU, or "
                                           "make it again with the simulator's build"
                                         : bundled->no_host_library));
    auto library = sim::load_library(bundled->host_library);
    if (!library.ok()) return library.error();
    bundled->library = *library;
  }
  s.library = bundled->library;
  return ok_status();
}

Error ModuleState::cannot_compile_bundled(const std::string& kernel, const std::string& signature) const {
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("kernel '{}' comes from a bundle compiled ahead of time from {}: it runs with the "
                                 "signatures the bundle holds, and cannot be compiled for {} here; make the "
                                 "bundle again with a signature for '{}'",
                                 kernel, name, signature.empty() ? "other arguments" : "'" + signature + "'", kernel));
}

}  // namespace detail

}  // namespace pykern
