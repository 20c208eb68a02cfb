// pykern cache list | show KEY | stats | verify | prune --max-size SIZE | clear   (--json)
#include <algorithm>
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

// A field of a record read from disk, which may hold anything: "?" unless it is a string.
std::string field(const nlohmann::json& record, const char* name) {
  if (!record.is_object()) return "?";
  auto found = record.find(name);
  return found != record.end() && found->is_string() ? found->get<std::string>() : "?";
}

// What an entry was built for: the GPU architecture, or for the CPU simulator "cpu" (a
// library) or "cpu-h" (the runtime core precompiled for its builds).
std::string target(const nlohmann::json& record) {
  if (field(record, "backend") != "cpu") return field(record, "arch");
  return field(record, "output") == "gch" ? "cpu-h" : "cpu";
}

// The kernels an entry holds; the simulator's precompiled runtime core holds none of the
// user's and says what it is instead.
std::vector<std::string> kernel_names(const nlohmann::json& record) {
  std::vector<std::string> names;
  if (record.is_object() && record.contains("kernels") && record["kernels"].is_array())
    for (const auto& k : record["kernels"]) names.push_back(field(k, "function"));
  if (names.empty() && target(record) == "cpu-h") names.push_back("(simulator runtime)");
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text.empty() ? "-" : text;
}

// Where an entry's kernels came from; "-" for the runtime core, which has no source file.
std::string source_of(const nlohmann::json& record) {
  if (target(record) == "cpu-h") return "-";
  return field(record, "source_file");
}

// One entry, in the one shape every --json output uses for entries.
nlohmann::json entry_json(const cache::CacheEntryInfo& info) {
  nlohmann::json out = {{"key", info.key},
                        {"path", info.path.string()},
                        {"bytes", info.bytes},
                        {"last_used", info.last_used},
                        {"target", info.stray ? "?" : target(info.record)},
                        {"kernels", info.stray ? std::vector<std::string>{} : kernel_names(info.record)},
                        {"source_file", info.stray ? "?" : source_of(info.record)},
                        {"stray", info.stray},
                        {"record", info.record}};
  return out;
}

nlohmann::json entries_json(const std::vector<cache::CacheEntryInfo>& entries) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : entries) out.push_back(entry_json(e));
  return out;
}

// The entries of `before` whose keys are in `keys` (what verify or prune removed), in order.
std::vector<cache::CacheEntryInfo> with_keys(const std::vector<cache::CacheEntryInfo>& before,
                                              const std::vector<std::string>& keys) {
  std::vector<cache::CacheEntryInfo> chosen;
  for (const std::string& key : keys) {
    auto found = std::find_if(before.begin(), before.end(), [&](const auto& e) { return e.key == key; });
    if (found != before.end()) chosen.push_back(*found);
    else chosen.push_back(cache::CacheEntryInfo{key, {}, 0, 0, nullptr, false});
  }
  return chosen;
}

// "516242c4ead51b8a  sm_90  scale  /home/me/k.py": an entry named in one line.
std::string entry_line(const cache::CacheEntryInfo& e) {
  if (e.stray) return fmt::format("{}  (stray: not an entry)", e.path.string());
  return fmt::format("{}  {}  {}  {}", e.key.substr(0, 16), target(e.record), joined(kernel_names(e.record)),
                     source_of(e.record));
}

uint64_t total_bytes(const std::vector<cache::CacheEntryInfo>& entries) {
  uint64_t bytes = 0;
  for (const auto& e : entries) bytes += e.bytes;
  return bytes;
}

std::string entries_word(size_t n) { return n == 1 ? "entry" : "entries"; }

// The entry KEY names: a whole key, or a prefix only one key starts with.
Result<cache::CacheEntryInfo> find_entry(const std::vector<cache::CacheEntryInfo>& entries, const std::string& key,
                                         const std::string& root) {
  std::vector<const cache::CacheEntryInfo*> matches;
  for (const auto& e : entries) {
    if (e.stray || e.key.rfind(key, 0) != 0) continue;
    if (e.key == key) return e;
    matches.push_back(&e);
  }
  if (key.empty() || matches.empty())
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("no entry of the cache at {} has a key starting with '{}'; `pykern cache list` "
                                   "shows the keys", root, key));
  if (matches.size() > 1) {
    std::string keys;
    for (size_t i = 0; i < matches.size() && i < 5; ++i) keys += (i ? ", " : "") + matches[i]->key.substr(0, 16);
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("ambiguous: {} entries match '{}' ({}{}); give more of the key", matches.size(), key,
                                   keys, matches.size() > 5 ? ", ..." : ""));
  }
  return *matches[0];
}

