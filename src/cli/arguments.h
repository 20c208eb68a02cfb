// Kernel arguments written on the command line, shared by `pykern run` and `pykern compile
// --like`: a .npy file, or a scalar as Python would read it (11, 2.5, True, 1+2j) or typed
// (float32:2.5, u1:255), refused when it does not fit its type.
#pragma once
#include <string>
#include <vector>

#include "pykern/compiler.h"
#include "pykern/module.h"

namespace pykern::cli {

Result<Scalar> parse_scalar(const std::string& text);
Result<Argument> parse_argument(const std::string& text);
// A count given to an option (--forall 1000, --shared-bytes 256): decimal digits only, at most
// `max`; anything else is an error that quotes the text as written (never wrapped or clamped).
Result<uint64_t> parse_count(const std::string& text, const char* option, uint64_t max);
// A number of seconds (--timeout 2.5): finite and not negative.
Result<double> parse_seconds(const std::string& text, const char* option);
// --sig values, NAME=SIGNATURE each; an error for one whose name or '=' is missing.
Result<std::vector<KernelSignature>> parse_sig_options(const std::vector<std::string>& texts);
// An -o value that may be written: an error when it is empty or the kernel file itself.
Status check_output_path(const std::string& kernel_file, const std::string& output);

}  // namespace pykern::cli
