// The .npy format (NEP 1): magic "\x93NUMPY", version, header length, a Python dict literal
// {'descr': ..., 'fortran_order': ..., 'shape': (...), } padded with spaces, then the data.
#include "pykern/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "values/literal_reader.h"
#include "base/files.h"

namespace pykern {

namespace {

uint32_t little_endian(std::string_view bytes, size_t at, size_t count) {
  uint32_t value = 0;
  for (size_t i = 0; i < count; ++i) value |= uint32_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return value;
}

struct NpyHeader {
  DType dtype;
  bool fortran = false;
  std::vector<int64_t> shape;
  size_t data_start = 0;   // bytes from the start of the file
  uint64_t data_bytes = 0;  // what the shape and dtype need
};

Error malformed_npy(const std::string& name, const std::string& why) {
  return Error::make(ErrorKind::invalid_argument, fmt::format("{}: not a valid .npy file: {}", name, why));
}

// The size of the preamble and header, from the first 12 bytes (or fewer: then an error).
Result<size_t> npy_header_end(std::string_view bytes, const std::string& name) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY") return malformed_npy(name, "missing the \\x93NUMPY magic");
  int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3) return malformed_npy(name, fmt::format("unknown format version {}", major));
  size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) return malformed_npy(name, "truncated header");
  size_t header_length = little_endian(bytes, 8, length_bytes);
  // NumPy itself refuses headers past 10,000 bytes unless told otherwise; a megabyte is plenty.
  if (header_length > (1u << 20)) return malformed_npy(name, fmt::format("a header of {} bytes", header_length));
  return 8 + length_bytes + header_length;
}

Result<NpyHeader> parse_npy_header(std::string_view bytes, const std::string& name) {
  auto end = npy_header_end(bytes, name);
  if (!end.ok()) return end.error();
  if (bytes.size() < *end) return malformed_npy(name, "truncated header");
  size_t header_start = bytes[6] == 1 ? 10 : 12;
  // NumPy's header encoding: Latin-1 in formats 1.0 and 2.0, UTF-8 in 3.0 (field names past
  // U+00FF). The reader works on UTF-8.
  std::string_view raw_header = bytes.substr(header_start, *end - header_start);
  if (bytes[6] == 3 && !valid_utf8(raw_header)) return malformed_npy(name, "a format 3.0 header that is not UTF-8");
  std::string header_text = bytes[6] == 3 ? std::string(raw_header) : latin1_to_utf8(raw_header);
  LiteralReader reader(header_text);
  std::optional<DType> dtype;
  std::optional<bool> fortran;
  std::optional<std::vector<int64_t>> shape;
  if (!reader.eat('{')) return malformed_npy(name, "the header is not a dict");
  while (!reader.eat('}')) {
    auto key = reader.string();
    if (!key || !reader.eat(':')) return malformed_npy(name, "malformed header");
    if (*key == "descr") {
      auto parsed = read_descr(reader);
      if (!parsed.ok()) return malformed_npy(name, parsed.error().message);
      dtype = *parsed;
    } else if (*key == "fortran_order") {
      fortran = reader.boolean();
      if (!fortran) return malformed_npy(name, "fortran_order is not True or False");
    } else if (*key == "shape") {
      shape = reader.shape();
      if (!shape) return malformed_npy(name, "malformed shape");
    } else {
      return malformed_npy(name, "unexpected key " + python_repr(*key));
    }
    if (!reader.eat(',') && !reader.peek('}')) return malformed_npy(name, "malformed header");
  }
  if (!dtype || !fortran || !shape) return malformed_npy(name, "the header lacks descr, fortran_order or shape");
  if (shape->size() > 32) return malformed_npy(name, fmt::format("{} dimensions (at most 32)", shape->size()));
  // The element count and byte count, checked against overflow.
  uint64_t count = 1;
  for (int64_t dim : *shape) {
    if (dim < 0 || (dim > 0 && count > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(dim)))
      return malformed_npy(name, "impossible shape");
    count *= static_cast<uint64_t>(dim);
  }
  if (count > 0 && dtype->itemsize > 0 && count > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(dtype->itemsize))
    return malformed_npy(name, "impossible shape");
  return NpyHeader{*dtype, *fortran, *shape, *end, count * static_cast<uint64_t>(dtype->itemsize)};
}

