#include "jit/cubin_info.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace pykern::jit {

namespace {

// ELF constants the reader needs (elf.h names; CUDA's own from what ptxas writes).
constexpr uint16_t em_cuda = 190;
constexpr uint32_t sht_symtab = 2, sht_nobits = 8;
constexpr unsigned char stt_func = 2;
constexpr unsigned char sto_cuda_entry = 0x10;  // st_other of a __global__ function

// .nv.info records: a format byte, an attribute byte, then a 16-bit value (EIFMT_NVAL, BVAL,
// HVAL) or the size of the value's bytes that follow (EIFMT_SVAL).
constexpr uint8_t eifmt_sval = 4;
enum Attribute : uint8_t {
  max_threads = 0x05,      // __launch_bounds__: x, y, z
  param_cbank = 0x0a,      // symbol of .nv.constant0.<kernel>, offset and size of the parameters there
  reqntid = 0x10,          // .reqntid: x, y, z
  frame_size = 0x11,       // global: symbol, bytes
  min_stack_size = 0x12,   // global: symbol, bytes
  kparam_info = 0x17,      // one per parameter: index, ordinal, offset, flags and size
  cbank_param_size = 0x19,
  max_stack_size = 0x23,   // global: symbol, bytes
  regcount = 0x2f,         // global: symbol, registers
  num_barriers = 0x4c,
  annotations = 0x55,      // (kind, instruction offset) pairs; kind 1: a spill or refill
};
constexpr uint32_t annotation_spill_refill = 1;

Error malformed(const std::string& why) {
  return Error::make(ErrorKind::invalid_argument, "not a readable cubin: " + why);
}

// Little-endian reads that fail, instead of reading past the end, on a short file.
class Bytes {
 public:
  explicit Bytes(std::string_view data) : data_(data) {}
  size_t size() const { return data_.size(); }
  bool has(uint64_t offset, uint64_t length) const { return offset <= data_.size() && length <= data_.size() - offset; }
  template <class T> std::optional<T> read(uint64_t offset) const {
    if (!has(offset, sizeof(T))) return std::nullopt;
    T value;
    std::memcpy(&value, data_.data() + offset, sizeof(T));
    return value;
  }
  std::string_view slice(uint64_t offset, uint64_t length) const { return data_.substr(offset, length); }

 private:
  std::string_view data_;
};

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t entry_size = 0;
};

struct Symbol {
  std::string name;
  unsigned char type = 0, other = 0;
  uint16_t section = 0;
};

struct Elf {
  explicit Elf(std::string_view data) : bytes(data) {}
  Bytes bytes;
  int arch = 0;
  std::vector<Section> sections;
  std::map<std::string, size_t> by_name;  // the first section of each name
  std::vector<Symbol> symbols;
};

// A NUL-terminated name at `offset` of string table `table`; empty where it would run past it.
std::optional<std::string> name_at(const Bytes& bytes, const Section& table, uint64_t offset) {
  if (table.type == sht_nobits || !bytes.has(table.offset, table.size) || offset >= table.size) return std::nullopt;
  std::string_view text = bytes.slice(table.offset + offset, table.size - offset);
  size_t end = text.find('\0');
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(text.substr(0, end));
}

Status read_sections(Elf& elf) {
  const Bytes& b = elf.bytes;
  auto shoff = b.read<uint64_t>(0x28);
  auto shentsize = b.read<uint16_t>(0x3a), shnum = b.read<uint16_t>(0x3c), shstrndx = b.read<uint16_t>(0x3e);
  if (!shoff || !shentsize || !shnum || !shstrndx) return malformed("the ELF header is cut short");
  if (*shentsize < 64) return malformed(fmt::format("section headers of {} bytes (64 expected)", *shentsize));
  if (!b.has(*shoff, uint64_t(*shnum) * *shentsize)) return malformed("the section headers lie past the end of the file");
  for (uint16_t i = 0; i < *shnum; ++i) {
    uint64_t at = *shoff + uint64_t(i) * *shentsize;
    Section s;
    s.type = *b.read<uint32_t>(at + 4);
    s.offset = *b.read<uint64_t>(at + 0x18);
    s.size = *b.read<uint64_t>(at + 0x20);
    s.link = *b.read<uint32_t>(at + 0x28);
    s.info = *b.read<uint32_t>(at + 0x2c);
    s.entry_size = *b.read<uint64_t>(at + 0x38);
    if (s.type != sht_nobits && !b.has(s.offset, s.size))
      return malformed(fmt::format("section {} lies past the end of the file", i));
    elf.sections.push_back(s);
  }
  if (*shstrndx >= elf.sections.size()) return malformed("no section names");
  const Section names = elf.sections[*shstrndx];
  for (size_t i = 0; i < elf.sections.size(); ++i) {
    auto name = name_at(b, names, *b.read<uint32_t>(*shoff + i * *shentsize));
    if (!name) return malformed(fmt::format("section {} has no name", i));
    elf.sections[i].name = *name;
    elf.by_name.emplace(*name, i);
  }
  return ok_status();
}

