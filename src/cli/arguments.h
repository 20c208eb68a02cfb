// Kernel arguments written on the command line, shared by `pykern run` and `pykern compile
// --like`: a .npy file, or a scalar as Python would read it (11, 2.5, True, 1+2j) or typed
// (float32:2.5, u1:255), refused when it does not fit its type.
#pragma once
#include <string>

#include "pykern/module.h"

namespace pykern::cli {

Result<Scalar> parse_scalar(const std::string& text);
Result<Argument> parse_argument(const std::string& text);

}  // namespace pykern::cli
