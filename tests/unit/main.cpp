// The test binaries' main: doctest's, with two additions for ctest.
//   --case=GROUP/NAME  runs one corpus case, golden or bad program (see case_selection.h): ctest
//                      registers each as a test of its own, so a failure names its case.
//   exit status 77     when every test case that ran skipped itself (no GPU, no NVRTC) and none
//                      failed: ctest's SKIP_RETURN_CODE reports such a run as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <set>

#include "case_selection.h"
#include "helpers.h"

namespace fs = std::filesystem;

namespace {

std::optional<std::string> case_option;

// The test case running now, those started and those that skipped themselves.
const doctest::TestCaseData* running = nullptr;
std::set<const doctest::TestCaseData*> started, skipped;
std::set<std::string> reasons_told;

struct SkipListener : doctest::IReporter {
  explicit SkipListener(const doctest::ContextOptions&) {}
  void test_case_start(const doctest::TestCaseData& test_case) override {
    running = &test_case;
    started.insert(&test_case);
  }
  void test_case_reenter(const doctest::TestCaseData& test_case) override { running = &test_case; }
  void test_case_end(const doctest::CurrentTestCaseStats&) override { running = nullptr; }
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("skips", 1, SkipListener);

// The doctest test suite that holds a group's test cases, or "" for a group there is not.
std::string suite_of_group(const std::string& group) {
  if (!group.empty() && group.find('.') == std::string::npos && fs::is_directory(test::source_dir() / "tests/corpus" / group))
    return "corpus";  // any folder of tests/corpus: seeds, features, numba_suite, world, ...
  if (group == "golden" || group == "bad") return group;
  return "";
}

// Whether the case --case names is there: a corpus case's case.json, or a program.
bool case_exists(const std::string& group, const std::string& name) {
  if (suite_of_group(group) == "corpus") return fs::exists(test::source_dir() / "tests/corpus" / group / name / "case.json");
  return fs::exists(test::source_dir() / "tests" / group / (name + ".py"));
}

}  // namespace

namespace test {

std::string case_id(const fs::path& case_path) {
  std::string name = case_path.extension() == ".py" ? case_path.stem().string() : case_path.filename().string();
  return case_path.parent_path().filename().string() + "/" + name;
}

const std::optional<std::string>& named_case() { return case_option; }

std::vector<fs::path> selected(const std::vector<fs::path>& cases) {
  if (!case_option) return cases;
  std::vector<fs::path> kept;
  for (const fs::path& path : cases)
    if (case_id(path) == *case_option) kept.push_back(path);
  return kept;
}

std::vector<fs::path> selected_corpus_cases() {
  if (!case_option) return corpus_case_dirs();
  std::string group = case_option->substr(0, case_option->find('/'));
  if (suite_of_group(group) != "corpus") return {};
  return {source_dir() / "tests/corpus" / *case_option};
}

void skip(const std::string& reason) {
  if (running) skipped.insert(running);
  if (reasons_told.insert(reason).second) std::fprintf(stderr, "skipped: %s\n", reason.c_str());
}

}  // namespace test

int main(int argc, char** argv) {
  std::vector<char*> doctest_args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--case=", 7) == 0) case_option = argv[i] + 7;
    else doctest_args.push_back(argv[i]);
  }
  doctest::Context context;
  if (case_option) {
    std::string group = case_option->substr(0, case_option->find('/'));
    std::string name = case_option->find('/') == std::string::npos ? "" : case_option->substr(group.size() + 1);
    if (suite_of_group(group).empty() || !case_exists(group, name)) {
      std::fprintf(stderr, "--case=%s: no such corpus case, golden or bad program (GROUP/NAME, GROUP a folder of "
                           "tests/corpus, or golden or bad)\n", case_option->c_str());
      return 2;
    }
    context.addFilter("test-suite", suite_of_group(group).c_str());
  }
  context.applyCommandLine(static_cast<int>(doctest_args.size()), doctest_args.data());
  int status = context.run();
  if (context.shouldExit() || status != 0) return status;
  bool all_skipped = !started.empty() && skipped.size() == started.size();
  return all_skipped ? test::kSkipped : 0;
}