Status read_symbols(Elf& elf) {
  auto table = std::find_if(elf.sections.begin(), elf.sections.end(), [](const Section& s) { return s.type == sht_symtab; });
  if (table == elf.sections.end()) return malformed("no symbol table");
  if (table->entry_size < 24 || table->entry_size > 4096 || table->link >= elf.sections.size())
    return malformed("a malformed symbol table");
  const Section& names = elf.sections[table->link];
  for (uint64_t at = table->offset; at + table->entry_size <= table->offset + table->size; at += table->entry_size) {
    Symbol s;
    auto name = name_at(elf.bytes, names, *elf.bytes.read<uint32_t>(at));
    if (!name) return malformed("a symbol has no name");
    s.name = *name;
    s.type = *elf.bytes.read<unsigned char>(at + 4) & 0xf;
    s.other = *elf.bytes.read<unsigned char>(at + 5);
    s.section = *elf.bytes.read<uint16_t>(at + 6);
    elf.symbols.push_back(s);
  }
  return ok_status();
}

Result<Elf> read_elf(std::string_view data) {
  Elf elf(data);
  const Bytes& b = elf.bytes;
  if (b.size() < 64 || data.substr(0, 4) != "\x7f" "ELF") return malformed("no ELF header");
  if (data[4] != 2 || data[5] != 1) return malformed("not a 64-bit little-endian ELF file");
  if (*b.read<uint16_t>(0x12) != em_cuda) return malformed("an ELF file for another machine than a CUDA GPU");
  // The architecture: bits 8-15 of e_flags since ABI version 8 (CUDA 12.8), bits 0-7 before.
  uint32_t flags = *b.read<uint32_t>(0x30);
  elf.arch = static_cast<unsigned char>(data[8]) >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
  if (auto s = read_sections(elf); !s.ok()) return s.error();
  if (auto s = read_symbols(elf); !s.ok()) return s.error();
  return elf;
}

struct Record {
  uint8_t format, attribute;
  uint16_t value;             // the value, or the size of `data`
  std::string_view data;      // EIFMT_SVAL's bytes
  uint32_t word(size_t i) const {  // the i-th 32-bit word of `data`, 0 past its end
    if (data.size() < 4 * (i + 1)) return 0;
    uint32_t w;
    std::memcpy(&w, data.data() + 4 * i, 4);
    return w;
  }
};

Result<std::vector<Record>> records_of(const Elf& elf, const Section& section) {
  std::vector<Record> records;
  if (section.type == sht_nobits) return malformed("an attribute section " + section.name + " without contents");
  uint64_t at = section.offset, end = section.offset + section.size;
  while (at + 4 <= end) {
    Record r{*elf.bytes.read<uint8_t>(at), *elf.bytes.read<uint8_t>(at + 1), *elf.bytes.read<uint16_t>(at + 2), {}};
    at += 4;
    if (r.format == eifmt_sval) {
      if (r.value > end - at) return malformed("an attribute record of " + section.name + " runs past its section");
      r.data = elf.bytes.slice(at, r.value);
      at += r.value;
    }
    records.push_back(r);
  }
  return records;
}

const Section* section_named(const Elf& elf, const std::string& name) {
  auto it = elf.by_name.find(name);
  return it == elf.by_name.end() ? nullptr : &elf.sections[it->second];
}

int64_t section_size(const Elf& elf, const std::string& name) {
  const Section* s = section_named(elf, name);
  return s ? static_cast<int64_t>(std::min<uint64_t>(s->size, uint64_t(1) << 40)) : 0;  // a NOBITS size is unchecked
}

// Bytes of the spills and refills the annotations point at: each is an STL or LDL of the
// 128-bit instruction encoding of sm_70 and later (opcode in bits 0-11, width in bits 73-75).
void count_spills(const Elf& elf, const Section& text, const Record& r, KernelResources& k) {
  static const int widths[8] = {1, 1, 2, 2, 4, 8, 16, 16};
  for (size_t i = 0; 4 * i + 8 <= r.data.size(); i += 2) {
    if (r.word(i) != annotation_spill_refill) continue;
    uint64_t at = r.word(i + 1);
    if (at % 16 != 0 || at + 16 > text.size || text.type == sht_nobits) continue;
    uint64_t low = *elf.bytes.read<uint64_t>(text.offset + at), high = *elf.bytes.read<uint64_t>(text.offset + at + 8);
    int width = widths[(high >> 9) & 7];
    if ((low & 0xfff) == 0x387) k.spill_store_bytes += width;      // STL
    else if ((low & 0xfff) == 0x983) k.spill_load_bytes += width;  // LDL
  }
}

