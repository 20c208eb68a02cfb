// Shared by the unit tests: paths, file reading, and the corpus signatures.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace test {

// The checkout; $PYKERN_SOURCE_DIR overrides the build's, for a build folder carried to
// another machine (the GPU machine) where the checkout lies elsewhere.
inline std::filesystem::path source_dir() {
  const char* moved = std::getenv("PYKERN_SOURCE_DIR");
  return moved ? moved : PYKERN_SOURCE_DIR;
}

// Every corpus case: the seeds' and the ones added for pykern's features.
inline std::vector<std::filesystem::path> corpus_case_dirs() {
  std::vector<std::filesystem::path> cases;
  for (const char* group : {"tests/corpus/seeds", "tests/corpus/features", "tests/corpus/numba_suite"})
    for (const auto& entry : std::filesystem::directory_iterator(source_dir() / group))
      if (std::filesystem::exists(entry.path() / "case.json")) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  return cases;
}

inline std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The Numba type of a .npy file's array as a signature argument, e.g. "float32[::1]"
// (as Numba specialises on a C-contiguous array). Reads only the header.
inline std::optional<std::string> npy_signature_type(const std::filesystem::path& path) {
  std::string bytes = read(path);
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return std::nullopt;
  size_t header_length = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  std::string header = bytes.substr(10, header_length);
  if (header.find("'s0'") != std::string::npos) return "xoroshiro128p_type[::1]";
  auto descr_at = header.find("'descr': '");
  if (descr_at == std::string::npos) return std::nullopt;
  std::string descr = header.substr(descr_at + 10, header.find('\'', descr_at + 10) - descr_at - 10);
  static const std::pair<const char*, const char*> names[] = {
      {"<f4", "float32"}, {"<f8", "float64"}, {"<i4", "int32"}, {"<i8", "int64"}, {"<i2", "int16"},
      {"|i1", "int8"},    {"|u1", "uint8"},   {"<u2", "uint16"}, {"<u4", "uint32"}, {"<u8", "uint64"},
      {"|b1", "boolean"}, {"<c8", "complex64"}, {"<c16", "complex128"}, {"<f2", "float16"}};
  std::string dtype;
  for (auto [code, name] : names)
    if (descr == code) dtype = name;
  if (dtype.empty()) return std::nullopt;
  bool fortran = header.find("'fortran_order': True") != std::string::npos;
  std::string shape = header.substr(header.find("'shape': (") + 10);
  shape = shape.substr(0, shape.find(')'));
  int ndim = 0;
  for (char c : shape) ndim += c == ',';
  if (!shape.empty() && shape.back() != ',') ++ndim;
  if (ndim == 0) return std::nullopt;
  std::string axes;
  for (int i = 0; i < ndim; ++i) {
    bool unit = fortran ? i == 0 : i == ndim - 1;
    axes += (i ? ", " : "") + std::string(unit ? "::1" : ":");
  }
  return dtype + "[" + axes + "]";
}

// The signature Numba would specialise a corpus kernel with, from its case.json and inputs.
inline std::optional<std::string> corpus_kernel_signature(const std::filesystem::path& case_dir) {
  nlohmann::json spec = nlohmann::json::parse(read(case_dir / "case.json"));
  std::string args;
  for (const auto& arg : spec["args"]) {
    std::string type;
    if (!arg.contains("scalar")) {  // an array: generated, recorded or xoroshiro states
      auto t = npy_signature_type(case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy"));
      if (!t) return std::nullopt;
      type = *t;
    } else if (arg.contains("dtype")) {
      type = arg["dtype"].get<std::string>();
    } else {
      type = arg["scalar"].is_number_integer() ? "int64" : arg["scalar"].is_boolean() ? "boolean" : "float64";
    }
    args += (args.empty() ? "" : ", ") + type;
  }
  return "void(" + args + ")";
}

}  // namespace test
