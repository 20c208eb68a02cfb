// Memory kinds, streams and events of the public API (include/pykern/device.h) against the fake
// driver (fake_driver.h), and the same calls on the simulator: what pykern asks of the driver,
// what it hands back, and that nothing leaks on the error paths.
#include <cstdlib>

#include <doctest/doctest.h>

#include "cuda/streams.h"
#include "fake_driver.h"
#include "pykern/device.h"

using namespace pykern;

namespace {

std::string message_of(const Status& s) { return s.ok() ? std::string("(ok)") : s.error().message; }
template <class T> std::string message_of(const Result<T>& r) { return r.ok() ? std::string("(ok)") : r.error().message; }

}  // namespace

TEST_CASE("a managed array is one address for host and GPU: written on the host, freed with its last view") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto managed = managed_array(DType::float_(64), {2, 3}, Order::F, Backend::cuda);
    REQUIRE_MESSAGE(managed.ok(), message_of(managed));
    CHECK(managed->location() == Location::unified);
    CHECK(managed->is_f_contiguous());
    CHECK(fake.managed_memory.size() == 1);
    managed->at<double>(1, 2) = 4.5;  // the host writes it directly
    Array view = *managed->index(0, 1);
    CHECK(view.at<double>(2) == 4.5);
    managed = Error::make(ErrorKind::invalid_argument, "dropped");
    CHECK(fake.managed_memory.size() == 1);  // the view keeps it
  }
  CHECK(fake.live_allocations() == 0);
  CHECK_FALSE(fake.freed_unknown_pointer);
}

TEST_CASE("managed memory copies to and from host and device arrays as either kind") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto managed = managed_array(DType::int_(32), {3}, Order::C, Backend::cuda);
    REQUIRE(managed.ok());
    Array host = Array::from<int32_t>({7, 8, 9});
    REQUIRE(copy_to_device(host, *managed).ok());
    CHECK(managed->at<int32_t>(2) == 9);
    auto device = to_device(*managed, {}, Backend::cuda);  // unified memory is host-addressable
    REQUIRE_MESSAGE(device.ok(), message_of(device));
    CHECK(device->location() == Location::device);
    auto back = copy_to_host(*device);
    REQUIRE(back.ok());
    CHECK(back->at<int32_t>(1) == 8);
    Array out = Array::zeros(DType::int_(32), {3});
    REQUIRE(copy_to_host(*managed, out).ok());
    CHECK(out.at<int32_t>(0) == 7);
  }
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("a mapped array is page-locked host memory the GPU addresses as the host does") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto mapped = mapped_array(DType::uint(8), {16}, Order::C, Backend::cuda);
    REQUIRE_MESSAGE(mapped.ok(), message_of(mapped));
    CHECK(mapped->location() == Location::unified);
    CHECK(fake.count("cuMemHostAlloc") == 1);
    CHECK(fake.pinned_memory.size() == 1);
  }
  CHECK(fake.live_allocations() == 0);
  // Without unified addressing the host's pointer is not the GPU's: refused, and freed.
  fake.maps_elsewhere = true;
  auto refused = mapped_array(DType::uint(8), {16}, Order::C, Backend::cuda);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("another address than the host's") != std::string::npos);
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("register_host page-locks a host array in place while its view lives, mapped when asked") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  Array host = Array::from<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  {
    auto pinned = register_host(host, false, Backend::cuda);
    REQUIRE_MESSAGE(pinned.ok(), message_of(pinned));
    CHECK(pinned->location() == Location::host);
    CHECK(pinned->data() == host.data());
    REQUIRE(fake.registered_memory.size() == 1);
    CHECK(fake.registered_memory.begin()->second.first == 24);
    CHECK((fake.registered_memory.begin()->second.second & CU_MEMHOSTREGISTER_DEVICEMAP) == 0);
  }
  CHECK(fake.registered_memory.empty());  // unregistered with the last view
  {
    // A strided view registers the bytes it spans; mapped, it is unified memory.
    Array column = *host.slice(1, Slice{1, 2, std::nullopt});
    auto mapped = register_host(column, true, Backend::cuda);
    REQUIRE_MESSAGE(mapped.ok(), message_of(mapped));
    CHECK(mapped->location() == Location::unified);
    CHECK(mapped->strides() == column.strides());
    REQUIRE(fake.registered_memory.size() == 1);
    CHECK(fake.registered_memory.begin()->first == column.data());
    CHECK(fake.registered_memory.begin()->second.first == 16);  // rows 0 and 1 of column 1: 12 + 4 bytes
    CHECK((fake.registered_memory.begin()->second.second & CU_MEMHOSTREGISTER_DEVICEMAP) != 0);
    // Registering the same memory twice is the driver's error, named.
    auto twice = register_host(column, true, Backend::cuda);
    REQUIRE_FALSE(twice.ok());
    CHECK(twice.error().message.find("cuMemHostRegister") != std::string::npos);
  }
  CHECK(fake.registered_memory.empty());
  // Device memory and read-only memory are refused.
  auto device = device_array(DType::float_(32), {3}, Order::C, Backend::cuda);
  REQUIRE(device.ok());
  CHECK(message_of(register_host(*device, false, Backend::cuda)).find("not plain host memory") != std::string::npos);
}

