#include "cache/cache.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <xxhash.h>

#include "base/files.h"

namespace pykern::cache {

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

// record.json's own checksum is of its bytes as written, with the checksum's 16 digits read as
// zeros: a hit verifies the text it read without serialising the parsed record again (that, and
// copying it, was a tenth of a cache-hit process; BENCHMARKS.md, issue 32).
constexpr std::string_view record_checksum_member = "\"record_xxh3\": \"";
constexpr size_t checksum_digits = 16;

// Where the checksum's digits are in a record's text (the member's name, unescaped, once: a
// string value holding it would hold its quotes escaped), or npos.
size_t record_checksum_at(const std::string& text) {
  size_t at = text.find(record_checksum_member);
  if (at == std::string::npos || text.find(record_checksum_member, at + 1) != std::string::npos) return std::string::npos;
  at += record_checksum_member.size();
  return text.size() - at > checksum_digits && text[at + checksum_digits] == '"' ? at : std::string::npos;
}

std::string record_checksum(std::string text, size_t at) {
  text.replace(at, checksum_digits, checksum_digits, '0');
  return checksum(text);
}

// The record as record.json holds it: pretty JSON whose record_xxh3 is filled in last.
std::string sealed_record_text(nlohmann::json record) {
  record["record_xxh3"] = std::string(checksum_digits, '0');
  std::string text = record.dump(2) + "\n";
  size_t at = record_checksum_at(text);
  if (at != std::string::npos) text.replace(at, checksum_digits, record_checksum(text, at));
  return text;
}

// The checksum `text` carries, when it is the checksum of `text`; "" otherwise.
std::string verified_record_checksum(const std::string& text) {
  size_t at = record_checksum_at(text);
  if (at == std::string::npos) return "";
  std::string written = text.substr(at, checksum_digits);
  return written == record_checksum(text, at) ? written : "";
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

// Whether an entry is whole: the record is intact (`record_sum`, its text's verified checksum,
// is the one it holds), names the key, and the files' checksums match. Any JSON at all may be on
// disk: nothing here throws.
bool entry_intact(const nlohmann::json& record, const std::string& record_sum, const std::string& key,
                  const std::optional<std::string>& binary, const std::optional<std::string>& source) {
  return binary && source && record.is_object() && !record_sum.empty() &&
         string_field(record, "record_xxh3") == record_sum && string_field(record, "binary_xxh3") == checksum(*binary) &&
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

// A buffer for the reentrant passwd and group lookups, grown while they ask for more. It is
// gone when this returns: `lookup` copies out the strings it needs (they point into it).
template <class Lookup> bool lookup_with_buffer(Lookup lookup) {
  std::vector<char> buffer(16384);
  for (;;) {
    int failed = lookup(buffer);
    if (failed != ERANGE) return failed == 0;
    if (buffer.size() > (1u << 24)) return false;
    buffer.resize(buffer.size() * 2);
  }
}

// The group a setting names: a group name, or a number.
std::optional<gid_t> resolve_group(const std::string& name) {
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos && name.size() < 10)
    return static_cast<gid_t>(std::stoul(name));
  struct group entry {};
  struct group* found = nullptr;
  if (!lookup_with_buffer([&](std::vector<char>& buffer) {
        return ::getgrnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found);
      }) || found == nullptr)
    return std::nullopt;
  return found->gr_gid;
}

// Whether user `uid` belongs to `group`: as its primary group, or listed in it.
bool member_of(uid_t uid, gid_t group) {
  struct passwd user {};
  struct passwd* found_user = nullptr;
  std::string name;
  bool primary = false;
  lookup_with_buffer([&](std::vector<char>& buffer) {
    int failed = ::getpwuid_r(uid, &user, buffer.data(), buffer.size(), &found_user);
    if (failed == 0 && found_user) {  // the strings live in the buffer: copied while it does
      primary = found_user->pw_gid == group;
      name = found_user->pw_name;
    }
    return failed;
  });
  if (primary) return true;
  if (name.empty()) return false;
  struct group entry {};
  struct group* found_group = nullptr;
  bool listed = false;
  lookup_with_buffer([&](std::vector<char>& buffer) {
    int failed = ::getgrgid_r(group, &entry, buffer.data(), buffer.size(), &found_group);
    if (failed == 0 && found_group)
      for (char** member = found_group->gr_mem; member && *member; ++member) listed = listed || name == *member;
    return failed;
  });
  return listed;
}

// A group as a person reads it: its name, else its number.
std::string group_text(gid_t gid) {
  struct group entry {};
  struct group* found = nullptr;
  std::string name;
  lookup_with_buffer([&](std::vector<char>& buffer) {
    int failed = ::getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found);
    if (failed == 0 && found) name = found->gr_name;  // the name lives in the buffer: copied while it does
    return failed;
  });
  return name.empty() ? std::to_string(gid) : name;
}

std::string mode_text(mode_t mode) { return fmt::format("{:04o}", static_cast<unsigned>(mode & 07777)); }

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
  auto temp = files::temp_root();
  return fs::path(temp.ok() ? *temp : "/tmp") / "pykern-cache";
}

