// DLPack with ownership both ways (DLManagedTensorVersioned and the legacy DLManagedTensor),
// read-only tensors, and bfloat16: its storage type, dtype, DLPack code, and the refusals of
// what cannot take it yet (kernels, .npy files).
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "fake_driver.h"
#include "jit/nvrtc.h"
#include "pykern/device.h"
#include "pykern/function.h"
#include "pykern/module.h"
#include "pykern/npy.h"
#include "pykern/ufunc.h"

using namespace pykern;

namespace {

// A producer's tensor over float32 storage it owns: the deleter counts its calls and frees
// the tensor with the storage, as a framework's would.
struct Producer {
  static inline int deleted = 0;
  std::vector<float> storage;
  std::vector<int64_t> shape, strides;
  DLManagedTensorVersioned managed{};

  static void release(DLManagedTensorVersioned* self) {
    ++deleted;
    delete static_cast<Producer*>(self->manager_ctx);
  }
};

DLManagedTensorVersioned* produce(std::vector<float> values, std::vector<int64_t> shape,
                                  std::vector<int64_t> strides = {}, uint64_t flags = 0) {
  auto* p = new Producer;
  p->storage = std::move(values);
  p->shape = std::move(shape);
  p->strides = std::move(strides);
  DLTensor& t = p->managed.dl_tensor;
  t.data = p->storage.data();
  t.device = {kDLCPU, 0};
  t.ndim = static_cast<int32_t>(p->shape.size());
  t.dtype = {kDLFloat, 32, 1};
  t.shape = p->shape.data();
  t.strides = p->strides.empty() ? nullptr : p->strides.data();
  p->managed.version = {1, 0};
  p->managed.manager_ctx = p;
  p->managed.deleter = &Producer::release;
  p->managed.flags = flags;
  return &p->managed;
}

// The same for the legacy struct.
struct LegacyProducer {
  static inline int deleted = 0;
  std::vector<double> storage;
  int64_t shape[1] = {0};
  DLManagedTensor managed{};

  static void release(DLManagedTensor* self) {
    ++deleted;
    delete static_cast<LegacyProducer*>(self->manager_ctx);
  }
};

DLManagedTensor* produce_legacy(std::vector<double> values) {
  auto* p = new LegacyProducer;
  p->storage = std::move(values);
  p->shape[0] = static_cast<int64_t>(p->storage.size());
  DLTensor& t = p->managed.dl_tensor;
  t.data = p->storage.data();
  t.device = {kDLCPU, 0};
  t.ndim = 1;
  t.dtype = {kDLFloat, 64, 1};
  t.shape = p->shape;
  p->managed.manager_ctx = p;
  p->managed.deleter = &LegacyProducer::release;
  return &p->managed;
}

std::string message_of(const Status& s) { return s.ok() ? std::string("(ok)") : s.error().message; }
template <class T> std::string message_of(const Result<T>& r) { return r.ok() ? std::string("(ok)") : r.error().message; }
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

ModuleOptions test_options() {
  ModuleOptions options;
  options.cache_dir =
      (std::filesystem::temp_directory_path() / ("pykern-dlpack-cache-" + std::to_string(::getpid()))).string();
  return options;
}

const char* kernels = R"py(
from numba import cuda, njit, vectorize

@cuda.jit
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor

@njit
def first(a):
    return a[0]

@vectorize(['float32(float32)'], target='cuda')
def twice(x):
    return 2 * x
)py";

Module load() {
  auto module = Module::load_source(kernels, "dlpack_test.py", test_options());
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}

}  // namespace