TEST_CASE("memory_info answers the GPU's free and total bytes, and the host's on the simulator") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  fake.free_bytes = 12345;
  auto gpu = memory_info(Backend::cuda);
  REQUIRE(gpu.ok());
  CHECK(gpu->free == 12345);
  CHECK(gpu->total == size_t(141) << 30);
  fake.failures["cuMemGetInfo"] = CUDA_ERROR_UNKNOWN;
  CHECK(message_of(memory_info(Backend::cuda)).find("cuMemGetInfo") != std::string::npos);
  auto host = memory_info(Backend::cpu);
  REQUIRE(host.ok());
  CHECK(host->total > 0);
  CHECK(host->free <= host->total);
}

TEST_CASE("a new stream's options reach the driver, and a priority outside the GPU's range is refused") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto range = Stream::priority_range(Backend::cuda);
    REQUIRE(range.ok());
    CHECK(*range == std::pair{0, -5});
    auto urgent = Stream::create(StreamOptions{true, -5}, Backend::cuda);
    REQUIRE_MESSAGE(urgent.ok(), message_of(urgent));
    REQUIRE(fake.stream_requests.size() == 1);
    CHECK(fake.stream_requests[0] == std::pair<unsigned, int>{CU_STREAM_NON_BLOCKING, -5});
    auto plain = Stream::create(Backend::cuda);
    REQUIRE(plain.ok());
    CHECK(fake.stream_requests[1] == std::pair<unsigned, int>{CU_STREAM_DEFAULT, 0});
    auto wrong = Stream::create(StreamOptions{false, 3}, Backend::cuda);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().message == "stream priority 3 is outside the GPU's range: from 0 (lowest) to -5 (highest; "
                                   "CUDA numbers higher priorities lower)");
    CHECK(fake.streams_live == 2);
  }
  CHECK(fake.streams_live == 0);
  // The simulator has one priority.
  CHECK(*Stream::priority_range(Backend::cpu) == std::pair{0, 0});
}

TEST_CASE("a stream waits for an event, and events and streams answer whether their work is done") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto producer = Stream::create(Backend::cuda), consumer = Stream::create(Backend::cuda);
    auto ready = Event::create(Backend::cuda);
    REQUIRE((producer.ok() && consumer.ok() && ready.ok()));
    REQUIRE(ready->record(*producer).ok());
    REQUIRE(consumer->wait(*ready).ok());
    REQUIRE(fake.stream_waits.size() == 1);
    CHECK(fake.stream_waits[0].first == consumer->handle());
    fake.events_not_ready = 1;
    CHECK(*ready->query() == false);
    CHECK(*ready->query() == true);
    fake.queries_until_done = 1;
    CHECK(*consumer->query() == false);
    CHECK(*consumer->query() == true);
    fake.fault = CUDA_ERROR_ILLEGAL_ADDRESS;  // a failed context answers every query with it
    CHECK(message_of(ready->query()).find("cuEventQuery") != std::string::npos);
    fake.fault = CUDA_SUCCESS;
    // A simulator event cannot order a GPU stream.
    auto sim_event = Event::create(Backend::cpu);
    REQUIRE(sim_event.ok());
    CHECK(message_of(consumer->wait(*sim_event)).find("different backends") != std::string::npos);
    CHECK(message_of(consumer->wait(Event())).find("not made with Event::create") != std::string::npos);
  }
  CHECK(fake.streams_live == 0);
  CHECK(fake.events_live == 0);
}

