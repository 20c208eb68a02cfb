#include "jit/cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <xxhash.h>

#include "base/files.h"

namespace pykern::jit {

namespace fs = std::filesystem;

namespace {

std::string hex64(uint64_t value) { return fmt::format("{:016x}", value); }
std::string checksum(const std::string& bytes) { return hex64(XXH3_64bits(bytes.data(), bytes.size())); }

int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Reads a regular file, never through a symbolic link (an entry's files are ours to read).
std::optional<std::string> read_file(const fs::path& path) {
  auto bytes = files::read_regular(path.string(), UINT64_MAX, "file", /*follow_links=*/false);
  if (!bytes.ok()) return std::nullopt;
  return std::move(*bytes);
}

// Whether `path` is a directory itself, not a link to one.
bool real_directory(const fs::path& path) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

struct Child {
  fs::path path;
  fs::file_type type;  // of the name itself: a link is a symlink, never what it points at
};

// The names in a directory, without throwing and without following links (a racing `cache
// clear` may remove them as we go: what vanished is simply not listed).
std::vector<Child> children(const fs::path& dir) {
  std::vector<Child> found;
  if (!real_directory(dir)) return found;
  std::error_code error;
  fs::directory_iterator it(dir, error);
  for (; !error && it != fs::directory_iterator(); it.increment(error)) {
    std::error_code type_error;
    fs::file_type type = it->symlink_status(type_error).type();
    if (!type_error) found.push_back({it->path(), type});
  }
  return found;
}

// Removes a name under the cache root: a link is removed, never what it points at.
void remove_tree(const fs::path& path) {
  std::error_code error;
  fs::remove_all(path, error);
}

std::string record_checksum(nlohmann::json record) {
  if (record.is_object()) record.erase("record_xxh3");
  std::string text = record.dump();
  return hex64(XXH3_64bits(text.data(), text.size()));
}

// Writes a new file. No fsync: after a crash a published entry may hold a short or empty file,
// which its checksums turn into a miss on the next load (and a frontend key file that is not a
// key is a miss too). Syncing would make every store 4-5 ms slower (BENCHMARKS.md, issue 14).
bool write_new_file(const fs::path& path, const std::string& bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  bool ok = files::write_all(fd, bytes);
  return ::close(fd) == 0 && ok;
}

std::string string_field(const nlohmann::json& record, const char* name) {
  if (!record.is_object()) return "";
  auto found = record.find(name);
  return found != record.end() && found->is_string() ? found->get<std::string>() : "";
}

const char* binary_name(const nlohmann::json& record) {
  std::string output = string_field(record, "output");
  if (output == "gch") return "runtime.gch";  // the simulator's precompiled runtime core
  return output == "ptx" ? "kernel.ptx" : output == "so" ? "kernel.so" : "kernel.cubin";
}

// Whether an entry is whole: the record is intact (its own checksum), names the key, and the
// files' checksums match. Any JSON at all may be on disk: nothing here throws.
bool entry_intact(const nlohmann::json& record, const std::string& key, const std::optional<std::string>& binary,
                  const std::optional<std::string>& source) {
  return binary && source && record.is_object() && string_field(record, "record_xxh3") == record_checksum(record) &&
         string_field(record, "binary_xxh3") == checksum(*binary) &&
         string_field(record, "source_xxh3") == checksum(*source) && string_field(record, "key") == key;
}

nlohmann::json parse_record(const std::optional<std::string>& text) {
  if (!text) return nullptr;
  nlohmann::json record = nlohmann::json::parse(*text, nullptr, false);
  return record.is_discarded() ? nlohmann::json(nullptr) : record;
}

bool is_key(const std::string& name) {
  return name.size() == 32 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

std::string cache_key(const std::vector<std::string>& parts) {
  std::string canonical = "pykern-cache-key-v1\n";
  for (const std::string& part : parts) canonical += std::to_string(part.size()) + ":" + part + "\n";
  XXH128_hash_t hash = XXH3_128bits(canonical.data(), canonical.size());
  return hex64(hash.high64) + hex64(hash.low64);
}

fs::path KernelCache::default_root() {
  if (const char* dir = std::getenv("PYKERN_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "pykern";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "pykern";
  return fs::temp_directory_path() / "pykern-cache";
}

KernelCache::KernelCache(fs::path root) : root_(std::move(root)) {
  std::error_code error;
  // The parents (~/.cache on a fresh account) are made as mkdir -p would.
  if (root_.has_parent_path() && !fs::exists(root_.parent_path(), error)) fs::create_directories(root_.parent_path(), error);
  if (!fs::exists(root_, error) && fs::create_directory(root_, error)) ::chmod(root_.c_str(), 0700);
  struct stat status {};
  if (::stat(root_.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) {
    warning_ = fmt::format("warning: kernel cache disabled: cannot create {} ({})", root_.string(),
                           error ? error.message() : std::string("not a directory"));
    return;
  }
  // A cache another user owns (say a planted /tmp/pykern-cache) could serve us their code.
  if (status.st_uid != ::geteuid()) {
    warning_ = fmt::format("warning: kernel cache disabled: {} belongs to another user", root_.string());
    return;
  }
  for (const fs::path& dir : {root_ / "v1", entries_dir(), frontend_dir(), tmp_dir()}) {
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      warning_ = fmt::format("warning: kernel cache disabled: cannot create {} ({})", dir.string(), std::strerror(errno));
      return;
    }
    // Below the root, nothing is followed: a planted link would lead reads, writes and
    // deletions out of the cache.
    if (!real_directory(dir)) {
      warning_ = fmt::format("warning: kernel cache disabled: {} is not a directory (a symbolic link?); remove it",
                             dir.string());
      return;
    }
  }
  if (::access(tmp_dir().c_str(), W_OK) != 0 || ::access(entries_dir().c_str(), W_OK) != 0) {
    warning_ = fmt::format("warning: kernel cache disabled: {} is not writable", root_.string());
    return;
  }
  enabled_ = true;
}

fs::path KernelCache::entry_path(const std::string& key) const { return entries_dir() / key.substr(0, 2) / key; }

fs::path KernelCache::staging_path(const std::string& key) const {
  static std::atomic<uint64_t> counter{0};
  return tmp_dir() / fmt::format("{}.{}.{}.{}", key, ::getpid(),
                                 std::hash<std::thread::id>{}(std::this_thread::get_id()), counter++);
}

void KernelCache::discard(const fs::path& entry) const {
  // Only names under the cache root (a link is moved and removed as itself). Moved out of the
  // way first, so no reader meets it half deleted.
  if (!real_directory(entry.parent_path())) return;
  std::error_code error;
  fs::path doomed = staging_path(entry.filename().string() + ".bad");
  fs::rename(entry, doomed, error);
  remove_tree(error ? entry : doomed);
}

std::optional<CacheEntry> KernelCache::load(const std::string& key) {
  if (!enabled_ || !is_key(key)) return std::nullopt;
  fs::path path = entry_path(key);
  if (!real_directory(path.parent_path()) || !real_directory(path)) return std::nullopt;
  auto record_text = read_file(path / "record.json");
  if (!record_text) return std::nullopt;
  CacheEntry entry;
  entry.key = key;
  entry.record = parse_record(record_text);
  auto binary = entry.record.is_object() ? read_file(path / binary_name(entry.record)) : std::nullopt;
  auto source = entry.record.is_object() ? read_file(path / "kernel.cu") : std::nullopt;
  if (!entry_intact(entry.record, key, binary, source)) {
    discard(path);  // corrupt, truncated or edited: a miss, rebuilt by the caller
    return std::nullopt;
  }
  entry.binary = std::move(*binary);
  entry.cuda_source = std::move(*source);
  // The entry directory's mtime is its last use, for LRU pruning.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
  return entry;
}

Status KernelCache::store(const CacheEntry& entry) {
  if (!enabled_ || !is_key(entry.key)) return ok_status();
  fs::path staging = staging_path(entry.key);
  std::error_code error;
  bool made = ::mkdir(staging.c_str(), 0700) == 0;
  nlohmann::json record = entry.record;
  record["key"] = entry.key;
  record["binary_xxh3"] = checksum(entry.binary);
  record["source_xxh3"] = checksum(entry.cuda_source);
  record["binary_bytes"] = entry.binary.size();
  record["created"] = now_seconds();
  record["record_xxh3"] = record_checksum(record);
  bool written = made && write_new_file(staging / binary_name(record), entry.binary) &&
                 write_new_file(staging / "kernel.cu", entry.cuda_source) &&
                 write_new_file(staging / "record.json", record.dump(2) + "\n");
  if (!written) {
    remove_tree(staging);
    return Error::make(ErrorKind::cache, "cannot write a kernel cache entry in " + tmp_dir().string());
  }
  fs::path target = entry_path(entry.key);
  ::mkdir(target.parent_path().c_str(), 0700);
  if (!real_directory(target.parent_path()) || ::rename(staging.c_str(), target.c_str()) != 0) {
    // Another process published the same key first (its entry is as good as ours), or the
    // shard is not ours to write into.
    remove_tree(staging);
  }
  return ok_status();
}

fs::path KernelCache::binary_file(const CacheEntry& entry) const {
  return entry_path(entry.key) / binary_name(entry.record);
}

std::optional<std::string> KernelCache::frontend_lookup(const std::string& frontend_key) {
  if (!enabled_ || !is_key(frontend_key)) return std::nullopt;
  fs::path shard = frontend_dir() / frontend_key.substr(0, 2);
  if (!real_directory(shard)) return std::nullopt;
  auto key = read_file(shard / frontend_key);
  if (!key || !is_key(*key)) return std::nullopt;
  return key;
}

void KernelCache::frontend_store(const std::string& frontend_key, const std::string& entry_key) {
  if (!enabled_ || !is_key(frontend_key)) return;
  fs::path dir = frontend_dir() / frontend_key.substr(0, 2);
  ::mkdir(dir.c_str(), 0700);
  fs::path staging = staging_path(frontend_key);
  std::error_code error;
  if (real_directory(dir) && write_new_file(staging, entry_key)) fs::rename(staging, dir / frontend_key, error);
  fs::remove(staging, error);
}

std::vector<CacheEntryInfo> KernelCache::list() const {
  std::vector<CacheEntryInfo> entries;
  for (const Child& shard : children(entries_dir())) {
    for (const Child& dir : children(shard.path)) {
      CacheEntryInfo info;
      info.key = dir.path.filename().string();
      info.path = dir.path;
      // Anything but a real directory with a key's name in its shard is stray: listed so that
      // verify removes it, never followed. (children() lists nothing in a shard that is a link.)
      info.stray = dir.type != fs::file_type::directory || !is_key(info.key) ||
                   info.key.compare(0, 2, shard.path.filename().string()) != 0;
      if (!info.stray) {
        for (const Child& file : children(dir.path)) {
          std::error_code error;
          if (file.type == fs::file_type::regular) info.bytes += fs::file_size(file.path, error);
        }
        info.record = parse_record(read_file(dir.path / "record.json"));
      }
      struct stat status {};
      if (::lstat(dir.path.c_str(), &status) == 0) info.last_used = status.st_mtim.tv_sec;
      entries.push_back(std::move(info));
    }
    if (shard.type != fs::file_type::directory) {  // a file or link in entries/ itself
      CacheEntryInfo info;
      info.key = shard.path.filename().string();
      info.path = shard.path;
      info.stray = true;
      entries.push_back(std::move(info));
    }
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.last_used > b.last_used; });
  return entries;
}

std::optional<CacheEntryInfo> KernelCache::find(const std::string& key_prefix) const {
  std::optional<CacheEntryInfo> found;
  for (CacheEntryInfo& info : list()) {
    if (info.stray || info.key.rfind(key_prefix, 0) != 0) continue;
    if (found) return std::nullopt;  // ambiguous
    found = std::move(info);
  }
  return found;
}

std::vector<std::string> KernelCache::verify(bool repair) {
  std::vector<std::string> bad;
  for (const CacheEntryInfo& info : list()) {
    if (!info.stray) {
      const nlohmann::json& record = info.record;
      auto binary = record.is_object() ? read_file(info.path / binary_name(record)) : std::nullopt;
      auto source = record.is_object() ? read_file(info.path / "kernel.cu") : std::nullopt;
      if (entry_intact(record, info.key, binary, source)) continue;
    }
    bad.push_back(info.key);
    if (repair) remove_tree(info.path);  // a link goes, not what it points at
  }
  return bad;
}

std::vector<std::string> KernelCache::prune(uint64_t max_bytes) {
  std::vector<CacheEntryInfo> entries = list();  // newest first
  uint64_t total = 0;
  for (const auto& e : entries) total += e.bytes;
  std::vector<std::string> removed;
  for (auto it = entries.rbegin(); it != entries.rend() && total > max_bytes; ++it) {
    if (it->stray) continue;  // verify's business
    discard(it->path);
    total -= it->bytes;
    removed.push_back(it->key);
  }
  // Stale staging directories of crashed writers go too (older than an hour).
  for (const Child& stale : children(tmp_dir())) {
    struct stat status {};
    if (::lstat(stale.path.c_str(), &status) == 0 && now_seconds() - status.st_mtim.tv_sec > 3600)
      remove_tree(stale.path);
  }
  return removed;
}

void KernelCache::clear() {
  for (const fs::path& dir : {entries_dir(), frontend_dir()})
    for (const Child& child : children(dir)) remove_tree(child.path);
}

}  // namespace pykern::jit
