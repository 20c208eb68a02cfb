// pykern devices: the GPUs the CUDA driver sees (name, compute capability, memory), and the
// CPU simulator (its threads), with what --backend auto picks on this machine.
#include <algorithm>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cuda/driver.h"
#include "jit/nvrtc.h"
#include "pykern/device.h"
#include "pykern/module.h"

namespace pykern::cli {

namespace {

// The CPU simulator: always there; it runs a launch's blocks on one worker per hardware thread.
nlohmann::json simulator_json() {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  bool auto_is_gpu = Kernel::resolve(Backend::automatic) == Backend::cuda;
  return {{"name", "CPU simulator"}, {"backend", "cpu"}, {"threads", threads},
          {"auto", auto_is_gpu ? "cuda" : "cpu"}};
}

std::string simulator_line(const nlohmann::json& simulator) {
  return fmt::format("cpu: the CPU simulator ({} threads); --backend auto picks {}\n",
                     simulator["threads"].get<unsigned>(),
                     simulator["auto"] == "cuda" ? "the GPU" : "the CPU simulator");
}

// The other GPUs whose memory `ordinal`'s kernels can use directly (pykern::enable_peer_access).
std::vector<int> peers_of(int ordinal, size_t devices) {
  std::vector<int> peers;
  for (int peer = 0; peer < static_cast<int>(devices); ++peer)
    if (auto can = can_access_peer(ordinal, peer); peer != ordinal && can.ok() && *can) peers.push_back(peer);
  return peers;
}

}  // namespace

void add_devices_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* devices = app.add_subcommand("devices", "List the GPUs the CUDA driver sees and the CPU simulator");
  devices->add_flag("--json", *json, "machine-readable output");
  devices->callback([json] {
    auto list = cuda::list_devices();
    nlohmann::json simulator = simulator_json();
    if (!list.ok()) {
      // No driver or no GPU is an answer, not a failure: kernels still run on the simulator.
      if (*json)
        std::cout << nlohmann::json{{"devices", nlohmann::json::array()}, {"simulator", simulator},
                                    {"note", in_cli_words(list.error().message)}}.dump(2) << "\n";
      else std::cout << in_cli_words(list.error().message) << "\n" << simulator_line(simulator);
      set_exit_code(0);
      return;
    }
    nlohmann::json out = nlohmann::json::array();
    auto supported = jit::nvrtc_supported_archs();
    for (const cuda::DeviceInfo& d : *list) {
      // What a launch on this GPU would build: a cubin, or PTX for the driver to compile.
      std::string target = supported.ok() ? "" : supported.error().message;
      if (supported.ok()) {
        auto chosen = jit::choose_gpu_target(d.major * 10 + d.minor, *supported);
        target = !chosen.ok() ? chosen.error().message
                 : chosen->output == jit::Output::cubin ? chosen->arch + " cubins"
                                                         : "PTX for " + chosen->arch + ", compiled by the driver";
      }
      std::vector<int> peers = peers_of(d.ordinal, list->size());
      if (*json) {
        out.push_back({{"peers", peers}, {"ordinal", d.ordinal}, {"name", d.name}, {"arch", d.arch()}, {"memory_bytes", d.memory_bytes},
                       {"multiprocessors", d.multiprocessors},
                       {"max_threads_per_block", d.limits.max_threads_per_block},
                       {"shared_bytes_per_block", d.limits.shared_per_block_optin}, {"pykern_builds", target}});
      } else {
        std::cout << fmt::format("{}: {} (compute capability {}.{}, {}, {:.1f} GiB, {} SMs, {} KiB shared memory per "
                                 "block); pykern builds {}\n",
                                 d.ordinal, d.name, d.major, d.minor, d.arch(), d.memory_bytes / 1073741824.0,
                                 d.multiprocessors, d.limits.shared_per_block_optin / 1024, target);
        if (!peers.empty()) std::cout << fmt::format("   reaches the memory of GPU {} directly (peer access)\n", fmt::join(peers, ", "));
      }
    }
    if (*json) {
      std::cout << nlohmann::json{{"devices", out}, {"simulator", simulator}}.dump(2) << "\n";
    } else {
      if (list->empty()) std::cout << "the CUDA driver sees no GPU\n";
      std::cout << simulator_line(simulator);
    }
    set_exit_code(0);
  });
}

}  // namespace pykern::cli
