// `pykern run` of a @jit function with values beyond numbers and arrays (cli/value_json.h): a
// str argument (str:TEXT), lists and dicts as json:VALUE, and what comes back printed as
// Python's repr and written to result.json.
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace fs = std::filesystem;
using test::CliRun;
using test::run_cli;
using test::Scratch;

namespace {

const char* source = R"py(from numba import njit, types
from numba.typed import Dict


@njit
def greet(name):
    return "hello, " + name


@njit
def tally(words):
    counts = Dict.empty(key_type=types.int64, value_type=types.int64)
    for i in range(len(words)):
        n = len(words[i])
        counts[n] = counts.get(n, 0) + 1
    return counts


@njit
def shifted(xs, by):
    return [(x, x + by) for x in xs]
)py";

std::string last_line(const std::string& text) {
  std::stringstream lines(text);
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  return last;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream file(path);
  return nlohmann::json::parse(file, nullptr, false);
}

}  // namespace

TEST_CASE("cli values: str:TEXT in, the str printed as repr and written to result.json") {
  Scratch s;
  fs::path file = s.write("names.py", source);
  CliRun run = run_cli("run " + file.string() + " greet 'str:Zoë' --out " + (s.path / "out").string(), s.cache_env());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(last_line(run.output) == "'hello, Zoë'");
  CHECK(read_json(s.path / "out" / "result.json") == "hello, Zoë");
}

TEST_CASE("cli values: json lists in; a dict and a list of tuples out") {
  Scratch s;
  fs::path file = s.write("names.py", source);
  CliRun run = run_cli("run " + file.string() + " tally 'json:[\"ab\", \"cde\", \"xy\"]' --out " + (s.path / "out").string(),
                       s.cache_env());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(last_line(run.output) == "{2: 2, 3: 1}");
  // Keys that are not str: [key, value] pairs, in order.
  CHECK(read_json(s.path / "out" / "result.json") == nlohmann::json::parse("[[2, 2], [3, 1]]"));
  run = run_cli("run " + file.string() + " shifted 'json:[1, 5]' 10 --out " + (s.path / "out2").string(), s.cache_env());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(last_line(run.output) == "[(1, 11), (5, 15)]");
  CHECK(read_json(s.path / "out2" / "result.json") == nlohmann::json::parse("[[1, 11], [5, 15]]"));
}

TEST_CASE("cli values: malformed JSON and mixed lists are usage errors with a message") {
  Scratch s;
  fs::path file = s.write("names.py", source);
  CliRun bad = run_cli("run " + file.string() + " tally 'json:[1, ' --out " + (s.path / "out").string(), s.cache_env());
  CHECK(bad.status == 2);
  CHECK_MESSAGE(bad.output.find("is not JSON after 'json:'") != std::string::npos, bad.output);
  CliRun mixed = run_cli("run " + file.string() + " tally 'json:[\"a\", 1]' --out " + (s.path / "out").string(), s.cache_env());
  CHECK(mixed.status == 1);
  CHECK_MESSAGE(mixed.output.find("item 1 is int64, not unicode_type") != std::string::npos, mixed.output);
}
