// Device and pinned memory as Arrays, and the copies between host and device.
//
// A copy moves the bytes in one transfer when both sides are contiguous with the same layout.
// A strided device view whose elements are mostly gaps, or come in wide runs, moves as rows
// (cuMemcpy2D) through a packed host buffer; other views go through a host buffer laid out like
// the device's span, so the gaps of a strided device view are never overwritten.
#pragma once
#include <memory>

#include "cuda/gpu.h"
#include "pykern/array.h"

namespace pykern::cuda {

// The bytes an array's elements span, from its lowest element to the end of its highest.
struct Span {
  std::byte* lowest = nullptr;
  size_t bytes = 0;
};
Span span_of(const Array& a);

// Uninitialised device memory (as numba.cuda.device_array), freed with the last view of it.
Result<Array> device_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order);
// Page-locked host memory (numba.cuda.pinned_array): copies from and to it run at full speed
// and can overlap kernels.
Result<Array> pinned_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order);

// Copies on `stream` (null: the default stream, and the copy is complete on return).
Status copy_to_device(const Gpu& gpu, const Array& host, const Array& device, CUstream stream);
Status copy_to_host(const Gpu& gpu, const Array& device, const Array& host, CUstream stream);
Status copy_device_to_device(const Gpu& gpu, const Array& from, const Array& to, CUstream stream);

}  // namespace pykern::cuda