TEST_CASE("a stream callback runs once its work is done, with the stream's status; done() is a future of it") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  auto stream = Stream::create(Backend::cuda);
  REQUIRE(stream.ok());
  int calls = 0;
  Status seen = ok_status();
  REQUIRE(stream->add_callback([&](const Status& s) { ++calls, seen = s; }).ok());
  CHECK(calls == 1);
  CHECK(seen.ok());
  CHECK(fake.callback_streams.back() == stream->handle());
  fake.fault = CUDA_ERROR_ILLEGAL_ADDRESS;
  auto done = stream->done();
  REQUIRE(done.ok());
  Status ended = done->get();
  CHECK(message_of(ended).find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos);
  fake.fault = CUDA_SUCCESS;
  // A callback that throws does not take the driver's thread down.
  REQUIRE(stream->add_callback([](const Status&) { throw std::runtime_error("boom"); }).ok());
  // A callback the driver refuses is freed, not leaked (the leak checker sees it), and said.
  fake.failures["cuStreamAddCallback"] = CUDA_ERROR_UNKNOWN;
  CHECK(message_of(stream->add_callback([](const Status&) {})).find("cuStreamAddCallback") != std::string::npos);
  CHECK_FALSE(stream->add_callback(nullptr).ok());
}

TEST_CASE("on the simulator streams' work is done when queued: waits, queries and callbacks answer at once") {
  auto stream = Stream::create(Backend::cpu);
  auto event = Event::create(Backend::cpu);
  REQUIRE((stream.ok() && event.ok()));
  REQUIRE(event->record(*stream).ok());
  REQUIRE(stream->wait(*event).ok());
  CHECK(*stream->query());
  CHECK(*event->query());
  bool called = false;
  REQUIRE(stream->add_callback([&](const Status& s) { called = s.ok(); }).ok());
  CHECK(called);
  auto done = stream->done();
  REQUIRE(done.ok());
  CHECK(done->get().ok());
  auto managed = managed_array(DType::float_(32), {4}, Order::C, Backend::cpu);
  REQUIRE(managed.ok());
  CHECK(managed->location() == Location::host);
  Array host = Array::from<float>({1, 2});
  auto registered = register_host(host, true, Backend::cpu);
  REQUIRE(registered.ok());
  CHECK(registered->data() == host.data());
  REQUIRE(profile_start(Backend::cpu).ok());
  REQUIRE(profile_stop(Backend::cpu).ok());
}

TEST_CASE("an external stream is used and never destroyed; the default streams by name carry CUDA's handles") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto theirs = Stream::wrap(reinterpret_cast<void*>(0x7777));
    REQUIRE(theirs.ok());
    CHECK(theirs->handle() == reinterpret_cast<void*>(0x7777));
    CHECK(theirs->backend() == Backend::cuda);
    REQUIRE(theirs->synchronize().ok());
    auto legacy = Stream::legacy_default(Backend::cuda);
    auto per_thread = Stream::per_thread_default(Backend::cuda);
    REQUIRE((legacy.ok() && per_thread.ok()));
    CHECK(legacy->handle() == static_cast<void*>(CU_STREAM_LEGACY));
    CHECK(per_thread->handle() == static_cast<void*>(CU_STREAM_PER_THREAD));
  }
  CHECK(fake.streams_live == 0);  // none made, none destroyed
  CHECK(fake.count("cuStreamDestroy") == 0);
  CHECK(message_of(Stream::wrap(nullptr)).find("the default stream is Stream()") != std::string::npos);
  REQUIRE(profile_start(Backend::cuda).ok());
  REQUIRE(profile_stop(Backend::cuda).ok());
  CHECK(fake.count("cuProfilerStart") == 1);
  CHECK(fake.count("cuProfilerStop") == 1);
}

TEST_CASE("PYKERN_PER_THREAD_DEFAULT_STREAM: 1 or 0, anything else an error naming the variable") {
  CHECK(*cuda::parse_per_thread_setting(nullptr) == false);
  CHECK(*cuda::parse_per_thread_setting("") == false);
  CHECK(*cuda::parse_per_thread_setting("0") == false);
  CHECK(*cuda::parse_per_thread_setting("1") == true);
  auto wrong = cuda::parse_per_thread_setting("yes");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message == "PYKERN_PER_THREAD_DEFAULT_STREAM is 1 (each host thread's own default stream) or 0 "
                                 "(the legacy default stream), not 'yes'");
  CHECK(*cuda::queue_for(reinterpret_cast<CUstream>(0x4001)) == reinterpret_cast<CUstream>(0x4001));
}

