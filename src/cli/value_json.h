// `pykern run` of a @jit function with values beyond numbers and arrays: a str argument
// (str:TEXT), any value as JSON (json:[1, 2, 3], json:{"a": 1.5}), and a returned str, list,
// dict or tuple written as JSON (result.json).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "pykern/value.h"

namespace pykern::cli {

// str:TEXT is the str TEXT; json:TEXT the JSON value (a number, true/false, null, a string, a
// list, an object with string keys); anything else as parse_argument reads it.
Result<Value> parse_host_argument(const std::string& text);

// A value as JSON: None is null, a str a string, a list or tuple an array, a dict an object when
// its keys are all str (else an array of [key, value] pairs), an array its nested lists, a
// complex number [re, im].
nlohmann::json value_json(const Value& value);

}  // namespace pykern::cli
