// The on-disk kernel cache. Content-addressed entries, each a directory:
//   <root>/v1/entries/<2 hex>/<key>/{kernel.cubin|kernel.ptx, kernel.cu, record.json}
// plus a front-end index <root>/v1/frontend/<2 hex>/<key> → entry key, whose hit skips parsing
// and inference. Entries are published by renaming a fully written, fsynced staging directory,
// so readers never see half an entry; record.json holds checksums verified on every read, and
// a bad entry is removed and counts as a miss. The record carries its own checksum too.
// Below the root nothing is followed: links are listed and removed as themselves, and a
// linked entries/, frontend/ or tmp/ disables the cache. No locks: concurrent writers of one key race
// to rename and the loser discards its copy.
//
// Trust (README "The kernel cache"): checksums only catch accidents, since whoever can write an
// entry can recompute them. So the root and every folder and file below it that is read must be
// owned by the caller (or root) and writable by no one else, as ssh's StrictModes asks of
// ~/.ssh; a root that fails turns the cache off with a warning, and an entry that fails is a
// miss, removed. A team shares one cache by naming its group in $PYKERN_CACHE_GROUP: then
// folders may be group-writable by that group, and owned by its members.
#pragma once
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pykern/result.h"

namespace pykern::cache {

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
  // $PYKERN_CACHE_GROUP: the group trusted to share the cache (a name or a number), else none.
  static std::string default_shared_group();
  // `shared_group`: "" for a private cache, else the group (a name or a number) whose members
  // may write it.
  explicit KernelCache(std::filesystem::path root, std::string shared_group = default_shared_group());
  ~KernelCache();
  KernelCache(KernelCache&&) noexcept;

  // False when the directory cannot be created or written: the cache is then off, and
  // warning() says why (reported once by the caller).
  bool enabled() const { return enabled_; }
  const std::string& warning() const { return warning_; }
  const std::filesystem::path& root() const { return root_; }

  std::optional<CacheEntry> load(const std::string& key);
  Status store(const CacheEntry& entry);
  // Where a loaded entry's binary lies (for the host compiler to read a precompiled header).
  // Its bytes are in the entry already: load those, not the file, which a `cache clear` may
  // remove at any time.
  std::filesystem::path binary_file(const CacheEntry& entry) const;
  std::optional<std::string> frontend_lookup(const std::string& frontend_key);
  void frontend_store(const std::string& frontend_key, const std::string& entry_key);
  // A small text the cache keeps beside its entries under a key (what a slow lookup found, such
  // as which NVRTC the loader picks), trusted as entries are; nullopt when absent or untrusted.
  std::optional<std::string> note_lookup(const std::string& key);
  void note_store(const std::string& key, const std::string& text);

  std::vector<CacheEntryInfo> list() const;
  std::optional<CacheEntryInfo> find(const std::string& key_prefix) const;
  // Checks every entry (checksums and trust); returns the keys of bad ones (removed when `repair`).
  std::vector<std::string> verify(bool repair);
  // Removes least recently used entries until the total is at most max_bytes; returns them.
  std::vector<std::string> prune(uint64_t max_bytes);
  void clear();

 private:
  std::filesystem::path entries_dir() const { return root_ / "v1" / "entries"; }
  std::filesystem::path frontend_dir() const { return root_ / "v1" / "frontend"; }
  std::filesystem::path tmp_dir() const { return root_ / "v1" / "tmp"; }
  std::filesystem::path notes_dir() const { return root_ / "v1" / "notes"; }
  std::filesystem::path entry_path(const std::string& key) const;
  void discard(const std::filesystem::path& entry) const;
  std::filesystem::path staging_path(const std::string& key) const;
  // Why the cache is not safe to use, or "" (the root and its fixed folders, made if missing).
  std::string check_layout();
  // Why a file or folder of the cache, as lstat/fstat saw it, cannot be trusted, or "".
  std::string distrust(const struct ::stat& status) const;
  bool trusted_directory(const std::filesystem::path& path) const;
  std::optional<std::string> read_trusted(const std::filesystem::path& path) const;
  // Makes a folder or a new file as this cache's members need it: private, or for a shared
  // cache group-owned, group-writable folders and group-readable files.
  bool make_directory(const std::filesystem::path& path) const;
  bool write_new_file(const std::filesystem::path& path, const std::string& bytes) const;
  // The entry in `path`, if it is whole and every part of it trusted.
  std::optional<CacheEntry> read_entry(const std::filesystem::path& path, const std::string& key) const;

  struct Trust;  // who may write the cache: the caller, root, and the shared group's members
  std::filesystem::path root_;
  std::unique_ptr<Trust> trust_;
  bool enabled_ = false;
  std::string warning_;
};

// Hex xxh3-128 of a canonical, length-prefixed serialisation of the parts.
std::string cache_key(const std::vector<std::string>& parts);

}  // namespace pykern::cache
