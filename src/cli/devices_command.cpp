// pykern devices: the GPUs the CUDA driver sees (name, compute capability, memory).
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cuda/driver.h"

namespace pykern::cli {

void add_devices_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* devices = app.add_subcommand("devices", "List the GPUs the CUDA driver sees");
  devices->add_flag("--json", *json, "machine-readable output");
  devices->callback([json] {
    auto list = cuda::list_devices();
    if (!list.ok()) {
      // No driver or no GPU is an answer, not a failure: kernels still run on the simulator.
      if (*json) std::cout << nlohmann::json{{"devices", nlohmann::json::array()}, {"note", list.error().message}}.dump(2) << "\n";
      else std::cout << list.error().message << "\n";
      set_exit_code(0);
      return;
    }
    nlohmann::json out = nlohmann::json::array();
    for (const cuda::DeviceInfo& d : *list) {
      if (*json) {
        out.push_back({{"ordinal", d.ordinal}, {"name", d.name}, {"arch", d.arch()}, {"memory_bytes", d.memory_bytes},
                       {"multiprocessors", d.multiprocessors}});
      } else {
        std::cout << fmt::format("{}: {} (compute capability {}.{}, {}, {:.1f} GiB, {} SMs)\n", d.ordinal, d.name, d.major,
                                 d.minor, d.arch(), d.memory_bytes / 1073741824.0, d.multiprocessors);
      }
    }
    if (*json) std::cout << nlohmann::json{{"devices", out}}.dump(2) << "\n";
    else if (list->empty()) std::cout << "the CUDA driver sees no GPU\n";
    set_exit_code(0);
  });
}

}  // namespace pykern::cli