Status read_kernel_info(const Elf& elf, const Section& info, KernelResources& k) {
  auto records = records_of(elf, info);
  if (!records.ok()) return records.error();
  const Section* text = section_named(elf, ".text." + k.symbol);
  for (const Record& r : *records) {
    switch (r.attribute) {
      case kparam_info:
        if (r.data.size() < 12) return malformed("a short parameter record for " + k.symbol);
        // index (4 bytes), ordinal (2), offset (2), then flags with the size in bits 18-31.
        k.parameters.push_back({static_cast<int>(r.word(1) & 0xffff), r.word(1) >> 16, r.word(2) >> 18});
        break;
      case param_cbank:
        if (r.data.size() < 8) return malformed("a short parameter bank record for " + k.symbol);
        k.parameter_bank_bytes = r.word(1) >> 16;
        break;
      case num_barriers: k.barriers = r.value; break;
      case max_threads:
      case reqntid: {
        // Each extent capped, so that a garbled record cannot overflow the product.
        auto extent = [&](size_t i) { return std::clamp<uint64_t>(r.word(i), i == 0 ? 0 : 1, 1 << 20); };
        uint64_t threads = extent(0) * extent(1) * extent(2);
        if (threads > 0) k.max_threads_per_block = static_cast<int>(std::min<uint64_t>(threads, 1 << 30));
        break;
      }
      case annotations:
        if (text) count_spills(elf, *text, r, k);
        break;
      default: break;
    }
  }
  std::sort(k.parameters.begin(), k.parameters.end(),
            [](const CubinParameter& a, const CubinParameter& b) { return a.ordinal < b.ordinal; });
  return ok_status();
}

// The global .nv.info: per function (by symbol index) registers, frame and stack sizes.
struct GlobalInfo {
  std::map<uint32_t, uint32_t> registers, frame, min_stack, max_stack;
};

Result<GlobalInfo> read_global_info(const Elf& elf) {
  GlobalInfo g;
  const Section* info = section_named(elf, ".nv.info");
  if (!info) return g;
  auto records = records_of(elf, *info);
  if (!records.ok()) return records.error();
  for (const Record& r : *records) {
    if (r.data.size() < 8) continue;
    std::map<uint32_t, uint32_t>* into = r.attribute == regcount         ? &g.registers
                                         : r.attribute == frame_size     ? &g.frame
                                         : r.attribute == min_stack_size ? &g.min_stack
                                         : r.attribute == max_stack_size ? &g.max_stack
                                                                         : nullptr;
    if (into) (*into)[r.word(0)] = r.word(1);
  }
  return g;
}

}  // namespace

Result<std::vector<KernelResources>> read_cubin(std::string_view bytes) {
  auto elf = read_elf(bytes);
  if (!elf.ok()) return elf.error();
  auto global = read_global_info(*elf);
  if (!global.ok()) return global.error();
  // sm_90 and later cubins lay the system's 1 KB per block out in the shared window themselves.
  bool reserve_in_section = std::any_of(elf->symbols.begin(), elf->symbols.end(),
                                        [](const Symbol& s) { return s.name.rfind(".nv.reservedSmem", 0) == 0; });
  std::vector<KernelResources> functions;
  for (size_t i = 0; i < elf->symbols.size(); ++i) {
    const Symbol& s = elf->symbols[i];
    if (s.type != stt_func || s.section >= elf->sections.size() || elf->sections[s.section].name != ".text." + s.name) continue;
    KernelResources k;
    k.symbol = s.name;
    k.is_kernel = (s.other & sto_cuda_entry) != 0;
    k.arch = elf->arch;
    auto find = [&](const std::map<uint32_t, uint32_t>& m, int64_t fallback) {
      auto it = m.find(static_cast<uint32_t>(i));
      return it == m.end() ? fallback : static_cast<int64_t>(it->second);
    };
    // Before sm_90 the register count is also in the text section's sh_info (bits 24-31).
    k.registers = static_cast<int>(std::min<int64_t>(find(global->registers, elf->sections[s.section].info >> 24), 1 << 16));
    k.stack_bytes = find(global->min_stack, find(global->frame, 0));
    k.local_bytes = section_size(*elf, ".nv.local." + s.name);
    k.shared_bytes = section_size(*elf, ".nv.shared." + s.name);
    k.shared_includes_reserve = reserve_in_section && k.shared_bytes > 0;
    k.constant_bytes = section_size(*elf, ".nv.constant0." + s.name);
    if (const Section* info = section_named(*elf, ".nv.info." + s.name))
      if (auto read = read_kernel_info(*elf, *info, k); !read.ok()) return read.error();
    functions.push_back(std::move(k));
  }
  std::stable_partition(functions.begin(), functions.end(), [](const KernelResources& k) { return k.is_kernel; });
  return functions;
}

}  // namespace pykern::jit
