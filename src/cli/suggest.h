// "Did you mean" for names the user typed, as git and clang offer it: the known names within a
// small edit distance of the typed one; and the checks of the paths a command is given, made
// before any work so a long run does not fail at its end.
#pragma once
#include <string>
#include <vector>

#include "pykern/result.h"

namespace pykern::cli {

// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
size_t edit_distance(const std::string& a, const std::string& b);
// The candidates nearest `word` (at most two), none when all are too far to be a typo.
std::vector<std::string> similar_names(const std::string& word, const std::vector<std::string>& candidates);
// "did you mean 'scale'?" (or "'a' or 'b'?" for two as near), "" when nothing is near.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);
// A kernel file given on the command line: it exists and is a file; an error names a similar
// file of its folder when there is one.
Status check_input_file(const std::string& path);
// --out DIR: an existing writable directory, or one that can be made (its nearest existing
// parent is a writable directory).
Status check_output_directory(const std::string& dir);

}  // namespace pykern::cli
