// "Did you mean" for the paths a command is given, and their checks, made before any work so a
// long run does not fail at its end.
#pragma once
#include <string>
#include <vector>

#include "base/suggest.h"
#include "pykern/result.h"

namespace pykern::cli {

// edit_distance, similar_names and did_you_mean live in base/suggest.h (the compiler offers
// them too); they are pykern::, so found from here unqualified.

// A kernel file given on the command line: it exists and is a file; an error names a similar
// file of its folder when there is one.
Status check_input_file(const std::string& path);
// --out DIR: an existing writable directory, or one that can be made (its nearest existing
// parent is a writable directory).
Status check_output_directory(const std::string& dir);

}  // namespace pykern::cli
