// CUDA Graphs, peer access, closing and resetting a GPU (include/pykern/device.h): against the
// fake driver (fake_driver.h) for what pykern asks of the driver, and on the simulator, whose
// graphs must give the same results.
#include <cstring>

#include <doctest/doctest.h>

#include "cuda/gpu.h"
#include "fake_driver.h"
#include "jit/nvrtc.h"
#include "module_fixture.h"
#include "pykern/device.h"
#include "pykern/module.h"

using namespace pykern;

namespace {

// Two kernels a time step might be: scale an array, then add one to it.
const char* steps_source = R"py(from numba import cuda

@cuda.jit
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor

@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1
)py";

std::shared_ptr<Module> load_steps() {
  return std::make_shared<Module>(test::load_module(steps_source, "steps.py", "graphs"));
}

using test::message_of;

bool has_nvrtc() { return jit::nvrtc_version().ok(); }

// The fake's stand-in for add_one on a 1-d float32 array (its first parameter's data, size and stride).
void run_add_one(const test::FakeLaunch& launch) {
  const auto* param = static_cast<const unsigned char*>(launch.params[0]);
  std::byte* data = nullptr;
  int64_t size = 0, stride = 0;
  std::memcpy(&data, param, 8);
  std::memcpy(&size, param + 8, 8);
  std::memcpy(&stride, param + 16, 8);
  for (int64_t i = 0; i < size; ++i) *reinterpret_cast<float*>(data + i * stride) += 1;
}

}  // namespace

TEST_CASE("on the simulator a capture records launches and copies, and each replay runs them in order") {
  auto module = load_steps();
  auto stream = Stream::create(Backend::cpu);
  REQUIRE(stream.ok());
  Array host = Array::from<float>({1, 2, 3, 4});
  auto device = to_device(host, *stream, Backend::cpu);
  REQUIRE(device.ok());
  Array out = Array::zeros(DType::float_(32), {4});

  REQUIRE(stream->begin_capture().ok());
  CHECK(stream->is_capturing());
  Launch launch = Launch(1, 32).stream(*stream);
  REQUIRE(module->kernel("scale")->launch(launch, *device, 2.0f).ok());
  REQUIRE(module->kernel("add_one")->launch(launch, *device).ok());
  REQUIRE(copy_to_host(*device, out, *stream).ok());
  CHECK(device->at<float>(0) == 1);  // recorded, not run
  CHECK(out.at<float>(0) == 0);
  auto graph = stream->end_capture();
  REQUIRE_MESSAGE(graph.ok(), message_of(graph));
  CHECK_FALSE(stream->is_capturing());
  CHECK(graph->size() == 3);
  CHECK(graph->backend() == Backend::cpu);

  REQUIRE(graph->launch(*stream).ok());
  CHECK(out.at<float>(3) == 9);  // 4 * 2 + 1
  REQUIRE(graph->launch(*stream).ok());
  CHECK(out.at<float>(3) == 19);  // (4 * 2 + 1) * 2 + 1
  CHECK(out.at<float>(0) == 7);

  // Launches after the capture run at once again.
  REQUIRE(module->kernel("add_one")->launch(launch, *device).ok());
  CHECK(device->at<float>(0) == 8);
}