TEST_CASE("wrap_device takes another library's GPU memory after asking the driver what it is") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    // Memory the host program allocated itself, with its own release.
    CUdeviceptr theirs = 0;
    REQUIRE(fake.table.mem_alloc(&theirs, 64) == CUDA_SUCCESS);
    bool released = false;
    std::shared_ptr<void> keep(nullptr, [&](void*) { released = true; });
    auto column = wrap_device(reinterpret_cast<void*>(theirs + 4), DType::float_(32), {4}, {16}, keep);
    REQUIRE_MESSAGE(column.ok(), message_of(column));
    CHECK(column->location() == Location::device);
    keep.reset();
    Array host = Array::from<float>({1, 2, 3, 4});
    REQUIRE(copy_to_device(host, *column).ok());
    CHECK(reinterpret_cast<float*>(theirs)[1 + 4 * 3] == 4);  // element 3: 4 bytes in, 3 strides of 16
    CHECK_FALSE(released);
    *column = Array();
    CHECK(released);  // the last view let it go
    // Reaching past the allocation, or memory the driver does not know, is refused.
    auto past = wrap_device(reinterpret_cast<void*>(theirs), DType::float_(64), {9});
    REQUIRE_FALSE(past.ok());
    CHECK(past.error().message.find("outside its allocation of 64 bytes") != std::string::npos);
    float on_stack[4];
    CHECK(message_of(wrap_device(on_stack, DType::float_(32), {4})).find("not memory the CUDA driver allocated") !=
          std::string::npos);
    CHECK(message_of(wrap_device(reinterpret_cast<void*>(theirs), DType::float_(32), {-1})).find("wrap_device:") == 0);
    REQUIRE(fake.table.mem_free(theirs) == CUDA_SUCCESS);
  }
  {
    auto managed = managed_array(DType::int_(64), {3}, Order::C, Backend::cuda);
    REQUIRE(managed.ok());
    auto wrapped = wrap_device(managed->data(), DType::int_(64), {3});
    REQUIRE(wrapped.ok());
    CHECK(wrapped->location() == Location::unified);
  }
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("an IPC handle carries a device view to another process as text, and what arrives is checked") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    Array host = Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});
    auto device = to_device(host, {}, Backend::cuda);
    REQUIRE(device.ok());
    Array column = *device->slice(1, Slice{1, 3, std::nullopt});  // a view 8 bytes into the allocation
    auto handle = ipc_handle(column);
    REQUIRE_MESSAGE(handle.ok(), message_of(handle));
    CHECK(handle->offset == 8);
    std::string sent = handle->to_bytes();
    auto received = IpcHandle::from_bytes(sent);
    REQUIRE_MESSAGE(received.ok(), message_of(received));
    CHECK(received->shape == column.shape());
    CHECK(received->strides == column.strides());
    auto opened = open_ipc_array(*received);
    REQUIRE_MESSAGE(opened.ok(), message_of(opened));
    CHECK(fake.ipc_mappings == 1);
    auto back = copy_to_host(*opened);
    REQUIRE(back.ok());
    CHECK(back->at<double>(1, 1) == 6);
    *opened = Array();
    CHECK(fake.ipc_mappings == 0);  // closed with its last view
    // What arrives is checked before anything is mapped or read.
    CHECK(message_of(IpcHandle::from_bytes("{")).find("not JSON") != std::string::npos);
    CHECK(message_of(IpcHandle::from_bytes(R"({"pykern_ipc": 2})")).find("'pykern_ipc'") != std::string::npos);
    std::string short_handle = sent;
    short_handle.replace(short_handle.find("\"handle\":\"") + 10, 2, "");
    CHECK(message_of(IpcHandle::from_bytes(short_handle)).find("128 hexadecimal digits") != std::string::npos);
    IpcHandle too_far = *received;
    too_far.shape = {2, 40};
    CHECK(message_of(open_ipc_array(too_far)).find("outside the 48 bytes") != std::string::npos);
    CHECK(fake.ipc_mappings == 0);  // the refused mapping was closed
    // Only device memory can be shared.
    auto managed = managed_array(DType::float_(32), {2}, Order::C, Backend::cuda);
    REQUIRE(managed.ok());
    CHECK(message_of(ipc_handle(*managed)).find("not on a GPU") != std::string::npos);
  }
  CHECK(fake.live_allocations() == 0);
}
