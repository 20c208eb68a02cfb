// The text of a bundle header: the compiled bytes as string literals (which compilers read far
// faster than brace lists of numbers), the tables pykern/bundle.h describes, and one typed
// launch function per kernel and distinct C++ signature.
#include <set>

#include <fmt/format.h>

#include "bundle/bundle.h"
#include "pykern/bundle.h"

namespace pykern::bundle {

namespace {

bool is_cxx_keyword(const std::string& name) {
  static const std::set<std::string> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // The header's own names, and the macros a program is likely to see.
      "module", "bundle_data", "launch", "pykern", "std", "assert", "NULL", "errno"};
  return keywords.count(name) > 0;
}

bool is_ascii_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_') || static_cast<unsigned char>(c) > 0x7f) return false;
  return true;
}

// Bytes as a C++ string literal, broken into lines of about 100 columns (adjacent literals
// join): printable ASCII as itself, the rest as three-digit octal escapes (never hex, whose
// escapes swallow the digits after them).
std::string literal(const std::string& bytes) {
  std::string text = "\"";
  size_t column = 0;
  for (unsigned char c : bytes) {
    if (column >= 96) {
      text += "\"\n    \"";
      column = 0;
    }
    if (c == '"' || c == '\\' || c == '?') {
      text += '\\';
      text += static_cast<char>(c);
      column += 2;
    } else if (c >= 0x20 && c < 0x7f) {
      text += static_cast<char>(c);
      column += 1;
    } else {
      text += fmt::format("\\{:03o}", c);
      column += 4;
    }
  }
  return text + "\"";
}

// The C++ type that holds one element of `dtype`, or "" when C++ has none (float16, records).
std::string cxx_element(const DType& dtype) {
  switch (dtype.kind) {
    case ScalarKind::boolean: return "bool";
    case ScalarKind::int_: return fmt::format("std::int{}_t", dtype.itemsize * 8);
    case ScalarKind::uint: return fmt::format("std::uint{}_t", dtype.itemsize * 8);
    case ScalarKind::float_: return dtype.itemsize == 4 ? "float" : dtype.itemsize == 8 ? "double" : "";
    case ScalarKind::complex: return dtype.itemsize == 8 ? "std::complex<float>" : "std::complex<double>";
    case ScalarKind::record: return "";
  }
  return "";
}

// A parameter's type in a typed launch function: a View of its element type and rank, a C++
// scalar; an Array or a Scalar (checked at launch) where C++ has no element type.
std::string cxx_parameter_type(const ParameterInfo& p) {
  std::string element = cxx_element(p.dtype);
  if (p.is_array) return element.empty() ? "const pykern::Array&" : fmt::format("pykern::View<{}, {}>", element, p.ndim);
  return element.empty() ? "const pykern::Scalar&" : element;
}

std::string argument_of(const ParameterInfo& p, const std::string& name) {
  return !p.is_array && !cxx_element(p.dtype).empty() ? fmt::format("pykern::Scalar({})", name) : name;
}

void render_tables(const Contents& contents, std::string& out) {
  out += "namespace bundle_data {\n";
  for (size_t i = 0; i < contents.images.size(); ++i)
    out += fmt::format("inline constexpr char image_{}[] =\n    {};\n", i, literal(contents.images[i].bytes));
  if (!contents.host_library.empty())
    out += fmt::format("inline constexpr char host_library[] =\n    {};\n", literal(contents.host_library));
  for (size_t k = 0; k < contents.kernels.size(); ++k) {
    const CompiledKernel& kernel = contents.kernels[k];
    if (kernel.parameters.empty()) continue;
    out += fmt::format("inline constexpr pykern::bundle::Parameter parameters_{}[] = {{\n", k);
    for (const ParameterInfo& p : kernel.parameters)
      out += fmt::format("    {{{}, {}, {}, {}, '{}'}},\n", literal(p.name), p.is_array ? "true" : "false",
                         literal(p.dtype.descr()), p.ndim, p.layout);
    out += "};\n";
  }
  out += "inline constexpr pykern::bundle::Kernel kernels[] = {\n";
  for (size_t k = 0; k < contents.kernels.size(); ++k) {
    const CompiledKernel& kernel = contents.kernels[k];
    out += fmt::format("    {{{}, {}, {}, {}, {}, {}, {}}},\n", literal(kernel.function), literal(kernel.symbol),
                       literal(kernel.signature),
                       kernel.parameters.empty() ? "nullptr" : fmt::format("parameters_{}", k),
                       kernel.parameters.size(), kernel.debug ? "true" : "false",
                       kernel.cooperative ? "true" : "false");
  }
  out += "};\n";
  if (!contents.images.empty()) {
    out += "inline constexpr pykern::bundle::Image images[] = {\n";
    for (size_t i = 0; i < contents.images.size(); ++i)
      out += fmt::format("    {{{}, image_{}, sizeof(image_{}) - 1}},\n", literal(contents.images[i].arch), i, i);
    out += "};\n";
  }
  out += fmt::format(
      "inline constexpr pykern::bundle::Data data = {{\n"
      "    {}, {}, {},\n    kernels, {},\n    {}, {},\n    {}, {}, {}}};\n",
      format_version, literal(version()), literal(contents.source_name), contents.kernels.size(),
      contents.images.empty() ? "nullptr" : "images", contents.images.size(),
      contents.host_library.empty() ? "nullptr" : "host_library",
      contents.host_library.empty() ? "0" : "sizeof(host_library) - 1", literal(host_target()));
  out += "}  // namespace bundle_data\n\n";
}