int run(const std::string& action, const CacheArgs& args) {
  cache::KernelCache cache(args.dir.empty() ? cache::KernelCache::default_root() : std::filesystem::path(args.dir));
  if (!cache.enabled()) {
    // For the library the cache is a warning (work goes on without it); here it is the error.
    std::string why = cache.warning();
    if (why.rfind("warning: ", 0) == 0) why.erase(0, 9);
    print_error(why);
    return 1;
  }
  const std::string root = cache.root().string();
  const std::string empty = fmt::format("the cache at {} is empty\n", root);
  nlohmann::json out = {{"root", root}};  // every --json output: an object with the cache's root
  std::vector<cache::CacheEntryInfo> entries = cache.list();
  int code = 0;
  if (action == "list") {
    if (args.json) {
      out["count"] = entries.size();
      out["bytes"] = total_bytes(entries);
      out["entries"] = entries_json(entries);
    } else if (entries.empty()) {
      std::cout << empty;
    } else {
      std::cout << fmt::format("{:<16}  {:>9}  {:<16}  {:<6} {}  {}\n", "KEY", "BYTES", "LAST USED", "TARGET",
                               "KERNELS", "SOURCE");
      for (const auto& e : entries) {
        if (e.stray) {
          std::cout << fmt::format("{}  stray (not an entry; `pykern cache verify` removes it)\n", e.path.string());
          continue;
        }
        std::cout << fmt::format("{:<16}  {:>9}  {:<16}  {:<6} {}  {}\n", e.key.substr(0, 16), e.bytes,
                                 when(e.last_used), target(e.record), joined(kernel_names(e.record)),
                                 source_of(e.record));
      }
    }
  } else if (action == "show") {
    auto info = find_entry(entries, args.key, root);
    if (!info.ok()) {
      print_error(info.error());
      return 1;
    }
    if (args.json) {
      out["count"] = 1;
      out["bytes"] = info->bytes;
      out["entries"] = nlohmann::json::array({entry_json(*info)});
    } else {
      std::cout << info->record.dump(2) << "\n" << "path: " << info->path.string() << "\n";
    }
  } else if (action == "stats") {
    std::erase_if(entries, [](const cache::CacheEntryInfo& e) { return e.stray; });
    if (args.json) {
      out["count"] = entries.size();
      out["bytes"] = total_bytes(entries);
    } else {
      std::cout << fmt::format("root: {}\nentries: {}\nbytes: {}\n", root, entries.size(), total_bytes(entries));
      if (entries.empty()) std::cout << empty;
    }
  } else if (action == "verify") {
    auto removed = with_keys(entries, cache.verify(true));
    if (args.json) {
      out["checked"] = entries.size();
      out["removed"] = entries_json(removed);
    } else if (entries.empty()) {
      std::cout << empty;
    } else {
      std::cout << fmt::format("checked {} {}; {} bad, removed{}\n", entries.size(), entries_word(entries.size()),
                               removed.size(), removed.empty() ? " none" : ":");
      for (const auto& e : removed) std::cout << "  " << entry_line(e) << "\n";
    }
    code = removed.empty() ? 0 : 1;  // bad entries were found: a script checking the cache learns it
  } else if (action == "prune") {
    auto limit = parse_size(args.max_size);
    if (!limit) {
      print_error(fmt::format("--max-size takes a size such as 500M, 2G or 10000 (at most 4E bytes), not '{}'",
                              args.max_size));
      return 2;
    }
    auto removed = with_keys(entries, cache.prune(*limit));
    if (args.json) {
      out["checked"] = entries.size();
      out["removed"] = entries_json(removed);
      out["bytes"] = total_bytes(entries) - total_bytes(removed);
    } else if (entries.empty()) {
      std::cout << empty;
    } else {
      std::cout << fmt::format("removed {} {} ({} bytes); {} bytes remain\n", removed.size(),
                               entries_word(removed.size()), total_bytes(removed),
                               total_bytes(entries) - total_bytes(removed));
      for (const auto& e : removed) std::cout << "  " << entry_line(e) << "\n";
    }
  } else {
    cache.clear();
    if (args.json) {
      out["checked"] = entries.size();
      out["removed"] = entries_json(entries);
    } else if (entries.empty()) {
      std::cout << empty;
    } else {
      std::cout << fmt::format("cache cleared: removed {} {} ({} bytes) from {}\n", entries.size(),
                               entries_word(entries.size()), total_bytes(entries), root);
    }
  }
  if (args.json) std::cout << out.dump(2) << "\n";
  return code;
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
