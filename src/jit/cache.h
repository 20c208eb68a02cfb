// The on-disk kernel cache. Content-addressed entries, each a directory:
//   <root>/v1/entries/<2 hex>/<key>/{kernel.cubin|kernel.ptx, kernel.cu, record.json}
// plus a front-end index <root>/v1/frontend/<2 hex>/<key> → entry key, whose hit skips parsing
// and inference. Entries are published by renaming a fully written, fsynced staging directory,
// so readers never see half an entry; record.json holds checksums verified on every read, and
// a bad entry is removed and counts as a miss. The record carries its own checksum too.
// Below the root nothing is followed: links are listed and removed as themselves, and a
// linked entries/, frontend/ or tmp/ disables the cache. No locks: concurrent writers of one key race
// to rename and the loser discards its copy.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pykern/result.h"

namespace pykern::jit {

struct CacheEntry {
  std::string key;
  std::string binary;       // cubin bytes or PTX text
  std::string cuda_source;  // the emitted .cu
  nlohmann::json record;    // source file, kernels, signature, options, arch, sizes, times
};

struct CacheEntryInfo {
  std::string key;
  std::filesystem::path path;
  uint64_t bytes = 0;
  int64_t last_used = 0;  // seconds since the epoch
  nlohmann::json record;  // null when record.json is missing or not JSON
  bool stray = false;     // not an entry: a link, a file, a misnamed directory (verify removes it)
};

class KernelCache {
 public:
  // $PYKERN_CACHE_DIR, else $XDG_CACHE_HOME/pykern, else ~/.cache/pykern.
  static std::filesystem::path default_root();
  explicit KernelCache(std::filesystem::path root);

  // False when the directory cannot be created or written: the cache is then off, and
  // warning() says why (reported once by the caller).
  bool enabled() const { return enabled_; }
  const std::string& warning() const { return warning_; }
  const std::filesystem::path& root() const { return root_; }

  std::optional<CacheEntry> load(const std::string& key);
  Status store(const CacheEntry& entry);
  // Where a loaded entry's binary lies (to dlopen a simulator library in place).
  std::filesystem::path binary_file(const CacheEntry& entry) const;
  std::optional<std::string> frontend_lookup(const std::string& frontend_key);
  void frontend_store(const std::string& frontend_key, const std::string& entry_key);

  std::vector<CacheEntryInfo> list() const;
  std::optional<CacheEntryInfo> find(const std::string& key_prefix) const;
  // Checks every entry; returns the keys of bad ones (removed when `repair`).
  std::vector<std::string> verify(bool repair);
  // Removes least recently used entries until the total is at most max_bytes; returns them.
  std::vector<std::string> prune(uint64_t max_bytes);
  void clear();

 private:
  std::filesystem::path entries_dir() const { return root_ / "v1" / "entries"; }
  std::filesystem::path frontend_dir() const { return root_ / "v1" / "frontend"; }
  std::filesystem::path tmp_dir() const { return root_ / "v1" / "tmp"; }
  std::filesystem::path entry_path(const std::string& key) const;
  void discard(const std::filesystem::path& entry) const;
  std::filesystem::path staging_path(const std::string& key) const;

  std::filesystem::path root_;
  bool enabled_ = false;
  std::string warning_;
};

// Hex xxh3-128 of a canonical, length-prefixed serialisation of the parts.
std::string cache_key(const std::vector<std::string>& parts);

}  // namespace pykern::jit