TEST_CASE("a versioned export shares the array's memory and keeps its storage alive until the deleter") {
  Array a = Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  void* data = a.data();
  auto exported = a.to_dlpack_versioned();
  REQUIRE(exported.ok());
  DLManagedTensorVersioned* m = *exported;
  CHECK(m->version.major == 1);
  CHECK(m->flags == 0);
  CHECK(m->dl_tensor.data == data);
  CHECK(m->dl_tensor.byte_offset == 0);
  CHECK(m->dl_tensor.device.device_type == kDLCPU);
  CHECK(m->dl_tensor.device.device_id == 0);
  CHECK(m->dl_tensor.ndim == 2);
  CHECK(m->dl_tensor.dtype.code == kDLFloat);
  CHECK(m->dl_tensor.dtype.bits == 64);
  CHECK(m->dl_tensor.dtype.lanes == 1);
  CHECK(std::vector<int64_t>(m->dl_tensor.shape, m->dl_tensor.shape + 2) == std::vector<int64_t>{2, 3});
  CHECK(std::vector<int64_t>(m->dl_tensor.strides, m->dl_tensor.strides + 2) == std::vector<int64_t>{3, 1});
  a = Array();  // the tensor alone keeps the storage now (ASan would see a read of freed memory)
  CHECK(static_cast<double*>(m->dl_tensor.data)[5] == 6);
  // Back into pykern: the same memory, owned by the imported array until it goes.
  auto back = Array::from_dlpack(m);
  REQUIRE(back.ok());
  CHECK(back->data() == data);
  CHECK(back->shape() == std::vector<int64_t>{2, 3});
  CHECK(back->strides() == std::vector<int64_t>{24, 8});
  back->at<double>(1, 2) = 60;
  CHECK(static_cast<double*>(data)[5] == 60);
  CHECK_FALSE(back->read_only());
}

TEST_CASE("a transposed view exports element strides; what DLPack cannot describe is refused") {
  Array a = Array::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto t = a.transpose().to_dlpack_versioned();
  REQUIRE(t.ok());
  CHECK(std::vector<int64_t>((*t)->dl_tensor.strides, (*t)->dl_tensor.strides + 2) == std::vector<int64_t>{1, 3});
  (*t)->deleter(*t);
  auto empty = Array::zeros(DType::float_(32), {0, 4}).to_dlpack_versioned();
  REQUIRE(empty.ok());
  CHECK((*empty)->dl_tensor.data == nullptr);  // as DLPack asks of a tensor with no elements
  (*empty)->deleter(*empty);
  float raw[8] = {};
  Array odd = Array::wrap(raw, {3}, {6});  // a byte stride of 6 on 4-byte elements
  CHECK(contains(message_of(odd.to_dlpack_versioned()), "a byte stride of 6 is not a whole number of 4-byte elements"));
  CHECK(contains(message_of(Array::zeros(DType::xoroshiro128p(), {2}).to_dlpack_versioned()), "DLPack has no record dtypes"));
}

TEST_CASE("an imported tensor's deleter is called once, when the last view of it goes") {
  Producer::deleted = 0;
  auto imported = Array::from_dlpack(produce({1, 2, 3, 4, 5, 6}, {2, 3}));
  REQUIRE(imported.ok());
  Array row = *imported->index(0, 1);
  Array column = *imported->slice(1, {1, std::nullopt, std::nullopt});
  Array transposed = imported->transpose();
  *imported = Array();
  CHECK(Producer::deleted == 0);
  CHECK(row.at<float>(2) == 6);  // the views still read the producer's memory
  CHECK(column.at<float>(0, 1) == 3);
  row = Array();
  column = Array();
  CHECK(Producer::deleted == 0);
  CHECK(transposed.at<float>(2, 1) == 6);
  transposed = Array();
  CHECK(Producer::deleted == 1);
}

TEST_CASE("an imported tensor: byte_offset, element strides, and null strides meaning C order") {
  Producer::deleted = 0;
  {
    DLManagedTensorVersioned* m = produce({0, 0, 1, 2, 3, 4, 5, 6}, {2, 3}, {1, 2});  // Fortran order
    m->dl_tensor.byte_offset = 2 * sizeof(float);
    auto a = Array::from_dlpack(m);
    REQUIRE(a.ok());
    CHECK(a->strides() == std::vector<int64_t>{4, 8});
    CHECK(a->is_f_contiguous());
    CHECK(a->at<float>(0, 0) == 1);
    CHECK(a->at<float>(1, 0) == 2);
    CHECK(a->at<float>(1, 2) == 6);
    auto c = Array::from_dlpack(produce({1, 2, 3, 4, 5, 6}, {2, 3}));
    REQUIRE(c.ok());
    CHECK(c->is_c_contiguous());
    CHECK(c->at<float>(1, 0) == 4);
  }
  CHECK(Producer::deleted == 2);
}

