// libFuzzer target over the .npy reader and writer. Mutated files (seeded with NumPy's own:
// records, escaped and non-Latin-1 field names, formats 1.0 to 3.0, bools) go through
// parse_npy; nothing may crash, hang or leak. Every file it accepts is written back with
// format_npy, which must read back as the same array (dtype with its field names, shape, order,
// bytes) and write the same bytes again.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pykern/npy.h"

namespace {

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "fuzz_npy: %s\n", why.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto read = pykern::parse_npy(input, "fuzz.npy");
  if (!read.ok()) return 0;
  std::string written = pykern::format_npy(*read);
  auto again = pykern::parse_npy(written, "written.npy");
  if (!again.ok()) fail("format_npy wrote a file parse_npy refuses: " + again.error().message);
  if (again->dtype() != read->dtype()) fail("the dtype changed: " + read->dtype().descr() + " became " + again->dtype().descr());
  if (again->shape() != read->shape()) fail("the shape changed");
  // An empty array has no order (NumPy writes fortran_order False for it, as format_npy does).
  if (read->size() > 0 &&
      (again->is_c_contiguous() != read->is_c_contiguous() || again->is_f_contiguous() != read->is_f_contiguous()))
    fail("the order changed");
  if (std::memcmp(again->data(), read->data(), static_cast<size_t>(read->nbytes())) != 0) fail("the data changed");
  if (pykern::format_npy(*again) != written) fail("writing the file read back gave other bytes");
  // The descr alone reads back the same (bundles and the cache keep dtypes as descr text).
  auto descr = pykern::DType::from_descr(read->dtype().descr());
  if (!descr.ok() || *descr != read->dtype()) fail("DType::from_descr(descr()) differs for " + read->dtype().descr());
  return 0;
}
