#include <fmt/format.h>
#include <xxhash.h>

#include "emit/emit_cuda.h"
#include "sema/infer.h"

namespace pykern::emit {

// Python names become py_<name>. pykern's own names start with pk_, so nothing a user writes
// (int, new, asm, __global__, main, a macro such as INT_MAX) can collide or inject. A name with
// characters outside [A-Za-z0-9_] (Python allows Unicode) is spelled in hex bytes under pyx_.
std::string mangle_local(const std::string& name) {
  bool ascii = !name.empty();
  for (unsigned char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) ascii = false;
  if (ascii) return "py_" + name;
  std::string out = "pyx_";
  for (unsigned char c : name) out += fmt::format("{:02x}", c);
  return out;
}

std::string signature_text(const ir::Function& function) {
  sema::Signature signature;
  signature.arguments = function.argument_types;
  return sema::to_string(signature);
}

std::string kernel_symbol(const ir::Function& function) {
  std::string key = function.python_name + signature_text(function);
  uint32_t hash = static_cast<uint32_t>(XXH3_64bits(key.data(), key.size()));
  return fmt::format("pk_kernel_{}_{:08x}", mangle_local(function.python_name), hash);
}

std::string device_symbol(const ir::Function& function) {
  return fmt::format("pk_device_{}_{}", mangle_local(function.python_name), function.specialization);
}

}  // namespace pykern::emit
