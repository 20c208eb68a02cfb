#include "cli/file_functions.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace pykern::cli {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "def NAME(" or "async def NAME(" at the start of a line: NAME, else "".
std::string defined_name(const std::string& line) {
  size_t at = line.rfind("def ", 0) == 0 ? 4 : line.rfind("async def ", 0) == 0 ? 10 : std::string::npos;
  if (at == std::string::npos) return "";
  while (at < line.size() && line[at] == ' ') ++at;
  size_t end = at;
  while (end < line.size() && is_name_char(line[end])) ++end;
  return line.substr(at, end - at);
}

// Whether a decorator's text sets device=True (spaces allowed around '=').
bool says_device(const std::string& decorator) {
  for (size_t at = decorator.find("device"); at != std::string::npos; at = decorator.find("device", at + 1)) {
    if (at > 0 && is_name_char(decorator[at - 1])) continue;
    size_t i = at + 6;
    while (i < decorator.size() && decorator[i] == ' ') ++i;
    if (i >= decorator.size() || decorator[i] != '=') continue;
    for (++i; i < decorator.size() && decorator[i] == ' ';) ++i;
    if (decorator.compare(i, 4, "True") == 0) return true;
  }
  return false;
}

// "g = cuda.jit(device=True)(f)" or "g = cuda.jit(f, device=True)" at the start of a line: g,
// a device function made by calling the decorator; else "".
std::string assigned_device_function(const std::string& line) {
  size_t end = 0;
  while (end < line.size() && is_name_char(line[end])) ++end;
  if (end == 0) return "";
  size_t at = end;
  while (at < line.size() && line[at] == ' ') ++at;
  if (at >= line.size() || line[at] != '=' || (at + 1 < line.size() && line[at + 1] == '=')) return "";
  std::string value = line.substr(at + 1);
  if (value.find("jit(") == std::string::npos || !says_device(value)) return "";
  return line.substr(0, end);
}

}  // namespace

std::vector<FileFunction> decorated_functions(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<FileFunction> functions;
  std::string decorators;  // the decorator lines above the current line, joined
  bool in_decorator = false;
  int depth = 0;  // open brackets of a decorator that spans lines
  for (std::string line; std::getline(in, line) && functions.size() < 100000;) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (in_decorator && depth > 0) {
      decorators += line;
    } else if (line.rfind("@", 0) == 0) {
      in_decorator = true;
      depth = 0;
      decorators += line;
    } else if (std::string name = defined_name(line); !name.empty()) {
      if (in_decorator) functions.push_back({name, says_device(decorators)});
      in_decorator = false;
      decorators.clear();
      continue;
    } else if (std::string made = assigned_device_function(line); !made.empty()) {
      functions.push_back({made, true});
      in_decorator = false;
      decorators.clear();
      continue;
    } else if (!line.empty() && line[0] != '#' && line[0] != ' ' && line[0] != '\t') {
      in_decorator = false;
      decorators.clear();
      continue;
    } else {
      continue;
    }
    for (char c : line) depth += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
  }
  return functions;
}

std::vector<std::string> names_of(const std::vector<FileFunction>& functions) {
  std::vector<std::string> names;
  for (const FileFunction& f : functions) names.push_back(f.name);
  return names;
}

}  // namespace pykern::cli