TEST_CASE("a tensor of another major version is refused, and stays the caller's to delete") {
  Producer::deleted = 0;
  for (uint32_t major : {0u, 2u}) {
    DLManagedTensorVersioned* m = produce({1, 2}, {2});
    m->version = {major, 3};
    auto refused = Array::from_dlpack(m);
    REQUIRE_FALSE(refused.ok());
    CHECK(contains(refused.error().message, fmt::format("DLPack version {}.3, and pykern reads version 1.x", major)));
    CHECK(contains(refused.error().message, "its deleter is still the caller's to call"));
    CHECK(Producer::deleted == 0);  // pykern did not take it
    m->deleter(m);                  // the spec's rule: the consumer calls the deleter
    CHECK(Producer::deleted == 1);
    Producer::deleted = 0;
  }
  DLManagedTensorVersioned* newer_minor = produce({1, 2}, {2});
  newer_minor->version = {1, 7};  // new enumeration values only: read
  CHECK(Array::from_dlpack(newer_minor).ok());
  CHECK(Producer::deleted == 1);
  CHECK(contains(message_of(Array::from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr))), "null"));
}

TEST_CASE("what pykern cannot hold is refused, and the tensor stays the caller's") {
  Producer::deleted = 0;
  auto refusal = [](void (*spoil)(DLTensor&)) {
    DLManagedTensorVersioned* m = produce({1, 2, 3, 4}, {4});
    spoil(m->dl_tensor);
    auto refused = Array::from_dlpack(m);
    std::string message = message_of(refused);
    CHECK(Producer::deleted == 0);
    m->deleter(m);
    Producer::deleted = 0;
    return message;
  };
  CHECK(contains(refusal([](DLTensor& t) { t.dtype.lanes = 4; }), "vector elements of 4 lanes are not supported"));
  CHECK(contains(refusal([](DLTensor& t) { t.dtype = {8, 8, 1}; }),
                 "8-bit float8 elements (type code 8) are not supported; pykern takes bool"));
  CHECK(contains(refusal([](DLTensor& t) { t.dtype = {kDLBfloat, 32, 1}; }), "32-bit bfloat elements"));
  CHECK(contains(refusal([](DLTensor& t) { t.dtype = {kDLInt, 7, 1}; }), "7-bit integer elements"));
  CHECK(contains(refusal([](DLTensor& t) { t.device = {kDLOpenCL, 0}; }), "device type 4 is not supported"));
  CHECK(contains(refusal([](DLTensor& t) { t.shape[0] = -1; }), "dimension 0 is -1"));
  CHECK(contains(refusal([](DLTensor& t) {
                   static int64_t huge[1] = {int64_t(1) << 62};
                   t.strides = huge;
                 }),
                 "does not fit in 64 bits"));
  CHECK(contains(refusal([](DLTensor& t) {
                   static int64_t shape[2] = {int64_t(1) << 32, int64_t(1) << 32};
                   t.ndim = 2;
                   t.shape = shape;
                 }),
                 "spans more than 2**63 bytes"));
}

