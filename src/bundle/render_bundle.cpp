// The text of a bundle header: the compiled bytes as string literals (which compilers read far
// faster than brace lists of numbers), the tables pykern/bundle.h describes, and one typed
// launch function per kernel and distinct C++ signature.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/c_literal.h"
#include "pykern/version.h"
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
      "friend", "goto", "if", "import", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static", "static_assert",
      "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
      "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
      "xor_eq",
      // The header's own names: a parameter called module would hide module() in its launcher.
      "module", "bundle_data", "launch", "pykern", "std"};
  return keywords.count(name) > 0;
}

// The macros with lower-case names that a program may see before a bundle header: from the C
// and C++ libraries and POSIX headers (glibc's, as g++ -dM lists them), and the compilers' own
// names for the target in GNU modes (linux, unix, i386, ...). Upper-case and reserved names are
// caught by a rule instead (could_be_macro).
bool is_lower_case_macro(const std::string& name) {
  static const std::set<std::string> macros = {
      // <cassert>, <cerrno>, <cmath>, <cstdio>, <cstdarg>, <csetjmp>, <cstddef>, <cstdlib>, <csignal>
      "assert", "assert_perror", "errno", "math_errhandling", "issubnormal", "issignaling", "iszero",
      "iscanonical", "stdin", "stdout", "stderr", "getc", "putc", "getchar", "putchar", "va_arg", "va_copy",
      "va_end", "va_start", "setjmp", "sigsetjmp", "longjmp", "offsetof", "alloca", "sigmask", "complex",
      "imaginary", "noreturn", "static_assert", "bool", "true", "false",
      // <sys/sysmacros.h>, <sys/stat.h>, <sys/time.h>, <endian.h>, <netinet/in.h>, <dirent.h>, <pthread.h>
      "major", "minor", "makedev", "st_atime", "st_mtime", "st_ctime", "timeradd", "timersub", "timerclear",
      "timercmp", "timerisset", "be16toh", "be32toh", "be64toh", "le16toh", "le32toh", "le64toh", "htobe16",
      "htobe32", "htobe64", "htole16", "htole32", "htole64", "htons", "htonl", "ntohs", "ntohl", "s6_addr",
      "s6_addr16", "s6_addr32", "d_fileno", "pthread_cleanup_push", "pthread_cleanup_pop",
      "pthread_cleanup_push_defer_np", "pthread_cleanup_pop_restore_np", "sched_priority",
      // <signal.h>'s members
      "sa_handler", "sa_sigaction", "si_pid", "si_uid", "si_status", "si_utime", "si_stime", "si_value",
      "si_int", "si_ptr", "si_addr", "si_addr_lsb", "si_lower", "si_upper", "si_pkey", "si_band", "si_fd",
      "si_timerid", "si_overrun", "si_call_addr", "si_syscall", "si_arch", "sigev_notify_function",
      "sigev_notify_attributes",
      // The target's names, predefined in GNU modes (-std=gnu++20) by GCC and Clang.
      "linux", "unix", "i386", "mips", "sparc", "sun", "vax", "m68k", "mc68000", "powerpc", "ppc"};
  return macros.count(name) > 0;
}

// Whether `name` spelled as itself could be a macro of the compiler, the C or C++ library or the
// system's headers: reserved names (a leading '_', or '__' anywhere: __LINE__, _Pragma), names
// without a lower-case letter (EOF, NAN, INT_MAX), an upper-case prefix and '_' (M_PIl,
// L_tmpnam), and the known lower-case macros. A rule rather than a list, so that the macros of
// headers nobody listed are caught too; the price is that A or N is spelled py_A, py_N.
bool could_be_macro(const std::string& name) {
  if (name.empty() || name[0] == '_' || name.find("__") != std::string::npos) return true;
  if (std::none_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; })) return true;
  size_t prefix = 0;
  while (prefix < name.size() && ((name[prefix] >= 'A' && name[prefix] <= 'Z') || std::isdigit(static_cast<unsigned char>(name[prefix]))))
    ++prefix;
  if (prefix > 0 && prefix < name.size() && name[prefix] == '_') return true;
  return is_lower_case_macro(name);
}

bool is_ascii_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_') || static_cast<unsigned char>(c) > 0x7f) return false;
  return true;
}

// A name that cannot be itself in C++: "py_" and the name, its leading underscores dropped and
// each run of underscores made one, so that the spelling is neither reserved nor a macro.
std::string mangled(const std::string& name) {
  std::string out = "py_";
  for (char c : name) {
    if (c == '_' && (out.back() == '_')) continue;
    out += c;
  }
  return out;
}

// Bytes as a C++ string literal on lines of about 100 columns (base/c_literal.h).
std::string literal(const std::string& bytes) { return c_string_literal(bytes, 100); }