TEST_CASE("a simulator graph keeps its arrays, and update takes another capture's arguments") {
  auto module = load_steps();
  auto stream = Stream::create(Backend::cpu);
  REQUIRE(stream.ok());
  auto capture_scale = [&](const Array& a, float factor) {
    REQUIRE(stream->begin_capture().ok());
    REQUIRE(module->kernel("scale")->launch(Launch(1, 32).stream(*stream), a, factor).ok());
    auto graph = stream->end_capture();
    REQUIRE(graph.ok());
    return *graph;
  };
  Array a = Array::from<float>({1, 2});
  Graph graph = capture_scale(a, 3.0f);
  {
    Array b = Array::from<float>({5, 6});
    Graph newer = capture_scale(b, 10.0f);
    auto updated = graph.update(newer);
    REQUIRE(updated.ok());
    CHECK(*updated);  // the same launches: updated in place
  }  // b is dropped here; the graph keeps its memory
  REQUIRE(graph.launch(*stream).ok());
  CHECK(a.at<float>(0) == 1);  // the graph no longer touches a

  // Another shape of work: the graph becomes the newer one.
  REQUIRE(stream->begin_capture().ok());
  REQUIRE(module->kernel("add_one")->launch(Launch(1, 32).stream(*stream), a).ok());
  REQUIRE(module->kernel("add_one")->launch(Launch(1, 32).stream(*stream), a).ok());
  auto two = stream->end_capture();
  REQUIRE(two.ok());
  auto updated = graph.update(*two);
  REQUIRE(updated.ok());
  CHECK_FALSE(*updated);
  CHECK(graph.size() == 2);
  REQUIRE(graph.launch().ok());
  CHECK(a.at<float>(1) == 4);
}

TEST_CASE("what cannot be captured is refused with the reason, and the capture goes on") {
  auto module = load_steps();
  Stream default_stream;
  CHECK(message_of(default_stream.begin_capture()).find("the default stream cannot capture") != std::string::npos);
  CHECK_FALSE(default_stream.end_capture().ok());
  auto stream = Stream::create(Backend::cpu);
  REQUIRE(stream.ok());
  CHECK(message_of(stream->end_capture()).find("not capturing") != std::string::npos);
  REQUIRE(stream->begin_capture().ok());
  CHECK(message_of(stream->begin_capture()).find("capturing already") != std::string::npos);
  Array a = Array::from<float>({1});
  auto timed = module->kernel("add_one")->launch(Launch(1, 32).stream(*stream).timeout(5), a);
  CHECK(message_of(timed).find("cannot be captured into a graph: it has a timeout") != std::string::npos);
  auto on_gpu = module->kernel("add_one")->launch(Launch(1, 32).stream(*stream).backend(Backend::cuda), a);
  CHECK(message_of(on_gpu).find("the stream is the simulator's") != std::string::npos);
  REQUIRE(module->kernel("add_one")->launch(Launch(1, 32).stream(*stream), a).ok());
  auto graph = stream->end_capture();
  REQUIRE(graph.ok());
  CHECK(graph->size() == 1);
  CHECK(a.at<float>(0) == 1);
  CHECK_FALSE(Graph().launch().ok());
}

// The recorded launch names the stream's capture, which holds the launch: the stream ends the
// capture as it goes, or the two would keep each other (the leak run checks it).
TEST_CASE("a stream dropped while it captures lets go of what it recorded") {
  auto module = load_steps();
  Array a = Array::from<float>({1});
  {
    auto stream = Stream::create(Backend::cpu);
    REQUIRE(stream.ok());
    REQUIRE(stream->begin_capture().ok());
    REQUIRE(module->kernel("add_one")->launch(Launch(1, 32).stream(*stream), a).ok());
  }
  CHECK(a.at<float>(0) == 1);  // never run
}

