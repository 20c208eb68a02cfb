#include "cuda/launcher.h"

#include <fmt/format.h>

#include "api/arguments.h"

namespace pykern::cuda {

namespace {

// Device memory released on every path.
struct DeviceBuffer {
  const Driver* driver = nullptr;
  CUdeviceptr pointer = 0;
  ~DeviceBuffer() {
    if (pointer) driver->mem_free(pointer);
  }
};

// The bytes an array's elements span, from its lowest to its highest element.
struct Span {
  std::byte* lowest = nullptr;
  size_t bytes = 0;
};

Span span_of(const Array& a) {
  if (a.size() == 0) return {};
  int64_t low = 0, high = 0;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    int64_t extent = (a.shape()[axis] - 1) * a.strides()[axis];
    (extent < 0 ? low : high) += extent;
  }
  return {static_cast<std::byte*>(a.data()) + low, static_cast<size_t>(high - low + a.dtype().itemsize)};
}

Result<CUcontext> primary_context(const Driver& d) {
  static CUcontext context = nullptr;
  if (context == nullptr) {
    CUdevice device = 0;
    if (auto s = d.check(d.device_get(&device, 0), "cuDeviceGet", "device 0"); !s.ok()) return s.error();
    if (auto s = d.check(d.primary_ctx_retain(&context, device), "cuDevicePrimaryCtxRetain", "device 0"); !s.ok())
      return s.error();
  }
  if (auto s = d.check(d.ctx_set_current(context), "cuCtxSetCurrent", "device 0"); !s.ok()) return s.error();
  return context;
}

}  // namespace

Result<std::string> device_arch() {
  auto devices = list_devices();
  if (!devices.ok()) return devices.error();
  if (devices->empty()) return Error::make(ErrorKind::driver, "the CUDA driver sees no GPU");
  return devices->front().arch();
}

LoadedModule::~LoadedModule() {
  auto driver = Driver::get();
  if (module_ && driver.ok()) (*driver)->module_unload(module_);
}

Result<std::shared_ptr<LoadedModule>> LoadedModule::load(const std::string& cubin, const std::string& symbol) {
  auto driver = Driver::get();
  if (!driver.ok()) return driver.error();
  const Driver& d = **driver;
  auto context = primary_context(d);
  if (!context.ok()) return context.error();
  std::shared_ptr<LoadedModule> loaded(new LoadedModule());
  loaded->context_ = *context;
  if (auto s = d.check(d.module_load_data(&loaded->module_, cubin.data()), "cuModuleLoadData", "kernel " + symbol); !s.ok())
    return s.error();
  if (auto s = d.check(d.module_get_function(&loaded->function_, loaded->module_, symbol.c_str()), "cuModuleGetFunction",
                       "kernel " + symbol);
      !s.ok())
    return s.error();
  return loaded;
}

Status launch(const LoadedModule& module, const CompiledKernel& kernel, const Launch& config,
              const std::vector<Argument>& args) {
  auto driver = Driver::get();
  if (!driver.ok()) return driver.error();
  const Driver& d = **driver;
  if (auto s = d.check(d.ctx_set_current(module.context()), "cuCtxSetCurrent", "kernel " + kernel.function); !s.ok()) return s;
  std::string what = "kernel '" + kernel.function + "'";
  // Host arrays travel to the device for the launch and back after it.
  std::vector<DeviceBuffer> buffers(args.size());
  std::vector<Argument> device_args = args;
  std::vector<std::pair<size_t, Span>> copied;
  for (size_t i = 0; i < args.size(); ++i) {
    const Array* a = std::get_if<Array>(&args[i]);
    if (!a || a->location() != Location::host) continue;
    Span span = span_of(*a);
    std::byte* device_data = nullptr;
    if (span.bytes > 0) {
      buffers[i].driver = &d;
      if (auto s = d.check(d.mem_alloc(&buffers[i].pointer, span.bytes), "cuMemAlloc", what); !s.ok()) return s;
      if (auto s = d.check(d.memcpy_htod(buffers[i].pointer, span.lowest, span.bytes), "cuMemcpyHtoD", what); !s.ok())
        return s;
      device_data = reinterpret_cast<std::byte*>(buffers[i].pointer) + (static_cast<std::byte*>(a->data()) - span.lowest);
      copied.push_back({i, span});
    }
    device_args[i] = Array::wrap(device_data, a->dtype(), a->shape(), a->strides(), Location::device);
  }
  auto packed = detail::pack_arguments(kernel, device_args, Location::device);
  if (!packed.ok()) return packed.error();
  const Dim3& g = config.grid();
  const Dim3& b = config.block();
  CUstream stream = static_cast<CUstream>(config.stream());
  if (auto s = d.check(d.launch_kernel(module.function(), g.x, g.y, g.z, b.x, b.y, b.z,
                                       static_cast<unsigned>(config.shared_bytes()), stream, packed->pointers.data(), nullptr),
                       "cuLaunchKernel", what);
      !s.ok())
    return s;
  // A kernel fault (an illegal address, a trap from a debug build) shows here.
  if (auto s = d.check(d.ctx_synchronize(), "cuCtxSynchronize", what + " while running"); !s.ok())
    return Error::make(ErrorKind::launch, s.error().message);
  for (const auto& [index, span] : copied) {
    if (auto s = d.check(d.memcpy_dtoh(span.lowest, buffers[index].pointer, span.bytes), "cuMemcpyDtoH", what); !s.ok())
      return s;
  }
  return ok_status();
}

}  // namespace pykern::cuda