// A name make_bundle has checked (cxx_name), as C++ spells it.
std::string spelled(const std::string& name) {
  auto cxx = cxx_name(name);
  return cxx.ok() ? cxx.value() : name;
}

void render_launchers(const Contents& contents, std::string& out) {
  std::set<std::string> written;  // signatures that differ only in layout share one function
  for (const CompiledKernel& kernel : contents.kernels) {
    std::string name = spelled(kernel.function);
    std::string parameters, arguments, types;
    for (const ParameterInfo& p : kernel.parameters) {
      std::string parameter = spelled(p.name);
      std::string type = cxx_parameter_type(p);
      parameters += fmt::format(", {} {}", type, parameter);
      arguments += (arguments.empty() ? "" : ", ") + argument_of(p, parameter);
      types += "," + type;
    }
    if (!written.insert(name + "(" + types + ")").second) continue;
    out += fmt::format("// {}{}\n", kernel.function, kernel.signature);
    out += fmt::format("inline pykern::Status {}(const pykern::Launch& launch{}) {{\n", name, parameters);
    out += fmt::format("  return pykern::bundle::launch(module(), {}, launch, {{{}}});\n}}\n\n",
                       literal(kernel.function), arguments);
  }
}

}  // namespace

Result<std::string> cxx_name(const std::string& name) {
  if (!is_ascii_identifier(name))
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' cannot be a C++ name in a bundle header: kernels and their parameters need "
                                   "ASCII names (letters, digits, '_')", name));
  return is_cxx_keyword(name) ? name + "_" : name;
}

Result<std::string> namespace_from(const std::string& given, const std::string& file) {
  if (!given.empty()) {
    std::string rest = given;
    for (size_t at = 0; at <= rest.size();) {
      size_t end = rest.find("::", at);
      std::string part = rest.substr(at, end == std::string::npos ? std::string::npos : end - at);
      if (!is_ascii_identifier(part) || is_cxx_keyword(part))
        return Error::make(ErrorKind::invalid_argument,
                           fmt::format("--namespace '{}': write C++ names joined by '::', e.g. app::kernels", given));
      if (end == std::string::npos) break;
      at = end + 2;
    }
    return given;
  }
  std::string stem;
  size_t slash = file.find_last_of('/');
  std::string base = file.substr(slash == std::string::npos ? 0 : slash + 1);
  base = base.substr(0, base.find('.'));
  for (char c : base) stem += std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80 ? c : '_';
  if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem[0]))) stem = "kernels_" + stem;
  return is_cxx_keyword(stem) ? stem + "_" : stem;
}

std::string render_bundle(const Contents& contents) {
  std::string images;
  for (const Contents::Image& image : contents.images) images += (images.empty() ? "" : ", ") + image.arch;
  std::string out = fmt::format(
      "// Made by pykern {} (`pykern bundle`) from {}; do not edit: make it again when the kernels change.\n"
      "// GPU code: {}. Simulator build: {}.\n"
      "// How to use it: pykern/bundle.h, and README.md's \"Kernels compiled ahead of time\".\n"
      "#pragma once\n#include <complex>\n#include <cstdint>\n\n#include <pykern/bundle.h>\n\n"
      "namespace {} {{\n\n",
      version(), contents.source_name, images.empty() ? "none" : images,
      contents.host_library.empty() ? "none" : host_target(), contents.name_space);
  render_tables(contents, out);
  out += "// The bundle's kernels as a pykern::Module, loaded on first use; an error if this program's pykern\n"
         "// cannot use them (another version made them).\n"
         "inline const pykern::Result<pykern::Module>& module() {\n"
         "  static const pykern::Result<pykern::Module> loaded = pykern::Module::load_bundle(bundle_data::data);\n"
         "  return loaded;\n}\n\n";
  render_launchers(contents, out);
  return out + fmt::format("}}  // namespace {}\n", contents.name_space);
}

}  // namespace pykern::bundle
