// `pykern run` of a @jit function with values beyond numbers and arrays (cli/value_json.h): a
// str argument (str:TEXT), lists and dicts as json:VALUE, and what comes back printed as
// Python's repr and written to result.json; list and dict arguments written back to <parameter>.json.
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "pykern/npy.h"

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

namespace {

const char* shared_source = R"py(import numpy as np
from numba import njit


@njit
def log_peaks(signal, threshold, events, seen):
    for i in range(1, signal.shape[0] - 1):
        if signal[i] > threshold and signal[i] > signal[i - 1] and signal[i] >= signal[i + 1]:
            events.append(i)
            seen['peaks'] = seen.get('peaks', 0) + 1
    signal[0] = -1.0
    return len(events)


@njit
def labels(names, suffix):
    names.append(suffix)
    return names
)py";

}  // namespace

TEST_CASE("cli values: list and dict arguments the function changed are written to <parameter>.json") {
  Scratch s;
  fs::path file = s.write("peaks.py", shared_source);
  pykern::Array signal = pykern::Array::zeros(pykern::DType::float_(64), {6});
  double samples[] = {0, 2, 0, 3, 0, 0};
  for (int64_t i = 0; i < 6; ++i) *reinterpret_cast<double*>(signal.element({i})) = samples[i];
  REQUIRE(pykern::save_npy((s.path / "signal.npy").string(), signal).ok());
  fs::path out = s.path / "out";
  CliRun run = run_cli("run " + file.string() + " log_peaks " + (s.path / "signal.npy").string() +
                           " 0.5 'json:[0]' 'json:{\"peaks\": 10, \"other\": 1}' --out " + out.string(),
                       s.cache_env());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(last_line(run.output) == "3");
  CHECK(read_json(out / "events.json") == nlohmann::json::parse("[0, 1, 3]"));
  CHECK(read_json(out / "seen.json") == nlohmann::json::parse("{\"other\": 1, \"peaks\": 12}"));
  CHECK(pykern::load_npy((out / "signal.npy").string())->at<double>(0) == -1.0);  // as arrays are
  CHECK_FALSE(fs::exists(out / "threshold.json"));  // numbers are not written back
}

TEST_CASE("cli values: a shared list that is also returned is written both ways; a str is not written") {
  Scratch s;
  fs::path file = s.write("names.py", shared_source);
  fs::path out = s.path / "out";
  CliRun run = run_cli("run " + file.string() + " labels 'json:[\"a\"]' str:b --out " + out.string(), s.cache_env());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(last_line(run.output) == "['a', 'b']");
  CHECK(read_json(out / "names.json") == nlohmann::json::parse("[\"a\", \"b\"]"));
  CHECK(read_json(out / "result.json") == nlohmann::json::parse("[\"a\", \"b\"]"));
  CHECK_FALSE(fs::exists(out / "suffix.json"));
}
