#include "jit/cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <xxhash.h>

namespace pykern::jit {

namespace fs = std::filesystem;

namespace {

std::string hex64(uint64_t value) { return fmt::format("{:016x}", value); }
std::string checksum(const std::string& bytes) { return hex64(XXH3_64bits(bytes.data(), bytes.size())); }

int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return buffer.str();
}

// Write and fsync, so a renamed directory never holds a file the disk has not seen.
bool write_file_synced(const fs::path& path, const std::string& bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) {
      ::close(fd);
      return false;
    }
    written += static_cast<size_t>(n);
  }
  bool ok = ::fsync(fd) == 0;
  return ::close(fd) == 0 && ok;
}

void sync_directory(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// Whether an entry's files are whole: the record names the key, and the checksums match.
bool entry_intact(const nlohmann::json& record, const std::string& key, const std::optional<std::string>& binary,
                  const std::optional<std::string>& source);

const char* binary_name(const nlohmann::json& record) {
  std::string output = record.value("output", "cubin");
  return output == "ptx" ? "kernel.ptx" : output == "so" ? "kernel.so" : "kernel.cubin";
}

bool entry_intact(const nlohmann::json& record, const std::string& key, const std::optional<std::string>& binary,
                  const std::optional<std::string>& source) {
  return binary && source && record.value("binary_xxh3", "") == checksum(*binary) &&
         record.value("source_xxh3", "") == checksum(*source) && record.value("key", "") == key;
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
  for (const fs::path& dir : {root_, root_ / "v1", entries_dir(), frontend_dir(), tmp_dir()}) {
    if (fs::exists(dir, error)) continue;
    if (!fs::create_directory(dir, error) && !fs::exists(dir)) {
      warning_ = fmt::format("warning: kernel cache disabled: cannot create {} ({})", dir.string(), error.message());
      return;
    }
    ::chmod(dir.c_str(), 0700);  // kernels may carry user code: keep them private
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
  // Move it out of the way first, so no reader meets it half deleted.
  std::error_code error;
  fs::path doomed = staging_path(entry.filename().string() + ".bad");
  fs::rename(entry, doomed, error);
  fs::remove_all(error ? entry : doomed, error);
}

std::optional<CacheEntry> KernelCache::load(const std::string& key) {
  if (!enabled_ || key.size() < 3) return std::nullopt;
  fs::path path = entry_path(key);
  auto record_text = read_file(path / "record.json");
  if (!record_text) return std::nullopt;
  CacheEntry entry;
  entry.key = key;
  entry.record = nlohmann::json::parse(*record_text, nullptr, false);
  auto binary = entry.record.is_object() ? read_file(path / binary_name(entry.record)) : std::nullopt;
  auto source = entry.record.is_object() ? read_file(path / "kernel.cu") : std::nullopt;
  if (!entry_intact(entry.record, key, binary, source)) {
    discard(path);  // corrupt or truncated: a miss, rebuilt by the caller
    return std::nullopt;
  }
  entry.binary = std::move(*binary);
  entry.cuda_source = std::move(*source);
  // The entry directory's mtime is its last use, for LRU pruning.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return entry;
}

Status KernelCache::store(const CacheEntry& entry) {
  if (!enabled_) return ok_status();
  fs::path staging = staging_path(entry.key);
  std::error_code error;
  fs::create_directory(staging, error);
  nlohmann::json record = entry.record;
  record["key"] = entry.key;
  record["binary_xxh3"] = checksum(entry.binary);
  record["source_xxh3"] = checksum(entry.cuda_source);
  record["binary_bytes"] = entry.binary.size();
  record["created"] = now_seconds();
  bool written = !error && write_file_synced(staging / binary_name(record), entry.binary) &&
                 write_file_synced(staging / "kernel.cu", entry.cuda_source) &&
                 write_file_synced(staging / "record.json", record.dump(2) + "\n");
  if (!written) {
    fs::remove_all(staging, error);
    return Error::make(ErrorKind::cache, "cannot write a kernel cache entry in " + tmp_dir().string());
  }
  sync_directory(staging);
  fs::path target = entry_path(entry.key);
  fs::create_directories(target.parent_path(), error);
  if (::rename(staging.c_str(), target.c_str()) != 0) {
    // Another process published the same key first: its entry is as good as ours.
    fs::remove_all(staging, error);
  }
  sync_directory(target.parent_path());
  return ok_status();
}

fs::path KernelCache::binary_file(const CacheEntry& entry) const {
  return entry_path(entry.key) / binary_name(entry.record);
}

std::optional<std::string> KernelCache::frontend_lookup(const std::string& frontend_key) {
  if (!enabled_ || frontend_key.size() < 3) return std::nullopt;
  auto key = read_file(frontend_dir() / frontend_key.substr(0, 2) / frontend_key);
  if (!key || key->size() != 32) return std::nullopt;
  return key;
}

void KernelCache::frontend_store(const std::string& frontend_key, const std::string& entry_key) {
  if (!enabled_) return;
  fs::path dir = frontend_dir() / frontend_key.substr(0, 2);
  std::error_code error;
  fs::create_directories(dir, error);
  fs::path staging = staging_path(frontend_key);
  if (write_file_synced(staging, entry_key)) {
    fs::rename(staging, dir / frontend_key, error);
  }
  if (error) fs::remove(staging, error);
}

std::vector<CacheEntryInfo> KernelCache::list() const {
  std::vector<CacheEntryInfo> entries;
  std::error_code error;
  if (!fs::is_directory(entries_dir(), error)) return entries;
  for (const auto& shard : fs::directory_iterator(entries_dir(), error)) {
    for (const auto& dir : fs::directory_iterator(shard.path(), error)) {
      CacheEntryInfo info;
      info.key = dir.path().filename().string();
      info.path = dir.path();
      for (const auto& file : fs::directory_iterator(dir.path(), error))
        info.bytes += file.is_regular_file() ? file.file_size() : 0;
      struct stat status {};
      if (::stat(dir.path().c_str(), &status) == 0) info.last_used = status.st_mtim.tv_sec;
      auto record = read_file(dir.path() / "record.json");
      info.record = record ? nlohmann::json::parse(*record, nullptr, false) : nlohmann::json();
      entries.push_back(std::move(info));
    }
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.last_used > b.last_used; });
  return entries;
}

std::optional<CacheEntryInfo> KernelCache::find(const std::string& key_prefix) const {
  std::optional<CacheEntryInfo> found;
  for (CacheEntryInfo& info : list()) {
    if (info.key.rfind(key_prefix, 0) != 0) continue;
    if (found) return std::nullopt;  // ambiguous
    found = std::move(info);
  }
  return found;
}

std::vector<std::string> KernelCache::verify(bool repair) {
  std::vector<std::string> bad;
  for (const CacheEntryInfo& info : list()) {
    const nlohmann::json& record = info.record;
    auto binary = record.is_object() ? read_file(info.path / binary_name(record)) : std::nullopt;
    auto source = record.is_object() ? read_file(info.path / "kernel.cu") : std::nullopt;
    if (entry_intact(record, info.key, binary, source)) continue;
    bad.push_back(info.key);
    if (repair) discard(info.path);
  }
  return bad;
}

std::vector<std::string> KernelCache::prune(uint64_t max_bytes) {
  std::vector<CacheEntryInfo> entries = list();  // newest first
  uint64_t total = 0;
  for (const auto& e : entries) total += e.bytes;
  std::vector<std::string> removed;
  for (auto it = entries.rbegin(); it != entries.rend() && total > max_bytes; ++it) {
    discard(it->path);
    total -= it->bytes;
    removed.push_back(it->key);
  }
  // Stale staging directories of crashed writers go too (older than an hour).
  std::error_code error;
  for (const auto& stale : fs::directory_iterator(tmp_dir(), error)) {
    struct stat status {};
    if (::stat(stale.path().c_str(), &status) == 0 && now_seconds() - status.st_mtim.tv_sec > 3600)
      fs::remove_all(stale.path(), error);
  }
  return removed;
}

void KernelCache::clear() {
  std::error_code error;
  for (const fs::path& dir : {entries_dir(), frontend_dir()}) {
    for (const auto& child : fs::directory_iterator(dir, error)) fs::remove_all(child.path(), error);
  }
}

}  // namespace pykern::jit