Error truncated(const std::string& name, const NpyHeader& header, uint64_t present) {
  return malformed_npy(name, fmt::format("truncated data: shape and dtype need {} bytes, the file has {}",
                                         header.data_bytes, present));
}

// Whether a dtype has bool bytes: a zero-size one (a (0,) subarray) has none.
bool holds_booleans(const DType& dtype) {
  if (dtype.itemsize == 0) return false;
  if (dtype.kind == ScalarKind::boolean) return true;
  for (const DTypeField& field : dtype.fields)
    if (field.bytes() > 0 && holds_booleans(field.type[0])) return true;
  return false;
}

// Marks the bool bytes of one element of `dtype` in mask[0, itemsize). A subarray field's
// first element is marked and then copied, so a hostile record (a million elements of a
// record of many fields) costs its bytes, not its elements times its fields.
void mark_booleans(const DType& dtype, unsigned char* mask) {
  if (dtype.kind == ScalarKind::boolean) {
    mask[0] = 1;
    return;
  }
  for (const DTypeField& field : dtype.fields) {
    const DType& type = field.type[0];
    if (field.bytes() == 0 || !holds_booleans(type)) continue;
    unsigned char* first = mask + field.offset;
    mark_booleans(type, first);
    for (int64_t at = type.itemsize; at < field.bytes(); at += type.itemsize)
      std::memcpy(first + at, first, static_cast<size_t>(type.itemsize));
  }
}

// A bool byte other than 0 or 1 reads as True, as NumPy and Numba read it (np.frombuffer(b'\x02',
// bool).astype(int) is 1), and is stored as 1: kernels read bools as C++ bool, for which any
// other byte is undefined behaviour. The array is the reader's own and contiguous.
void normalise_booleans(Array& array) {
  const DType& dtype = array.dtype();
  if (!holds_booleans(dtype)) return;
  std::vector<unsigned char> mask(static_cast<size_t>(dtype.itemsize), 0);
  mark_booleans(dtype, mask.data());
  auto* bytes = static_cast<unsigned char*>(array.data());
  for (int64_t element = 0; element < array.size(); ++element, bytes += dtype.itemsize)
    for (size_t i = 0; i < mask.size(); ++i)
      if (mask[i]) bytes[i] = bytes[i] != 0;
}

Result<Array> allocate(const NpyHeader& header, const std::string& name) {
  try {
    return Array::zeros(header.dtype, header.shape, header.fortran ? Order::F : Order::C);
  } catch (const std::exception&) {  // bad_alloc
    return Error::make(ErrorKind::io, fmt::format("{}: not enough memory for its {} bytes", name, header.data_bytes));
  }
}

}  // namespace

Result<Array> parse_npy(std::string_view bytes, const std::string& name) {
  auto header = parse_npy_header(bytes, name);
  if (!header.ok()) return header.error();
  uint64_t present = bytes.size() - header->data_start;
  if (header->data_bytes > present) return truncated(name, *header, present);
  auto array = allocate(*header, name);
  if (!array.ok()) return array.error();
  std::memcpy(array->data(), bytes.data() + header->data_start, static_cast<size_t>(header->data_bytes));
  normalise_booleans(*array);
  return array;
}

// Reads the header first and checks the file's size against it, so that a huge, truncated or
// endless input (a FIFO, /dev/zero) is refused before anything is allocated or read.
Result<Array> load_npy(const std::string& path) {
  auto file = files::RegularFile::open(path);
  if (!file.ok()) return file.error();
  uint64_t size = file->size();
  std::string preamble(static_cast<size_t>(std::min<uint64_t>(size, 12)), '\0');
  if (!file->read_at(preamble.data(), preamble.size(), 0)) return Error::make(ErrorKind::io, "cannot read '" + path + "'");
  auto end = npy_header_end(preamble, path);
  if (!end.ok()) return end.error();
  if (*end > size) return malformed_npy(path, "truncated header");
  std::string head(*end, '\0');
  if (!file->read_at(head.data(), head.size(), 0)) return Error::make(ErrorKind::io, "cannot read '" + path + "'");
  auto header = parse_npy_header(head, path);
  if (!header.ok()) return header.error();
  if (header->data_bytes > size - header->data_start) return truncated(path, *header, size - header->data_start);
  auto array = allocate(*header, path);
  if (!array.ok()) return array.error();
  if (!file->read_at(array->data(), static_cast<size_t>(header->data_bytes), header->data_start))
    return Error::make(ErrorKind::io, "cannot read '" + path + "'");
  normalise_booleans(*array);
  return array->with_label(path);
}

