// NumPy .npy files: read and write every dtype pykern knows, C or Fortran order, and refuse
// malformed or truncated files with a clear error (never a read past the buffer).
#pragma once
#include <string>
#include <string_view>

#include "pykern/array.h"

namespace pykern {

Result<Array> parse_npy(std::string_view bytes, const std::string& name = "<bytes>");
Result<Array> load_npy(const std::string& path);  // labelled with the path (Array::label)
std::string format_npy(const Array& array);  // host arrays; keeps Fortran order when F-contiguous
// bfloat16 (NumPy has no descr for it; ml_dtypes writes raw '|V2' bytes) is refused, and a
// '|V2' file is refused by load_npy: neither guesses what two raw bytes hold.
Status save_npy(const std::string& path, const Array& array);

}  // namespace pykern
