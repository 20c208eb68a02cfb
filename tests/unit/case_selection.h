// Which corpus case, golden or bad program a test binary runs, and skipping. ctest runs each
// case as its own test (`pykern_tests --case=features/f001_transposed_input`), so a failure
// names its case; without --case the corpus, golden and bad test cases sweep every case.
// Defined in main.cpp.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace test {

// "features/f001_transposed_input", "golden/atomics", "bad/unknown_name": a corpus case's group
// and folder, or a program's folder and stem.
std::string case_id(const std::filesystem::path& case_path);

// The case --case named, if any.
const std::optional<std::string>& named_case();

// `cases` without those --case leaves out (all of them when it names none).
std::vector<std::filesystem::path> selected(const std::vector<std::filesystem::path>& cases);

// The corpus cases to run: the one --case names (no listing of the corpus: a process that runs one
// case starts faster), none if it names a golden or bad program, else every case.
std::vector<std::filesystem::path> selected_corpus_cases();

// The calling test case checks nothing here (no GPU, no NVRTC), and says why. A process in which
// every test case that ran skipped itself, and none failed, exits with kSkipped, which ctest
// reports as skipped (SKIP_RETURN_CODE), not passed.
void skip(const std::string& reason);
constexpr int kSkipped = 77;

}  // namespace test
