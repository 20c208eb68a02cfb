// A kernel's simulator specialisation remembered in the kernel cache's notes, so that a later
// process launching the same kernel of the same file for the same argument types does not
// translate it again: in a warm `pykern run` that second translation was 1.3 ms of about 8
// (BENCHMARKS.md, issue 3). The note holds what the translation made but the generated source,
// which only a build needs: the library is found in the cache by the source's digest, and
// when it is not there the kernel is translated again for its source (ModuleState::ensure_library).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compiler/translate.h"
#include "pykern/compiler.h"

namespace pykern::detail {

struct SpecializationNote {
  std::vector<CompiledKernel> kernels;
  std::string source_digest;  // sim::source_digest of the simulator source
  bool uses_cxx_runtime = false;
};

// The note's key: everything the translation of `kernel` for `signature` depends on (pykern's
// version, its runtime headers, the file's name and text, debug).
std::string specialization_note_key(const std::string& file_name, const std::string& text, const std::string& kernel,
                                    const std::string& signature, bool debug);

// "" when the note cannot be written (a record field name that is not UTF-8): none is kept.
std::string note_text(const SpecializationNote& note);
// Null for a text that is not a whole note (then the kernel is translated as if there were none).
std::optional<SpecializationNote> parse_note(const std::string& text);

// What loading a file found (Module::load_source's check of the whole file), noted the same
// way: a later load of the same text takes its functions, warnings and the specialisations
// its decorators' signatures made from the note, without translating the file. That check
// was the other 1.3 ms translation of a warm `pykern run`.
struct ModuleNote {
  compiler::ModuleContents contents;
  std::string warnings;
  SpecializationNote declared;  // no kernels when no decorator carries a signature
};
std::string module_note_key(const std::string& file_name, const std::string& text, bool debug);
std::string module_note_text(const ModuleNote& note);  // "" as note_text
std::optional<ModuleNote> parse_module_note(const std::string& text);

}  // namespace pykern::detail