// The C++ type that holds one element of `dtype`, or "" when C++ has none (float16, records;
// bfloat16, which no kernel takes yet).
std::string cxx_element(const DType& dtype) {
  switch (dtype.kind) {
    case ScalarKind::boolean: return "bool";
    case ScalarKind::int_: return fmt::format("std::int{}_t", dtype.itemsize * 8);
    case ScalarKind::uint: return fmt::format("std::uint{}_t", dtype.itemsize * 8);
    case ScalarKind::float_: return dtype.itemsize == 4 ? "float" : dtype.itemsize == 8 ? "double" : "";
    case ScalarKind::complex: return dtype.itemsize == 8 ? "std::complex<float>" : "std::complex<double>";
    case ScalarKind::record:
    case ScalarKind::bfloat: return "";
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

// One char in C++: 'C' for a letter, a cast number for any other byte (no quote or backslash
// can reach the header).
std::string char_literal(char c) {
  if (std::isalnum(static_cast<unsigned char>(c))) return fmt::format("'{}'", c);
  return fmt::format("static_cast<char>({})", static_cast<int>(c));
}

// A byte array of the header, its length checked where it is compiled: a header cut short does
// not compile, and one edited to another length of the same bytes fails the checksum at load.
void render_bytes(const std::string& name, const std::string& bytes, std::string& out) {
  out += fmt::format("inline constexpr char {}[] =\n    {};\n", name, literal(bytes));
  out += fmt::format("static_assert(sizeof({}) == {}, \"{} is cut short: make the header again with pykern bundle\");\n",
                     name, bytes.size() + 1, name);
}

void render_tables(const Contents& contents, std::string& out) {
  out += "namespace bundle_data {\n";
  for (size_t i = 0; i < contents.images.size(); ++i) render_bytes(fmt::format("image_{}", i), contents.images[i].bytes, out);
  if (!contents.host_library.empty()) render_bytes("host_library", contents.host_library, out);
  for (size_t k = 0; k < contents.kernels.size(); ++k) {
    const CompiledKernel& kernel = contents.kernels[k];
    if (kernel.parameters.empty()) continue;
    out += fmt::format("inline constexpr pykern::bundle::Parameter parameters_{}[] = {{\n", k);
    for (const ParameterInfo& p : kernel.parameters)
      out += fmt::format("    {{{}, {}, {}, {}, {}}},\n", literal(p.name), p.is_array ? "true" : "false",
                         literal(p.dtype.descr()), p.ndim, char_literal(p.layout));
    out += "};\n";
  }
  out += "inline constexpr pykern::bundle::Kernel kernels[] = {\n";
  for (size_t k = 0; k < contents.kernels.size(); ++k) {
    const CompiledKernel& kernel = contents.kernels[k];
    out += fmt::format("    {{{}, {}, {}, {}, {}, {}, {}, {}}},\n", literal(kernel.function), literal(kernel.symbol),
                       literal(kernel.signature),
                       kernel.parameters.empty() ? "nullptr" : fmt::format("parameters_{}", k),
                       kernel.parameters.size(), kernel.debug ? "true" : "false",
                       kernel.cooperative ? "true" : "false", kernel.prints ? "true" : "false");
  }
  out += "};\n";
  if (!contents.images.empty()) {
    out += "inline constexpr pykern::bundle::Image images[] = {\n";
    for (size_t i = 0; i < contents.images.size(); ++i) {
      const Contents::Image& image = contents.images[i];
      out += fmt::format("    {{{}, image_{}, {}, {:#x}ULL}},\n", literal(image.arch), i, image.bytes.size(),
                         checksum(image.bytes.data(), image.bytes.size()));
    }
    out += "};\n";
  }
  const std::string& library = contents.host_library;
  out += fmt::format(
      "inline constexpr pykern::bundle::Data data = {{\n"
      "    {}, {}, {},\n    kernels, {},\n    {}, {},\n    {}, {}, {:#x}ULL, {}}};\n",
      format_version, literal(version()), literal(contents.source_name), contents.kernels.size(),
      contents.images.empty() ? "nullptr" : "images", contents.images.size(),
      library.empty() ? "nullptr" : "host_library", library.size(), checksum(library.data(), library.size()),
      literal(host_target()));
  out += "}  // namespace bundle_data\n\n";
}

// A name as the header spells it: its C++ name (cxx_name), or, for a name that has none (which
// render_bundle refuses before it writes anything), its bytes in hex under pyx_.
std::string spelled(const std::string& name) {
  auto cxx = cxx_name(name);
  if (cxx.ok()) return *cxx;
  std::string out = "pyx_";
  for (unsigned char c : name) out += fmt::format("{:02x}", c);
  return out;
}

// The comment above a launch function: the kernel and its signature, and the C++ spelling of
// each name that is not spelled as itself. Every name is a C string literal here (the one
// escaping function), so no byte of it can end the comment's line.
std::string launcher_comment(const CompiledKernel& kernel) {
  std::string text = fmt::format("// Kernel {}, signature {}.\n", literal(kernel.function), literal(kernel.signature));
  std::string renamed;
  auto note = [&](const std::string& name) {
    std::string cxx = spelled(name);
    if (cxx != name) renamed += fmt::format("{}{} is {}", renamed.empty() ? "" : ", ", literal(name), cxx);
  };
  note(kernel.function);
  for (const ParameterInfo& p : kernel.parameters) note(p.name);
  if (!renamed.empty()) text += fmt::format("// In C++ (a keyword or a possible macro is spelled py_NAME): {}.\n", renamed);
  return text;
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
    out += launcher_comment(kernel);
    out += fmt::format("inline pykern::Status {}(const pykern::Launch& launch{}) {{\n", name, parameters);
    out += fmt::format("  return pykern::bundle::launch(module(), {}, launch, {{{}}});\n}}\n\n",
                       literal(kernel.function), arguments);
  }
}

// Whether `name_space` is C++ names joined by "::", none of them a keyword or a possible macro.
Status check_namespace(const std::string& name_space) {
  for (size_t at = 0; at <= name_space.size();) {
    size_t end = name_space.find("::", at);
    std::string part = name_space.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!is_ascii_identifier(part) || is_cxx_keyword(part))
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("namespace {}: write C++ names joined by '::', e.g. app::kernels",
                                     literal(name_space)));
    if (could_be_macro(part))
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("namespace {}: '{}' could be a macro in a program that includes the header "
                                     "(a reserved name, one without lower-case letters, or one such as 'linux'); "
                                     "choose another, e.g. app::kernels", literal(name_space), part));
    if (end == std::string::npos) break;
    at = end + 2;
  }
  return ok_status();
}

}  // namespace