std::string KernelCache::default_shared_group() {
  const char* group = std::getenv("PYKERN_CACHE_GROUP");
  return group ? group : "";
}

// The caller, and for a shared cache its group; which owners are members is asked once each.
struct KernelCache::Trust {
  uid_t self = ::geteuid();
  std::optional<gid_t> group;
  std::string group_name;
  std::mutex mutex;
  std::map<uid_t, bool> members;

  bool trusted_owner(uid_t owner) {
    if (owner == self || owner == 0) return true;  // root can write anything anyway
    if (!group) return false;
    std::lock_guard<std::mutex> lock(mutex);
    auto known = members.find(owner);
    if (known == members.end()) known = members.emplace(owner, member_of(owner, *group)).first;
    return known->second;
  }
};

KernelCache::KernelCache(fs::path root, std::string shared_group) : root_(std::move(root)), trust_(new Trust) {
  if (!shared_group.empty()) {
    trust_->group = resolve_group(shared_group);
    trust_->group_name = shared_group;
    if (!trust_->group) {
      warning_ = fmt::format("warning: kernel cache disabled: PYKERN_CACHE_GROUP names no group '{}'", shared_group);
      return;
    }
  }
  warning_ = check_layout();
  enabled_ = warning_.empty();
}

KernelCache::~KernelCache() = default;
KernelCache::KernelCache(KernelCache&&) noexcept = default;

std::string KernelCache::distrust(const struct ::stat& status) const {
  if (!trust_->trusted_owner(status.st_uid))
    return trust_->group ? fmt::format("belongs to another user (uid {}), not a member of group {}", status.st_uid,
                                       trust_->group_name)
                         : fmt::format("belongs to another user (uid {})", status.st_uid);
  if (status.st_mode & S_IWOTH) return fmt::format("is writable by every user (mode {})", mode_text(status.st_mode));
  if ((status.st_mode & S_IWGRP) && !(trust_->group && status.st_gid == *trust_->group))
    return fmt::format("is writable by group {} (mode {})", group_text(status.st_gid), mode_text(status.st_mode));
  return "";
}

std::string KernelCache::check_layout() {
  std::error_code error;
  // The parents (~/.cache on a fresh account) are made as mkdir -p would; they are not checked
  // (a sticky /tmp above the root is fine: no one else can rename or replace what is in it).
  if (root_.has_parent_path() && !fs::exists(root_.parent_path(), error)) fs::create_directories(root_.parent_path(), error);
  int made = fs::exists(root_, error) || make_directory(root_) ? 0 : errno;
  struct stat status {};
  if (::stat(root_.c_str(), &status) != 0 || !S_ISDIR(status.st_mode))
    return fmt::format("warning: kernel cache disabled: cannot create {} ({})", root_.string(),
                       made ? std::strerror(made) : error ? error.message() : std::string("not a directory"));
  // A cache others can write (say a planted /tmp/pykern-cache, or a folder made with umask 002)
  // could serve us their code: checksums do not help, whoever writes an entry can recompute them.
  auto refuse = [&](const fs::path& dir, const std::string& why) {
    return fmt::format("warning: kernel cache disabled: {} {}; a library planted there would be loaded. Use a "
                       "folder only you can write (chmod go-w), or name the group that shares it in "
                       "PYKERN_CACHE_GROUP",
                       dir.string(), why);
  };
  if (std::string why = distrust(status); !why.empty()) return refuse(root_, why);
  for (const fs::path& dir : {root_ / "v1", entries_dir(), frontend_dir(), tmp_dir()}) {
    if (!make_directory(dir) && errno != EEXIST)
      return fmt::format("warning: kernel cache disabled: cannot create {} ({})", dir.string(), std::strerror(errno));
    // Below the root, nothing is followed: a planted link would lead reads, writes and
    // deletions out of the cache.
    if (!real_directory(dir))
      return fmt::format("warning: kernel cache disabled: {} is not a directory (a symbolic link?); remove it",
                         dir.string());
    ::lstat(dir.c_str(), &status);
    if (std::string why = distrust(status); !why.empty()) return refuse(dir, why);
  }
  if (::access(tmp_dir().c_str(), W_OK) != 0 || ::access(entries_dir().c_str(), W_OK) != 0)
    return fmt::format("warning: kernel cache disabled: {} is not writable", root_.string());
  return "";
}

bool KernelCache::trusted_directory(const fs::path& path) const {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode) && distrust(status).empty();
}

// Reads a regular file that is trusted as it was opened (fstat of the open file: what is
// checked is what is read), never through a symbolic link, never waiting on a FIFO.
std::optional<std::string> KernelCache::read_trusted(const fs::path& path) const {
  auto file = files::RegularFile::open(path.string(), /*follow_links=*/false);
  struct stat status {};
  if (!file.ok() || !file->status(&status) || !distrust(status).empty()) return std::nullopt;
  return file->read_to_end();
}