TEST_CASE("on a GPU the driver captures a stream's launches and copies; a replay is one cuGraphLaunch") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_add_one;
  REQUIRE(fake.select_gpu());
  {
    auto module = load_steps();
    auto stream = Stream::create(Backend::cuda);
    REQUIRE(stream.ok());
    Array host = Array::from<float>({1, 2, 3});
    auto device = to_device(host, *stream, Backend::cuda);
    REQUIRE(device.ok());
    auto pinned = pinned_array(DType::float_(32), {3}, Order::C, Backend::cuda);
    REQUIRE(pinned.ok());

    REQUIRE(stream->begin_capture().ok());
    REQUIRE(fake.capturing.count(static_cast<CUstream>(stream->handle())) == 1);
    CHECK(fake.capturing.begin()->second == CU_STREAM_CAPTURE_MODE_RELAXED);
    Launch launch = Launch(1, 32).backend(Backend::cuda).stream(*stream);
    REQUIRE(module->kernel("add_one")->launch(launch, *device).ok());
    REQUIRE(module->kernel("add_one")->launch(launch, *device).ok());
    REQUIRE(copy_to_host(*device, *pinned, *stream).ok());
    CHECK(fake.launches.empty());  // recorded, not run

    // A launch that would wait for its kernel is refused before anything is queued.
    Array on_host = Array::from<float>({1});
    auto refused = module->kernel("add_one")->launch(launch, on_host);
    CHECK(message_of(refused).find("argument 1 is a host array") != std::string::npos);
    // Also when the stream is given as a raw CUstream, which pykern's capture does not see: the
    // launcher asks the driver.
    auto raw = module->kernel("add_one")->launch(Launch(1, 32).backend(Backend::cuda).stream(stream->handle()), on_host);
    CHECK(message_of(raw).find("the stream is capturing a graph") != std::string::npos);
    CHECK(on_host.at<float>(0) == 1);

    auto graph = stream->end_capture();
    REQUIRE_MESSAGE(graph.ok(), message_of(graph));
    CHECK(graph->size() == 3);
    CHECK(graph->backend() == Backend::cuda);
    CHECK(fake.count("cuGraphInstantiateWithFlags") == 1);
    for (int i = 0; i < 3; ++i) REQUIRE(graph->launch(*stream).ok());
    CHECK(fake.graph_launches == 3);
    CHECK(fake.launches.size() == 6);
    CHECK(fake.launches.back().stream == stream->handle());
    REQUIRE(stream->synchronize().ok());
    CHECK(pinned->at<float>(2) == 9);  // 3 + 2 + 2 + 2

    // The graph keeps the arrays it captured: dropping the caller's leaves them allocated.
    device = Error::make(ErrorKind::invalid_argument, "dropped");
    CHECK(fake.device_memory.size() == 1);
  }
  CHECK(fake.graphs_live == 0);
  CHECK(fake.graph_execs_live == 0);
  CHECK(fake.live_allocations() == 0);
  CHECK(fake.streams_live == 0);
}

TEST_CASE("a GPU graph is updated in place for new arguments, and made again for new work") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_add_one;
  REQUIRE(fake.select_gpu());
  {
    auto module = load_steps();
    auto stream = Stream::create(Backend::cuda);
    REQUIRE(stream.ok());
    auto capture = [&](const std::vector<Array>& arrays) {
      REQUIRE(stream->begin_capture().ok());
      for (const Array& a : arrays)
        REQUIRE(module->kernel("add_one")->launch(Launch(1, 32).backend(Backend::cuda).stream(*stream), a).ok());
      auto graph = stream->end_capture();
      REQUIRE(graph.ok());
      return *graph;
    };
    auto a = device_array(DType::float_(32), {2}, Order::C, Backend::cuda);
    auto b = device_array(DType::float_(32), {2}, Order::C, Backend::cuda);
    REQUIRE((a.ok() && b.ok()));
    Graph graph = capture({*a});
    auto updated = graph.update(capture({*b}));
    REQUIRE_MESSAGE(updated.ok(), message_of(updated));
    CHECK(*updated);
    CHECK(fake.count("cuGraphInstantiateWithFlags") == 2);  // one for each capture
    REQUIRE(graph.launch(*stream).ok());
    CHECK(copy_to_host(*b)->at<float>(0) == 1);
    CHECK(copy_to_host(*a)->at<float>(0) == 0);

    updated = graph.update(capture({*a, *a}));
    REQUIRE(updated.ok());
    CHECK_FALSE(*updated);  // two launches where there was one: a new topology
    CHECK(graph.size() == 2);
    REQUIRE(graph.launch(*stream).ok());
    CHECK(copy_to_host(*a)->at<float>(1) == 2);
  }
  CHECK(fake.graphs_live == 0);
  CHECK(fake.graph_execs_live == 0);
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("a GPU stream dropped while it captures ends the capture and frees the graph") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto stream = Stream::create(Backend::cuda);
    REQUIRE(stream.ok());
    REQUIRE(stream->begin_capture().ok());
  }
  CHECK(fake.count("cuStreamEndCapture") == 1);
  CHECK(fake.graphs_live == 0);
  CHECK(fake.streams_live == 0);
}

