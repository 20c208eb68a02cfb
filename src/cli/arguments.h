// Kernel arguments written on the command line, shared by `pykern run` and `pykern compile
// --like`: a .npy file, or a scalar as Python would read it (11, 2.5, True, 1+2j) or typed
// (float32:2.5, u1:255), refused when it does not fit its type.
#pragma once
#include <string>

#include "pykern/compiler.h"
#include "pykern/module.h"

namespace pykern::cli {

Result<Scalar> parse_scalar(const std::string& text);
Result<Argument> parse_argument(const std::string& text);
// A --sig value, NAME=SIGNATURE; an error when the name or the '=' is missing.
Result<KernelSignature> parse_sig_option(const std::string& text);

}  // namespace pykern::cli
