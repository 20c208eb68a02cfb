#include "api/specialization_note.h"
#include "pykern/version.h"

#include <nlohmann/json.hpp>

#include "cache/cache.h"
#include "embed/runtime_headers.h"

namespace pykern::detail {

using nlohmann::json;

namespace {

json parameter_json(const ParameterInfo& p) {
  return {{"name", p.name}, {"array", p.is_array}, {"dtype", p.dtype.descr()}, {"ndim", p.ndim},
          {"layout", std::string(1, p.layout)}};
}

// Throws json's exceptions for a missing or mistyped field; std::invalid_argument for the rest.
ParameterInfo parse_parameter(const json& p) {
  ParameterInfo info;
  info.name = p.at("name").get<std::string>();
  info.is_array = p.at("array").get<bool>();
  auto dtype = DType::from_descr(p.at("dtype").get<std::string>());
  std::string layout = p.at("layout").get<std::string>();
  if (!dtype.ok() || layout.size() != 1) throw std::invalid_argument("a parameter");
  info.dtype = *dtype;
  info.ndim = p.at("ndim").get<int>();
  info.layout = layout[0];
  return info;
}

json kernels_json(const std::vector<CompiledKernel>& kernels) {
  json list = json::array();
  for (const CompiledKernel& k : kernels) {
    json parameters = json::array();
    for (const ParameterInfo& p : k.parameters) parameters.push_back(parameter_json(p));
    list.push_back({{"function", k.function}, {"symbol", k.symbol}, {"signature", k.signature},
                    {"parameters", parameters}, {"debug", k.debug}, {"cooperative", k.cooperative},
                    {"prints", k.prints}});
  }
  return list;
}

std::vector<CompiledKernel> parse_kernels(const json& list) {
  std::vector<CompiledKernel> kernels;
  for (const json& k : list.at("kernels")) {
    CompiledKernel kernel{k.at("function").get<std::string>(), k.at("symbol").get<std::string>(),
                          k.at("signature").get<std::string>(), {}, k.at("debug").get<bool>(),
                          k.at("cooperative").get<bool>(), k.at("prints").get<bool>()};
    for (const json& p : k.at("parameters")) kernel.parameters.push_back(parse_parameter(p));
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

json specialization_json(const SpecializationNote& note) {
  return {{"kernels", kernels_json(note.kernels)}, {"source_digest", note.source_digest},
          {"uses_cxx_runtime", note.uses_cxx_runtime}};
}

SpecializationNote parse_specialization(const json& j) {
  SpecializationNote note;
  note.kernels = parse_kernels(j);
  note.source_digest = j.at("source_digest").get<std::string>();
  note.uses_cxx_runtime = j.at("uses_cxx_runtime").get<bool>();
  if (!note.kernels.empty() && note.source_digest.empty()) throw std::invalid_argument("no digest");
  return note;
}

json functions_json(const std::vector<compiler::NamedFunction>& functions) {
  json list = json::array();
  for (const compiler::NamedFunction& f : functions)
    list.push_back({{"name", f.name}, {"parameters", f.parameters}, {"device_only", f.device_only}});
  return list;
}

std::vector<compiler::NamedFunction> parse_functions(const json& list) {
  std::vector<compiler::NamedFunction> functions;
  for (const json& f : list)
    functions.push_back({f.at("name").get<std::string>(), f.at("parameters").get<std::vector<std::string>>(),
                         f.at("device_only").get<bool>()});
  return functions;
}

json generators_json(const std::vector<compiler::GeneratorFunction>& generators) {
  json list = json::array();
  for (const compiler::GeneratorFunction& g : generators) {
    json signatures = json::array();
    for (const compiler::GeneratorSignature& s : g.signatures) {
      json arguments = json::array();
      for (const ParameterInfo& p : s.arguments) arguments.push_back(parameter_json(p));
      signatures.push_back({{"arguments", arguments}, {"result", s.result ? json(s.result->descr()) : json()}});
    }
    list.push_back({{"name", g.name}, {"kind", g.kind}, {"signatures", signatures}, {"layout", g.layout},
                    {"parameters", g.parameters}, {"target", g.target},
                    {"identity", g.identity}});
  }
  return list;
}

std::vector<compiler::GeneratorFunction> parse_generators(const json& list) {
  std::vector<compiler::GeneratorFunction> generators;
  for (const json& g : list) {
    compiler::GeneratorFunction function;
    function.name = g.at("name").get<std::string>();
    function.kind = g.at("kind").get<std::string>();
    function.layout = g.at("layout").get<std::string>();
    function.target = g.at("target").get<std::string>();
    function.parameters = g.at("parameters").get<std::vector<std::string>>();
    function.identity = g.value("identity", "");
    for (const json& s : g.at("signatures")) {
      compiler::GeneratorSignature signature;
      for (const json& p : s.at("arguments")) signature.arguments.push_back(parse_parameter(p));
      if (!s.at("result").is_null()) {
        auto dtype = DType::from_descr(s.at("result").get<std::string>());
        if (!dtype.ok()) throw std::invalid_argument("a result type");
        signature.result = *dtype;
      }
      function.signatures.push_back(std::move(signature));
    }
    generators.push_back(std::move(function));
  }
  return generators;
}

// Null for a text that is not JSON of the expected shape, whatever is wrong with it.
template <class Note, class Parse> std::optional<Note> parsed(const std::string& text, Parse parse) {
  try {
    return parse(json::parse(text));
  } catch (const json::exception&) {
    return std::nullopt;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace

std::string specialization_note_key(const std::string& file_name, const std::string& text, const std::string& kernel,
                                    const std::string& signature, bool debug) {
  return cache::cache_key({"simulator-specialization", version(), embed::sources_hash(), embed::runtime_headers_hash(), file_name, text,
                           "kernel=" + kernel, "sig=" + signature, debug ? "debug" : ""});
}

namespace {
// "" for a note JSON cannot hold: a record field name of bytes that are not UTF-8 (.npy files
// may name fields so). Such a kernel is translated in every process, as before notes.
std::string dumped(const json& j) {
  try {
    return j.dump();
  } catch (const json::exception&) {
    return "";
  }
}
}  // namespace

std::string note_text(const SpecializationNote& note) { return dumped(specialization_json(note)); }

std::optional<SpecializationNote> parse_note(const std::string& text) {
  return parsed<SpecializationNote>(text, [](const json& j) -> std::optional<SpecializationNote> {
    SpecializationNote note = parse_specialization(j);
    if (note.kernels.empty()) return std::nullopt;
    return note;
  });
}

std::string module_note_key(const std::string& file_name, const std::string& text, bool debug) {
  return cache::cache_key({"module-check", version(), embed::sources_hash(), embed::runtime_headers_hash(), file_name, text,
                           debug ? "debug" : ""});
}

std::string module_note_text(const ModuleNote& note) {
  return dumped(json{{"kernels", functions_json(note.contents.kernels)},
                     {"host_functions", functions_json(note.contents.host_functions)},
                     {"generators", generators_json(note.contents.generators)},
                     {"warnings", note.warnings},
                     {"declared", specialization_json(note.declared)}});
}

std::optional<ModuleNote> parse_module_note(const std::string& text) {
  return parsed<ModuleNote>(text, [](const json& j) -> std::optional<ModuleNote> {
    ModuleNote note;
    note.contents.kernels = parse_functions(j.at("kernels"));
    note.contents.host_functions = parse_functions(j.at("host_functions"));
    note.contents.generators = parse_generators(j.at("generators"));
    note.warnings = j.at("warnings").get<std::string>();
    note.declared = parse_specialization(j.at("declared"));
    return note;
  });
}

}  // namespace pykern::detail