TEST_CASE("a driver without graphs says what it lacks") {
  test::FakeDriver fake;
  fake.table.stream_begin_capture = nullptr;
  fake.table.optional_missing = " cuStreamBeginCapture_v2";
  REQUIRE(fake.select_gpu());
  auto stream = Stream::create(Backend::cuda);
  REQUIRE(stream.ok());
  auto refused = stream->begin_capture();
  CHECK(message_of(refused).find("CUDA Graphs need a newer CUDA driver") != std::string::npos);
  CHECK(message_of(refused).find("cuStreamBeginCapture_v2") != std::string::npos);
  CHECK_FALSE(stream->is_capturing());
}

TEST_CASE("peer access lets a launch take another GPU's arrays") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.devices = 2;
  fake.kernel = run_add_one;
  auto other_gpu = cuda::Gpu::open(fake.table, 1);
  REQUIRE(other_gpu.ok());
  cuda::Gpu::select(*other_gpu);
  other_gpu = Error::make(ErrorKind::invalid_argument, "let go");
  {
    auto on_one = device_array(DType::float_(32), {2}, Order::C, Backend::cuda);
    REQUIRE(on_one.ok());
    CHECK(on_one->device_id() == 1);
    REQUIRE(fake.select_gpu());  // device 0
    auto module = load_steps();
    auto launch = Launch(1, 32).backend(Backend::cuda);
    auto refused = module->kernel("add_one")->launch(launch, *on_one);
    CHECK(message_of(refused).find("pykern::enable_peer_access(1)") != std::string::npos);

    CHECK(*can_access_peer(0, 1));
    CHECK_FALSE(*can_access_peer(0, 0));
    REQUIRE(enable_peer_access(1).ok());
    REQUIRE(enable_peer_access(1).ok());  // again: no error
    CHECK(fake.peer_contexts_enabled == std::vector<CUcontext>{test::FakeDriver::gpu_context(1)});
    REQUIRE_MESSAGE(module->kernel("add_one")->launch(launch, *on_one).ok(),
                    message_of(module->kernel("add_one")->launch(launch, *on_one)));
    CHECK(copy_to_host(*on_one)->at<float>(1) == 1);
    CHECK(message_of(enable_peer_access(0)).find("that is the current GPU") != std::string::npos);
  }
  fake.peers_can_access = false;
  REQUIRE(fake.select_gpu());
  CHECK(message_of(enable_peer_access(1)).find("cannot reach GPU 1's memory") != std::string::npos);
}

TEST_CASE("close_gpu waits and lets go of the GPU; reset_gpu is refused while anything uses it") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto device = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE(device.ok());
    auto refused = reset_gpu();
    CHECK(message_of(refused).find("1 object made on device 0") != std::string::npos);
    CHECK(fake.devices_reset.empty());
  }
  int waits = fake.count("cuCtxSynchronize");
  REQUIRE(reset_gpu().ok());
  CHECK(fake.devices_reset == std::vector<CUdevice>{0});
  CHECK(fake.count("cuCtxSynchronize") == waits + 1);
  CHECK(cuda::Gpu::opened() != nullptr);  // still selected

  REQUIRE(close_gpu().ok());
  CHECK(fake.count("cuCtxSynchronize") == waits + 2);
  CHECK(cuda::Gpu::opened() == nullptr);
  CHECK(fake.contexts_retained == 0);  // the reset's fresh hold on it is let go too
  REQUIRE(close_gpu().ok());  // nothing open: nothing to do
}
