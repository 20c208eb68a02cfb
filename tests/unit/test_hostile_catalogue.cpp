// The hostile-input catalogue (tests/hostile/): one folder per class of input that once made
// pykern crash, hang, lose data or give a silent wrong result, each with its expected outcome.
// A folder's `case` file says how to run the pykern CLI on it and what must come out; a class
// a CLI run cannot show names the unit test that covers it. tests/hostile/README.md has the format.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <doctest/doctest.h>

#include "helpers.h"

namespace fs = std::filesystem;

namespace {

struct HostileCase {
  std::vector<std::string> comments;
  std::string args;
  std::vector<std::string> environment;
  std::optional<int> exit;
  std::vector<std::string> output;  // must appear
  std::vector<std::string> absent;  // must not appear
  std::vector<std::string> tests;   // TEST_CASE names that cover it
};

HostileCase parse_case(const fs::path& file) {
  HostileCase c;
  std::istringstream lines(test::read(file));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      c.comments.push_back(line);
      continue;
    }
    size_t colon = line.find(": ");
    REQUIRE_MESSAGE(colon != std::string::npos, "a line of " << file << " is not 'key: value': " << line);
    std::string key = line.substr(0, colon), value = line.substr(colon + 2);
    if (key == "args") c.args = value;
    else if (key == "env") c.environment.push_back(value);
    else if (key == "exit") c.exit = std::stoi(value);
    else if (key == "output") c.output.push_back(value);
    else if (key == "absent") c.absent.push_back(value);
    else if (key == "test") c.tests.push_back(value);
    else FAIL("unknown key '" << key << "' in " << file);
  }
  return c;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

std::string shell_quoted(const std::string& word) { return "'" + replaced(word, "'", "'\\''") + "'"; }

// Every TEST_CASE name in the unit tests' sources.
std::set<std::string> test_case_names() {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(test::source_dir() / "tests" / "unit")) {
    if (entry.path().extension() != ".cpp") continue;
    std::string text = test::read(entry.path());
    const std::string marker = "TEST_CASE(\"";
    for (size_t at = 0; (at = text.find(marker, at)) != std::string::npos;) {
      at += marker.size();
      size_t end = text.find("\")", at);
      if (end == std::string::npos) break;
      names.insert(replaced(text.substr(at, end - at), "\\\"", "\""));
    }
  }
  return names;
}

struct Outcome {
  int status = -1;
  std::string output;
};

// Runs the CLI on a scratch copy of the case's folder, under a time limit: a hang is a failure.
Outcome run_case(const fs::path& folder, const HostileCase& c) {
  fs::path scratch = fs::temp_directory_path() / ("pykern-catalogue-" + std::to_string(::getpid()));
  fs::remove_all(scratch);
  fs::create_directories(scratch / "out");
  fs::copy(folder, scratch / "case", fs::copy_options::recursive);
  std::string arguments;
  std::istringstream words(c.args);
  for (std::string word; words >> word;) {
    word = replaced(replaced(word, "{dir}", (scratch / "case").string()), "{out}", (scratch / "out").string());
    arguments += " " + shell_quoted(word);
  }
  std::string environment = "PYKERN_CACHE_DIR=" + shell_quoted((scratch / "cache").string());
  for (const std::string& variable : c.environment)
    environment += " " + replaced(replaced(variable, "{dir}", (scratch / "case").string()), "{out}", (scratch / "out").string());
  fs::path log = scratch / "log";
  std::string command = "cd " + shell_quoted((scratch / "case").string()) + " && env " + environment +
                        " timeout 120 " + PYKERN_BINARY + arguments + " > " + log.string() + " 2>&1 < /dev/null";
  int status = test::run_shell(command, log);
  Outcome outcome;
  outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.output = test::read(log);
  fs::remove_all(scratch);
  return outcome;
}

}  // namespace

TEST_CASE("hostile catalogue: every input class has its expected outcome, and a test that shows it") {
  fs::path root = test::source_dir() / "tests" / "hostile";
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_directory()) folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  CHECK(folders.size() >= 22);
  std::set<std::string> names = test_case_names();
  std::set<std::string> items;  // the numbered classes the catalogue covers
  for (const fs::path& folder : folders) {
    CAPTURE(folder.filename().string());
    REQUIRE_MESSAGE(fs::exists(folder / "case"), "no case file");
    HostileCase c = parse_case(folder / "case");
    CHECK_MESSAGE(!c.comments.empty(), "say what the input is and what CPython/NumPy/Numba does with it");
    CHECK_MESSAGE((!c.args.empty() || !c.tests.empty()), "a case runs the CLI or names the test that covers it");
    items.insert(folder.filename().string().substr(0, 2));
    for (const std::string& name : c.tests) CHECK_MESSAGE(names.count(name) == 1, "no TEST_CASE named: " << name);
    if (c.args.empty()) continue;
    REQUIRE_MESSAGE(c.exit.has_value(), "a CLI case says its exit status");
    Outcome outcome = run_case(folder, c);
    CAPTURE(outcome.output);
    CHECK(outcome.status == *c.exit);
    for (const std::string& text : c.output) CHECK_MESSAGE(outcome.output.find(text) != std::string::npos, text);
    for (const std::string& text : c.absent) CHECK_MESSAGE(outcome.output.find(text) == std::string::npos, text);
    // Whatever the input, pykern never reports itself as the fault.
    CHECK(outcome.output.find("internal error") == std::string::npos);
  }
  CHECK(items.size() >= 22);
}
