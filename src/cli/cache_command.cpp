// pykern cache list | show KEY | stats | verify | prune --max-size SIZE | clear   (--json)
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cache/cache.h"

namespace pykern::cli {

namespace {

struct CacheArgs {
  bool json = false;
  std::string key;
  std::string max_size;
  std::string dir;
};

// 500M, 2G, 10000, 4E (K to E: powers of 1024): a byte count up to 2^62 (a larger or non-finite size is refused, not wrapped
// to zero, which would evict everything).
std::optional<uint64_t> parse_size(const std::string& text) {
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.')) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  std::string unit(end);
  double scale = unit.empty() || unit == "B" ? 1 : unit == "K" || unit == "KB" ? 1024.0
                 : unit == "M" || unit == "MB" ? 1024.0 * 1024 : unit == "G" || unit == "GB" ? 1024.0 * 1024 * 1024
                 : unit == "T" || unit == "TB" ? 1024.0 * 1024 * 1024 * 1024
                 : unit == "P" || unit == "PB" ? 1024.0 * 1024 * 1024 * 1024 * 1024
                 : unit == "E" || unit == "EB" ? 1024.0 * 1024 * 1024 * 1024 * 1024 * 1024 : -1;
  double bytes = value * scale;
  if (scale < 0 || !std::isfinite(bytes) || bytes < 0 || bytes > 4611686018427387904.0) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

std::string when(int64_t seconds) {
  char text[32];
  std::time_t t = seconds;
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", std::localtime(&t));
  return text;
}

nlohmann::json info_json(const cache::CacheEntryInfo& info) {
  nlohmann::json out = {{"key", info.key}, {"bytes", info.bytes}, {"last_used", info.last_used}, {"record", info.record}};
  if (info.stray) out["stray"] = true;
  return out;
}

// A field of a record read from disk, which may hold anything: "?" unless it is a string.
std::string field(const nlohmann::json& record, const char* name) {
  if (!record.is_object()) return "?";
  auto found = record.find(name);
  return found != record.end() && found->is_string() ? found->get<std::string>() : "?";
}

std::string kernel_names(const nlohmann::json& record) {
  std::string names;
  if (record.is_object() && record.contains("kernels") && record["kernels"].is_array())
    for (const auto& k : record["kernels"]) names += (names.empty() ? "" : ",") + field(k, "function");
  return names.empty() ? "-" : names;
}

// What an entry was built for: the GPU architecture, or for the CPU simulator "cpu" (a
// library) or "cpu-h" (the runtime core precompiled for its builds).
std::string target(const nlohmann::json& record) {
  if (field(record, "backend") != "cpu") return field(record, "arch");
  return field(record, "output") == "gch" ? "cpu-h" : "cpu";
}

int run(const std::string& action, const CacheArgs& args) {
  cache::KernelCache cache(args.dir.empty() ? cache::KernelCache::default_root() : std::filesystem::path(args.dir));
  if (!cache.enabled()) {
    std::cerr << cache.warning() << "\n";
    return 1;
  }
  if (action == "list") {
    auto entries = cache.list();
    if (args.json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& e : entries) out.push_back(info_json(e));
      std::cout << out.dump(2) << "\n";
      return 0;
    }
    for (const auto& e : entries) {
      if (e.stray) {
        std::cout << fmt::format("{}  stray (not an entry; `pykern cache verify` removes it)\n", e.path.string());
        continue;
      }
      std::cout << fmt::format("{}  {:>9}  {}  {:<6} {}  {}\n", e.key.substr(0, 16), e.bytes, when(e.last_used),
                               target(e.record), kernel_names(e.record), field(e.record, "source_file"));
    }
    return 0;
  }
  if (action == "show") {
    auto info = cache.find(args.key);
    if (!info) {
      print_error(fmt::format("no single cache entry starts with '{}'", args.key));
      return 1;
    }
    std::cout << (args.json ? info_json(*info).dump(2) : info->record.dump(2)) << "\n";
    if (!args.json) std::cout << "path: " << info->path.string() << "\n";
    return 0;
  }
  if (action == "stats") {
    auto entries = cache.list();
    uint64_t bytes = 0;
    std::erase_if(entries, [](const cache::CacheEntryInfo& e) { return e.stray; });
    for (const auto& e : entries) bytes += e.bytes;
    if (args.json)
      std::cout << nlohmann::json{{"root", cache.root().string()}, {"entries", entries.size()}, {"bytes", bytes}}.dump(2) << "\n";
    else
      std::cout << fmt::format("root: {}\nentries: {}\nbytes: {}\n", cache.root().string(), entries.size(), bytes);
    return 0;
  }
  if (action == "verify") {
    auto bad = cache.verify(true);
    if (args.json) std::cout << nlohmann::json{{"bad", bad}}.dump(2) << "\n";
    else std::cout << fmt::format("{} bad entr{} removed\n", bad.size(), bad.size() == 1 ? "y" : "ies");
    return bad.empty() ? 0 : 1;
  }
  if (action == "prune") {
    auto limit = parse_size(args.max_size);
    if (!limit) {
      print_error(fmt::format("--max-size takes a size such as 500M, 2G or 10000 (at most 4E bytes), not '{}'",
                              args.max_size));
      return 2;
    }
    auto removed = cache.prune(*limit);
    if (args.json) std::cout << nlohmann::json{{"removed", removed}}.dump(2) << "\n";
    else std::cout << fmt::format("removed {} entr{}\n", removed.size(), removed.size() == 1 ? "y" : "ies");
    return 0;
  }
  cache.clear();
  if (args.json) std::cout << nlohmann::json{{"cleared", true}}.dump() << "\n";
  else std::cout << "cache cleared\n";
  return 0;
}

}  // namespace

void add_cache_command(CLI::App& app) {
  auto args = std::make_shared<CacheArgs>();
  CLI::App* cache = app.add_subcommand("cache", "Inspect and manage the on-disk kernel cache");
  cache->require_subcommand(1);
  cache->add_option("--dir", args->dir, "cache directory (default: $PYKERN_CACHE_DIR, $XDG_CACHE_HOME/pykern, ~/.cache/pykern)");
  auto add = [&](const char* name, const char* help) {
    CLI::App* sub = cache->add_subcommand(name, help);
    sub->add_flag("--json", args->json, "machine-readable output");
    sub->callback([args, name] { set_exit_code(run(name, *args)); });
    return sub;
  };
  add("list", "entries, most recently used first");
  add("show", "one entry's record")->add_option("key", args->key, "the key or a unique prefix")->required();
  add("stats", "number of entries and bytes");
  add("verify", "check every entry's checksums; remove bad ones");
  add("prune", "evict least recently used entries down to a size")
      ->add_option("--max-size", args->max_size, "e.g. 500M")->required();
  add("clear", "remove every entry");
}

}  // namespace pykern::cli
