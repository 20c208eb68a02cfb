// A corpus case's json arguments (lists and dicts a @jit function is given, as `pykern run`'s
// json:VALUE): their types, and their values after the call compared as the corpus oracle
// compares them (tests/corpus/oracle.py json_close): objects by key, arrays item by item,
// floats within rtol/atol, everything else exactly.
#pragma once
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "helpers.h"

namespace test {

// A json argument's type as pykern types the Value json:VALUE makes: a list by its first item,
// a dict (str keys) by its first value; integers int64, other numbers float64.
inline std::optional<std::string> json_signature_type(const nlohmann::json& v) {
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer()) return "int64";
  if (v.is_number()) return "float64";
  if (v.is_string()) return "unicode_type";
  if (v.is_array() && !v.empty()) {
    auto item = json_signature_type(v[0]);
    return item ? std::optional<std::string>("ListType(" + *item + ")") : std::nullopt;
  }
  if (v.is_object() && !v.empty()) {
    auto item = json_signature_type(v.begin().value());
    return item ? std::optional<std::string>("DictType(unicode_type, " + *item + ")") : std::nullopt;
  }
  return std::nullopt;
}

// "(float64, ListType(int64),)": a @jit function case's argument types, json ones included.
inline std::optional<std::string> corpus_function_types(const std::filesystem::path& case_dir) {
  nlohmann::json spec = nlohmann::json::parse(read(case_dir / "case.json"));
  std::string types;
  for (const auto& arg : spec["args"]) {
    std::optional<std::string> type;
    if (arg.contains("json")) type = json_signature_type(arg["json"]);
    else if (arg.contains("scalar"))
      type = arg.contains("dtype") ? arg["dtype"].get<std::string>()
             : arg["scalar"].is_number_integer() ? "int64" : arg["scalar"].is_boolean() ? "boolean" : "float64";
    else type = npy_signature_type(case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy"));
    if (!type) return std::nullopt;
    types += *type + ",";
  }
  return "(" + types + ")";
}

// "" when `got` matches `want`, else where it differs first.
inline std::string compare_json(const nlohmann::json& got, const nlohmann::json& want, double rtol, double atol,
                                const std::string& at = "") {
  std::string where = at.empty() ? "the value" : at;
  if (want.is_object()) {
    if (!got.is_object() || got.size() != want.size()) return where + ": " + got.dump() + " != " + want.dump();
    for (const auto& [key, item] : want.items()) {
      if (!got.contains(key)) return where + ": no key '" + key + "'";
      if (std::string why = compare_json(got[key], item, rtol, atol, at + "['" + key + "']"); !why.empty()) return why;
    }
    return "";
  }
  if (want.is_array()) {
    if (!got.is_array() || got.size() != want.size()) return where + ": " + got.dump() + " != " + want.dump();
    for (size_t i = 0; i < want.size(); ++i)
      if (std::string why = compare_json(got[i], want[i], rtol, atol, at + "[" + std::to_string(i) + "]"); !why.empty())
        return why;
    return "";
  }
  if (want.is_number_float() && got.is_number() && !got.is_boolean()) {
    double g = got.get<double>(), w = want.get<double>();
    if ((std::isnan(g) && std::isnan(w)) || std::abs(g - w) <= atol + rtol * std::abs(w)) return "";
    return where + ": " + got.dump() + " != " + want.dump();
  }
  return got == want ? "" : where + ": " + got.dump() + " != " + want.dump();
}

}  // namespace test