TEST_CASE("a read-only tensor gives a read-only array: read, exported read-only, never written") {
  Producer::deleted = 0;
  auto a = Array::from_dlpack(produce({1, 2, 3}, {3}, {}, DLPACK_FLAG_BITMASK_READ_ONLY));
  REQUIRE(a.ok());
  CHECK(a->read_only());
  CHECK(a->at<const float>(2) == 3);
  CHECK_THROWS_WITH_AS(a->at<float>(0), doctest::Contains("the array is read-only"), std::invalid_argument);
  Array view = *a->slice(0, {1, std::nullopt, std::nullopt});
  CHECK(view.read_only());
  CHECK(contains(message_of(copy_elements(Array::from<float>({7, 8, 9}), *a)), "cannot copy into a read-only array"));
  Array copy = a->copy();
  CHECK_FALSE(copy.read_only());
  copy.at<float>(0) = 10;
  // Exported again: still flagged; the legacy struct, which cannot say so, is refused.
  auto again = view.to_dlpack_versioned();
  REQUIRE(again.ok());
  CHECK(((*again)->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0);
  (*again)->deleter(*again);
  CHECK(contains(message_of(view.to_dlpack_legacy()), "a read-only array cannot be exported as a legacy"));
  // A kernel, a host function and a ufunc's out array could write it: refused, by name.
  Module module = load();
  Status launched = module.kernel("scale")->launch(Launch(1, 32), *a, 2.0f);
  CHECK(message_of(launched) ==
        "kernel 'scale': parameter 'a' (argument 1) is a read-only array (a DLPack tensor flagged read-only), and a "
        "kernel may write its array arguments: pass a writable copy (Array::copy() on the host; device_array_like and "
        "copy_to_device on a GPU)");
  CHECK(a->at<const float>(0) == 1);
  CHECK(contains(message_of(module.function("first")->call(*a)), "'first': argument 1 is a read-only array"));
  auto twice = module.ufunc("twice");
  REQUIRE(twice.ok());
  auto doubled = twice->call({*a});  // a vectorize input is only read
  REQUIRE_MESSAGE(doubled.ok(), message_of(doubled));
  CHECK(doubled->at<float>(2) == 6);
  CHECK(contains(message_of(twice->call({copy}, *a)), "'twice': the out array is a read-only array"));
  *a = Array();
  view = Array();
  CHECK(Producer::deleted == 1);
}

TEST_CASE("a kernel on the simulator writes into an imported tensor's memory") {
  Producer::deleted = 0;
  DLManagedTensorVersioned* m = produce({1, 2, 3, 4, 5}, {5});
  float* storage = static_cast<float*>(m->dl_tensor.data);
  {
    Module module = load();
    auto a = Array::from_dlpack(m);
    REQUIRE(a.ok());
    Status launched = module.kernel("scale")->launch(Launch(1, 32).backend(Backend::cpu), *a, 3.0f);
    REQUIRE_MESSAGE(launched.ok(), message_of(launched));
    CHECK(storage[0] == 3);
    CHECK(storage[4] == 15);
    CHECK(Producer::deleted == 0);
  }
  CHECK(Producer::deleted == 1);
  std::filesystem::remove_all(test_options().cache_dir);
}

TEST_CASE("the legacy DLManagedTensor both ways") {
  Array a = Array::from<double>({1.5, 2.5, 3.5});
  auto exported = a.to_dlpack_legacy();
  REQUIRE(exported.ok());
  CHECK((*exported)->dl_tensor.data == a.data());
  CHECK((*exported)->dl_tensor.strides[0] == 1);
  auto back = Array::from_dlpack(*exported);
  REQUIRE(back.ok());
  CHECK(back->data() == a.data());
  CHECK(back->at<double>(1) == 2.5);
  LegacyProducer::deleted = 0;
  {
    auto imported = Array::from_dlpack(produce_legacy({4, 5, 6}));
    REQUIRE(imported.ok());
    CHECK_FALSE(imported->read_only());
    Array tail = *imported->slice(0, {1, std::nullopt, std::nullopt});
    *imported = Array();
    CHECK(LegacyProducer::deleted == 0);
    CHECK(tail.at<double>(1) == 6);
  }
  CHECK(LegacyProducer::deleted == 1);
  DLManagedTensor* lanes = produce_legacy({1, 2});
  lanes->dl_tensor.dtype.lanes = 2;
  CHECK_FALSE(Array::from_dlpack(lanes).ok());
  CHECK(LegacyProducer::deleted == 1);  // refused: not taken
  lanes->deleter(lanes);
  CHECK(LegacyProducer::deleted == 2);
}

TEST_CASE("device memory: a CUDA tensor's GPU is kept, exported again, and checked at a launch") {
  int cookie = 0;  // stands for device memory: never read on the host
  std::shared_ptr<void> owner(&cookie, [](void*) {});
  Array d = Array::adopt(owner, &cookie, DType::float_(32), {1}, {}, Location::device, 3);
  CHECK(d.device_id() == 3);
  auto exported = d.to_dlpack_versioned();
  REQUIRE(exported.ok());
  CHECK((*exported)->dl_tensor.device.device_type == kDLCUDA);
  CHECK((*exported)->dl_tensor.device.device_id == 3);
  auto back = Array::from_dlpack(*exported);
  REQUIRE(back.ok());
  CHECK(back->location() == Location::device);
  CHECK(back->device_id() == 3);
  CHECK_THROWS_AS(back->at<float>(0), std::invalid_argument);  // device memory is not read on the host
  if (!jit::nvrtc_version().ok()) return;
  test::FakeDriver fake;  // device 0
  REQUIRE(fake.select_gpu());
  {
    Module module = load();
    Status launched = module.kernel("scale")->launch(Launch(1, 32).backend(Backend::cuda), *back, 2.0f);
    CHECK(message_of(launched) == "kernel 'scale': parameter 'a' (argument 1) is an array on GPU 3, and the kernel runs "
                                  "on GPU 0 (Fake H200): select its GPU first (pykern::select_gpu(3)), or let this GPU "
                                  "use it (pykern::enable_peer_access(3))");
  }
}

TEST_CASE("unified memory goes out as CUDA managed memory and comes back unified, readable on the host") {
  float values[2] = {1.5f, 2.5f};
  std::shared_ptr<void> owner(values, [](void*) {});
  Array managed = Array::adopt(owner, values, DType::float_(32), {2}, {}, Location::unified, 1);
  CHECK(managed.device_id() == 1);
  CHECK(managed.to_dlpack().device.device_type == kDLCUDAManaged);
  auto exported = managed.to_dlpack_versioned();
  REQUIRE(exported.ok());
  CHECK((*exported)->dl_tensor.device.device_type == kDLCUDAManaged);
  CHECK((*exported)->dl_tensor.device.device_id == 1);
  auto back = Array::from_dlpack(*exported);
  REQUIRE(back.ok());
  CHECK(back->location() == Location::unified);
  CHECK(back->at<float>(1) == 2.5f);  // the host addresses it
}

TEST_CASE("bfloat16 values: rounded to nearest even from float, exact back") {
  auto bits = [](float x) { return bfloat16(x).bits; };
  CHECK(bits(1.0f) == 0x3f80);
  CHECK(bits(-2.5f) == 0xc020);
  CHECK(bits(3.1415f) == 0x4049);  // 3.140625, the nearest
  CHECK(static_cast<float>(bfloat16(3.1415f)) == 3.140625f);
  CHECK(bits(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);       // a tie: to the even 1.0
  CHECK(bits(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);   // a tie: to the even 1 + 2**-6
  CHECK(bits(1.0f + 5 * std::ldexp(1.0f, -10)) == 0x3f81);  // past half: up
  CHECK(bits(std::numeric_limits<float>::infinity()) == 0x7f80);
  CHECK(bits(-std::numeric_limits<float>::infinity()) == 0xff80);
  CHECK(bits(3.4e38f) == 0x7f80);  // past the largest finite bfloat16: infinity
  CHECK(std::isnan(static_cast<float>(bfloat16(std::nanf("")))));
  float signalling_nan;
  uint32_t nan_bits = 0x7f800001u;  // a payload only in the bits bfloat16 drops
  std::memcpy(&signalling_nan, &nan_bits, 4);
  CHECK(std::isnan(static_cast<float>(bfloat16(signalling_nan))));
  CHECK(static_cast<float>(bfloat16::from_bits(0x0001)) == std::ldexp(1.0f, -133));  // the smallest subnormal
}

TEST_CASE("a bfloat16 array: its dtype, Array::at, DLPack both ways, Scalar") {
  DType bf16 = DType::bfloat16();
  CHECK(bf16.itemsize == 2);
  CHECK(bf16.name() == "bfloat16");
  CHECK(*DType::from_name("bfloat16") == bf16);
  CHECK(bf16 != DType::float_(16));
  CHECK(DType::of<bfloat16>() == bf16);
  Array a = Array::zeros(bf16, {5});
  const float values[] = {1.0f, -2.5f, 3.1415f, std::numeric_limits<float>::infinity(), std::nanf("")};
  for (int i = 0; i < 5; ++i) a.at<bfloat16>(i) = values[i];
  CHECK_THROWS_AS(a.at<uint16_t>(0), std::invalid_argument);  // an integer type is not bfloat16
  CHECK_THROWS_AS(a.at<float>(0), std::invalid_argument);
  auto exported = a.to_dlpack_versioned();
  REQUIRE(exported.ok());
  CHECK((*exported)->dl_tensor.dtype.code == kDLBfloat);
  CHECK((*exported)->dl_tensor.dtype.bits == 16);
  auto back = Array::from_dlpack(*exported);
  REQUIRE(back.ok());
  CHECK(back->dtype() == bf16);
  CHECK(static_cast<float>(back->at<bfloat16>(0)) == 1.0f);
  CHECK(static_cast<float>(back->at<bfloat16>(1)) == -2.5f);
  CHECK(static_cast<float>(back->at<bfloat16>(2)) == 3.140625f);
  CHECK(std::isinf(static_cast<float>(back->at<bfloat16>(3))));
  CHECK(std::isnan(static_cast<float>(back->at<bfloat16>(4))));
  DLTensor view = a.to_dlpack();
  CHECK(view.dtype.code == kDLBfloat);
  CHECK(Array::from_dlpack(view)->dtype() == bf16);
  // A Scalar holds it as a number, rounded to bfloat16.
  Scalar pi = Scalar::load(bf16, &a.at<bfloat16>(2));
  CHECK(pi.value.real() == 3.140625);
  CHECK(Scalar(3.1415).as(bf16).value.real() == 3.140625);
  uint16_t stored = 0;
  Scalar(-2.5).store(bf16, &stored);
  CHECK(stored == 0xc020);
}

TEST_CASE("bfloat16 where pykern cannot take it yet: kernels, generated kernels and .npy files") {
  Module module = load();
  Array a = Array::zeros(DType::bfloat16(), {4});
  CHECK(message_of(module.kernel("scale")->launch(Launch(1, 32), a, 2.0f)) ==
        "kernel 'scale': parameter 'a' (argument 1) is an array of bfloat16: kernels do not take bfloat16 yet (pykern "
        "has no bfloat16 type: numba.cuda.bf16's intrinsics and arithmetic are not translated); convert the array to "
        "float32 first");
  CHECK(contains(message_of(module.function("first")->call(a)), "argument 1: bfloat16: kernels do not take bfloat16 yet"));
  CHECK(contains(message_of(module.ufunc("twice")->call({a})), "'twice': argument 1 is an array of bfloat16"));
  CHECK(contains(message_of(save_npy("never-written.npy", a)), "save_npy: NumPy has no descr for bfloat16"));
  CHECK_FALSE(std::filesystem::exists("never-written.npy"));
  // What ml_dtypes writes for a bfloat16 array: raw 2-byte elements.
  Array f = Array::from<uint16_t>({0x3f80, 0xc020});
  std::string bytes = format_npy(f);
  auto at = bytes.find("'<u2'");
  REQUIRE(at != std::string::npos);
  bytes.replace(at, 5, "'|V2'");
  auto refused = parse_npy(bytes, "bf16.npy");
  REQUIRE_FALSE(refused.ok());
  CHECK(contains(refused.error().message, "unsupported dtype '|V2': raw 2-byte elements (ml_dtypes saves bfloat16"));
  std::filesystem::remove_all(test_options().cache_dir);
}
