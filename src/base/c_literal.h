// The one way text from outside pykern (file names, paths, kernel and parameter names, string
// literals, messages) reaches generated C++ or CUDA.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace pykern {

// `bytes` as a C string literal made of printable ASCII only: '"', '\\' and '?' escaped (so no
// quote, splice or trigraph such as ??/ survives), a newline as \n, and every other byte outside
// printable ASCII (control characters, NUL, bytes of UTF-8 or of invalid UTF-8) as a three-digit
// octal escape, which never swallows a digit after it. The literal is safe in code and in a //
// comment alike: it has no line break and cannot end in a backslash. With wrap_columns > 0 it is
// broken into adjacent literals on lines of about that many columns, which the compiler joins.
std::string c_string_literal(std::string_view bytes, size_t wrap_columns = 0);

}  // namespace pykern