Result<std::string> cxx_name(const std::string& name) {
  // A static method's kernel, `Helper.step`, is `Helper_step`: the dots of a dotted name
  // become '_' (check_cxx_names refuses two kernels that meet that way).
  if (name.find('.') != std::string::npos && name.front() != '.' && name.back() != '.' &&
      name.find("..") == std::string::npos) {
    std::string joined = name;
    std::replace(joined.begin(), joined.end(), '.', '_');
    return cxx_name(joined);
  }
  if (!is_ascii_identifier(name))
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' cannot be a C++ name in a bundle header: kernels and their parameters need "
                                   "ASCII names (letters, digits, '_')", name));
  return is_cxx_keyword(name) || could_be_macro(name) ? mangled(name) : name;
}

Result<std::string> namespace_from(const std::string& given, const std::string& file) {
  if (!given.empty()) {
    if (auto checked = check_namespace(given); !checked.ok()) return checked.error();
    return given;
  }
  std::string stem;
  size_t slash = file.find_last_of('/');
  std::string base = file.substr(slash == std::string::npos ? 0 : slash + 1);
  base = base.substr(0, base.find('.'));
  for (char c : base) stem += std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80 ? c : '_';
  if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem[0]))) stem = "kernels_" + stem;
  return is_cxx_keyword(stem) || could_be_macro(stem) ? mangled(stem) : stem;
}

Status check_cxx_names(const std::vector<CompiledKernel>& kernels) {
  std::map<std::string, std::string> functions;
  for (const CompiledKernel& k : kernels) {
    auto name = cxx_name(k.function);
    if (!name.ok()) return name.error();
    if (!functions.emplace(*name, k.function).second && functions[*name] != k.function)
      return Error::make(ErrorKind::invalid_argument, fmt::format("kernels '{}' and '{}' would both be '{}' in C++; "
                                                                  "rename one", functions[*name], k.function, *name));
    std::set<std::string> parameters;
    for (const ParameterInfo& p : k.parameters) {
      auto parameter = cxx_name(p.name);
      if (!parameter.ok())
        return Error::make(ErrorKind::invalid_argument, fmt::format("kernel '{}': {}", k.function, parameter.error().message));
      if (!parameters.insert(*parameter).second)
        return Error::make(ErrorKind::invalid_argument, fmt::format("kernel '{}': two parameters would both be '{}' "
                                                                    "in C++; rename one", k.function, *parameter));
    }
  }
  return ok_status();
}

Result<std::string> render_bundle(const Contents& contents) {
  // Contents from make_bundle pass these; others (a test, a fuzzer) are refused, not printed.
  if (auto named = check_cxx_names(contents.kernels); !named.ok()) return named.error();
  if (auto space = check_namespace(contents.name_space); !space.ok()) return space.error();
  std::string images;
  for (const Contents::Image& image : contents.images) images += (images.empty() ? "" : ", ") + literal(image.arch);
  std::string out = fmt::format(
      "// Made by pykern {} (`pykern bundle`) from {}; do not edit: make it again when the kernels change.\n"
      "// GPU code: {}. Simulator build: {}.\n"
      "// How to use it: pykern/bundle.h, and README.md's \"Kernels compiled ahead of time\".\n"
      "#pragma once\n#include <complex>\n#include <cstdint>\n\n#include <pykern/bundle.h>\n\n"
      "namespace {} {{\n\n",
      version(), literal(contents.source_name), images.empty() ? "none" : images,
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
