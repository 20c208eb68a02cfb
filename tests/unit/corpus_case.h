// A corpus case's arguments and launch, as the unit and GPU suites both build them.
#pragma once
#include <map>

#include <doctest/doctest.h>

#include "helpers.h"
#include "pykern/module.h"
#include "pykern/npy.h"

namespace test {

inline pykern::Scalar case_scalar(const nlohmann::json& arg) {
  const nlohmann::json& v = arg["scalar"];
  pykern::Scalar s = v.is_boolean() ? pykern::Scalar(v.get<bool>())
                     : v.is_number_integer() ? pykern::Scalar(static_cast<long long>(v.get<int64_t>()))
                                             : pykern::Scalar(v.get<double>());
  if (arg.contains("dtype")) s = s.as(pykern::DType::from_name(arg["dtype"].get<std::string>()).value());
  return s;
}

struct CaseArguments {
  std::vector<pykern::Argument> args;
  std::map<std::string, pykern::Array> arrays;  // by argument name, to check after the run
};

// A @jit function's json arguments (lists and dicts, as `pykern run`'s json:VALUE), by position;
// case_arguments holds a 0 in their place.
inline std::map<size_t, nlohmann::json> case_json_arguments(const nlohmann::json& spec) {
  std::map<size_t, nlohmann::json> out;
  for (size_t i = 0; i < spec["args"].size(); ++i)
    if (spec["args"][i].contains("json")) out[i] = spec["args"][i]["json"];
  return out;
}

inline CaseArguments case_arguments(const std::filesystem::path& case_dir, const nlohmann::json& spec) {
  CaseArguments out;
  for (const auto& arg : spec["args"]) {
    if (arg.contains("scalar")) {
      out.args.push_back(case_scalar(arg));
      continue;
    }
    if (arg.contains("json")) {  // see case_json_arguments
      out.args.push_back(pykern::Scalar(int64_t(0)));
      continue;
    }
    auto array = pykern::load_npy((case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy")).string());
    REQUIRE(array.ok());
    out.arrays[arg["name"]] = *array;
    out.args.push_back(*array);
  }
  return out;
}

inline pykern::Launch case_launch(const nlohmann::json& launch, pykern::Backend backend) {
  if (launch.contains("forall")) return pykern::Launch::forall(launch["forall"].get<int64_t>()).backend(backend);
  auto dim = [](const nlohmann::json& d) {
    return pykern::Dim3(d[0].get<uint32_t>(), d.size() > 1 ? d[1].get<uint32_t>() : 1, d.size() > 2 ? d[2].get<uint32_t>() : 1);
  };
  return pykern::Launch(dim(launch["grid"]), dim(launch["block"]))
      .backend(backend)
      .shared_bytes(launch.value("shared_bytes", uint64_t(0)));
}

}  // namespace test