std::string format_npy(const Array& input) {
  bool fortran = !input.is_c_contiguous() && input.is_f_contiguous() && input.ndim() > 1;
  Array array = fortran || input.is_c_contiguous() ? input : input.copy(Order::C);
  std::string shape = "(";
  for (int64_t dim : array.shape()) shape += std::to_string(dim) + ", ";
  if (array.ndim() > 1) shape.resize(shape.size() - 2);
  else if (array.ndim() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = fmt::format("{{'descr': {}, 'fortran_order': {}, 'shape': {}, }}",
                                   array.dtype().kind == ScalarKind::record ? array.dtype().descr()
                                                                            : "'" + array.dtype().descr() + "'",
                                   fortran ? "True" : "False", shape);
  // NumPy leaves room for the growing axis (the first, the last in Fortran order) to reach 21
  // digits, so that appending rewrites the header in place; the same bytes as NumPy's follow.
  if (array.ndim() > 0)
    header.append(21 - std::to_string(array.shape()[fortran ? array.ndim() - 1 : 0]).size(), ' ');
  // NumPy's choice of version: 1.0 while the header is Latin-1 and its length fits 16 bits,
  // 2.0 (a 32-bit length) when longer, 3.0 (UTF-8, a 32-bit length) when a field name holds a
  // character past U+00FF.
  auto latin1 = utf8_to_latin1(header);
  if (latin1) header = std::move(*latin1);
  // Padded so the data starts on a 64-byte boundary, ending with a newline; as NumPy pads, with
  // 1 to 64 spaces.
  auto padded = [&](size_t preamble) { return header.size() + 1 + (64 - (preamble + header.size() + 1) % 64); };
  int version = !latin1 ? 3 : padded(10) <= 0xffff ? 1 : 2;
  size_t preamble = version == 1 ? 10 : 12;
  header.resize(padded(preamble) - 1, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(version);
  out += '\x00';
  for (size_t i = 0; i < preamble - 8; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  out += header;
  out.append(static_cast<const char*>(array.data()), static_cast<size_t>(array.nbytes()));
  return out;
}

namespace {
bool holds_bfloat16(const DType& dtype) {
  if (dtype.kind == ScalarKind::bfloat) return true;
  for (const DTypeField& f : dtype.fields)
    if (holds_bfloat16(f.type[0])) return true;
  return false;
}
}  // namespace

// Written with O_NOFOLLOW: `pykern run --out DIR` names its files itself, and a link planted in
// a shared DIR must not redirect the write.
Status save_npy(const std::string& path, const Array& array) {
  if (array.location() != Location::host) return Error::make(ErrorKind::invalid_argument, "save_npy needs a host array");
  if (holds_bfloat16(array.dtype()))
    return Error::make(ErrorKind::invalid_argument,
                       "save_npy: NumPy has no descr for bfloat16 (ml_dtypes writes raw '|V2' bytes, which no reader can "
                       "tell from other 2-byte data); save a float32 copy");
  std::string bytes = format_npy(array);
  // An existing file is overwritten in place and then cut to length, not truncated to zero
  // first: ext4 takes a truncate-to-zero for a file being replaced and writes it out to the
  // disk when it is closed (auto_da_alloc), a third of a millisecond per file in `pykern run`.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return Error::make(ErrorKind::io, fmt::format("cannot write '{}': {}", path,
                                                  errno == ELOOP ? "it is a symbolic link" : std::strerror(errno)));
  bool written = files::write_all(fd, bytes);
  struct stat info {};
  if (written && ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size != static_cast<off_t>(bytes.size()))
    written = ::ftruncate(fd, static_cast<off_t>(bytes.size())) == 0;
  if (::close(fd) != 0 || !written) return Error::make(ErrorKind::io, "cannot write '" + path + "'");
  return ok_status();
}

}  // namespace pykern
