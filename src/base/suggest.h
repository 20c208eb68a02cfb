// "Did you mean" for names the user typed, as git and clang offer it: the known names within a
// small edit distance of the typed one. The CLI offers it for kernel and file names, the name
// pass (sema/name_resolution.cpp) for the names a kernel reads.
#pragma once
#include <string>
#include <vector>

namespace pykern {

// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
size_t edit_distance(const std::string& a, const std::string& b);
// The candidates nearest `word` (at most two), none when all are too far to be a typo.
std::vector<std::string> similar_names(const std::string& word, const std::vector<std::string>& candidates);
// "did you mean 'scale'?" (or "'a' or 'b'?" for two as near), "" when nothing is near.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace pykern
