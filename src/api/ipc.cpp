// CUDA IPC handles of device arrays, and their text form for sending to another process.
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/device_choice.h"
#include "cuda/memory.h"
#include "pykern/device.h"

namespace pykern {

namespace {

Error bad_handle(const std::string& why) {
  return Error::make(ErrorKind::invalid_argument, "not a pykern IPC handle: " + why);
}

std::string hex(const std::array<unsigned char, 64>& bytes) {
  std::string text;
  for (unsigned char b : bytes) text += fmt::format("{:02x}", b);
  return text;
}

bool parse_hex(const std::string& text, std::array<unsigned char, 64>& bytes) {
  if (text.size() != 128 || text.find_first_not_of("0123456789abcdef") != std::string::npos) return false;
  for (size_t i = 0; i < 64; ++i) bytes[i] = static_cast<unsigned char>(std::stoi(text.substr(2 * i, 2), nullptr, 16));
  return true;
}

// The fields of a parsed handle, each checked for its type and range.
Result<IpcHandle> read_fields(const nlohmann::json& j) {
  if (!j.is_object() || j.value("pykern_ipc", 0) != 1) return bad_handle("no 'pykern_ipc': 1 field");
  IpcHandle h;
  if (!j.contains("handle") || !j["handle"].is_string() || !parse_hex(j["handle"].get<std::string>(), h.handle))
    return bad_handle("'handle' is not 128 hexadecimal digits");
  if (!j.contains("offset") || !j["offset"].is_number_unsigned()) return bad_handle("'offset' is not a byte count");
  h.offset = j["offset"].get<uint64_t>();
  if (!j.contains("device") || !j["device"].is_number_unsigned() || j["device"].get<uint64_t>() > 1024)
    return bad_handle("'device' is not a GPU ordinal");
  h.device = static_cast<int>(j["device"].get<uint64_t>());
  if (!j.contains("dtype") || !j["dtype"].is_string()) return bad_handle("'dtype' is not a dtype's description");
  auto dtype = DType::from_descr(j["dtype"].get<std::string>());
  if (!dtype.ok()) return bad_handle("'dtype': " + dtype.error().message);
  h.dtype = *dtype;
  for (const char* key : {"shape", "strides"}) {
    if (!j.contains(key) || !j[key].is_array() || j[key].size() > 32) return bad_handle(fmt::format("'{}' is not a list of at most 32 integers", key));
    for (const auto& v : j[key]) {
      if (!v.is_number_integer()) return bad_handle(fmt::format("'{}' is not a list of integers", key));
      (std::strcmp(key, "shape") == 0 ? h.shape : h.strides).push_back(v.get<int64_t>());
    }
  }
  if (h.shape.size() != h.strides.size()) return bad_handle("'shape' and 'strides' differ in length");
  return h;
}

}  // namespace

std::string IpcHandle::to_bytes() const {
  nlohmann::json j = {{"pykern_ipc", 1}, {"handle", hex(handle)}, {"offset", offset}, {"dtype", dtype.descr()},
                      {"shape", shape},  {"strides", strides},    {"device", device}};
  return j.dump();
}

Result<IpcHandle> IpcHandle::from_bytes(const std::string& bytes) {
  if (bytes.size() > 65536) return bad_handle("longer than 64 KiB");
  nlohmann::json j = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return bad_handle("not JSON");
  return read_fields(j);
}

Result<IpcHandle> ipc_handle(const Array& device) {
  if (device.location() != Location::device)
    return Error::make(ErrorKind::invalid_argument, "ipc_handle shares device memory; this array is not on a GPU");
  if (device.size() == 0)
    return Error::make(ErrorKind::invalid_argument, "ipc_handle: the array has no elements, so no memory to share");
  auto gpu = detail::gpu_of(device);
  if (!gpu.ok()) return gpu.error();
  auto exported = cuda::ipc_export(**gpu, device.data());
  if (!exported.ok()) return exported.error();
  IpcHandle h;
  static_assert(sizeof(exported->handle) == std::tuple_size_v<decltype(h.handle)>);
  std::memcpy(h.handle.data(), &exported->handle, h.handle.size());
  h.offset = exported->offset;
  h.dtype = device.dtype();
  h.shape = device.shape();
  h.strides = device.strides();
  h.device = device.device_id();
  return h;
}

Result<Array> open_ipc_array(const IpcHandle& handle) {
  auto gpu = detail::gpu_for(Backend::cuda);
  if (!gpu.ok()) return gpu.error();
  CUipcMemHandle raw;
  std::memcpy(&raw, handle.handle.data(), sizeof raw);
  auto base = cuda::ipc_open(*gpu, raw);
  if (!base.ok()) return base.error();
  // The allocation's size is not in the handle; the driver's range for the mapping is.
  auto facts = cuda::pointer_facts(**gpu, base->get());
  if (!facts.ok()) return facts.error();
  Array view;
  try {
    view = Array::wrap(static_cast<std::byte*>(base->get()) + handle.offset, handle.dtype, handle.shape, handle.strides,
                       Location::device);
  } catch (const std::invalid_argument& e) {
    return bad_handle(e.what());
  }
  cuda::Span span = cuda::span_of(view);
  if (handle.offset >= facts->bytes || span.lowest < facts->start || span.lowest + span.bytes > facts->start + facts->bytes)
    return bad_handle(fmt::format("its array reaches outside the {} bytes the other process shared", facts->bytes));
  return Array::adopt(*base, view.data(), handle.dtype, handle.shape, view.strides(), Location::device,
                      (*gpu)->info().ordinal);
}

}  // namespace pykern