bool KernelCache::make_directory(const fs::path& path) const {
  if (::mkdir(path.c_str(), 0700) != 0) return false;
  if (!trust_->group) return ::chmod(path.c_str(), 0700) == 0;  // whatever the umask took away
  // Group-owned and group-writable (setgid: what is made inside keeps the group), whatever
  // our primary group and umask.
  return ::chown(path.c_str(), static_cast<uid_t>(-1), *trust_->group) == 0 && ::chmod(path.c_str(), 02770) == 0;
}

// Writes a new file. No fsync: after a crash a published entry may hold a short or empty file,
// which its checksums turn into a miss on the next load (and a frontend key file that is not a
// key is a miss too). Syncing would make every store 4-5 ms slower (BENCHMARKS.md, issue 14).
bool KernelCache::write_new_file(const fs::path& path, const std::string& bytes) const {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  bool ok = files::write_all(fd, bytes);
  if (trust_->group) ok = ok && ::fchown(fd, static_cast<uid_t>(-1), *trust_->group) == 0 && ::fchmod(fd, 0640) == 0;
  return ::close(fd) == 0 && ok;
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

std::optional<CacheEntry> KernelCache::read_entry(const fs::path& path, const std::string& key) const {
  if (!trusted_directory(path.parent_path()) || !trusted_directory(path)) return std::nullopt;
  CacheEntry entry;
  entry.key = key;
  auto text = read_trusted(path / "record.json");
  std::string record_sum = text ? verified_record_checksum(*text) : "";
  if (record_sum.empty()) return std::nullopt;
  entry.record = parse_record(text);
  if (!entry.record.is_object()) return std::nullopt;
  auto binary = read_trusted(path / binary_name(entry.record));
  auto source = read_trusted(path / "kernel.cu");
  if (!entry_intact(entry.record, record_sum, key, binary, source)) return std::nullopt;
  entry.binary = std::move(*binary);
  entry.cuda_source = std::move(*source);
  return entry;
}

std::optional<CacheEntry> KernelCache::load(const std::string& key) {
  if (!enabled_ || !is_key(key)) return std::nullopt;
  fs::path path = entry_path(key);
  if (!real_directory(path)) return std::nullopt;
  auto entry = read_entry(path, key);
  if (!entry) {
    // Corrupt, truncated, edited, or writable by others: a miss, rebuilt by the caller.
    if (trusted_directory(path.parent_path())) discard(path);
    return std::nullopt;
  }
  // The entry directory's mtime is its last use, for LRU pruning.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
  return entry;
}

Status KernelCache::store(const CacheEntry& entry) {
  if (!enabled_ || !is_key(entry.key)) return ok_status();
  fs::path staging = staging_path(entry.key);
  bool made = make_directory(staging);
  nlohmann::json record = entry.record;
  record["key"] = entry.key;
  record["binary_xxh3"] = checksum(entry.binary);
  record["source_xxh3"] = checksum(entry.cuda_source);
  record["binary_bytes"] = entry.binary.size();
  record["created"] = now_seconds();
  bool written = made && write_new_file(staging / binary_name(record), entry.binary) &&
                 write_new_file(staging / "kernel.cu", entry.cuda_source) &&
                 write_new_file(staging / "record.json", sealed_record_text(std::move(record)));
  if (!written) {
    remove_tree(staging);
    return Error::make(ErrorKind::cache, "cannot write a kernel cache entry in " + tmp_dir().string());
  }
  fs::path target = entry_path(entry.key);
  make_directory(target.parent_path());
  if (!trusted_directory(target.parent_path()) || ::rename(staging.c_str(), target.c_str()) != 0) {
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
  if (!trusted_directory(shard)) return std::nullopt;
  auto key = read_trusted(shard / frontend_key);
  if (!key || !is_key(*key)) return std::nullopt;
  return key;
}

void KernelCache::frontend_store(const std::string& frontend_key, const std::string& entry_key) {
  if (!enabled_ || !is_key(frontend_key)) return;
  fs::path dir = frontend_dir() / frontend_key.substr(0, 2);
  make_directory(dir);
  fs::path staging = staging_path(frontend_key);
  std::error_code error;
  if (trusted_directory(dir) && write_new_file(staging, entry_key)) fs::rename(staging, dir / frontend_key, error);
  fs::remove(staging, error);
}

std::optional<std::string> KernelCache::note_lookup(const std::string& key) {
  if (!enabled_ || !is_key(key) || !trusted_directory(notes_dir())) return std::nullopt;
  auto text = read_trusted(notes_dir() / key);
  if (!text || text->size() > 4096) return std::nullopt;  // notes are a line or two
  return text;
}

void KernelCache::note_store(const std::string& key, const std::string& text) {
  if (!enabled_ || !is_key(key) || text.size() > 4096) return;
  make_directory(notes_dir());
  fs::path staging = staging_path(key);
  std::error_code error;
  if (trusted_directory(notes_dir()) && write_new_file(staging, text)) fs::rename(staging, notes_dir() / key, error);
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
    if (!info.stray && read_entry(info.path, info.key)) continue;
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
  for (const fs::path& dir : {entries_dir(), frontend_dir(), notes_dir()})
    for (const Child& child : children(dir)) remove_tree(child.path);
}

}  // namespace pykern::cache
