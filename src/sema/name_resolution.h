// The name pass: before anything is typed, every name a function reads is resolved as Python
// resolves it (its locals, the functions around it, the module's names, the builtins), and every
// attribute read of a module pykern models (numba, numba.cuda, numpy, math, ...) is looked up in
// the builtins' tables (sema/builtins.h). Numba finds such mistakes when it types a function, at
// its first launch for a kernel without a signature; this pass needs no types, so it finds them
// in every kernel: `pykern compile FILE` reports them as errors, Module::load_source as warnings
// (and the launch, which types the kernel, as errors).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "frontend/module.h"

namespace pykern::sema {

struct NameRoots {
  // Functions compiled by this translation (its entries, and the kernels without a signature
  // that `pykern compile` checks): what they, and every function they reach, read wrongly is an
  // error.
  std::vector<std::string> compiled;
  // Kernels without a signature that compile at their first launch: warnings now.
  std::vector<std::string> deferred;
  // Also the decorated functions that no root reaches, as warnings (a check of the whole file).
  bool unreached = false;
};

void resolve_names(frontend::Module& module, const NameRoots& roots, Diagnostics& diagnostics);

// `attr` read of the module `module_name` ("numba.cuda", "gird") where pykern knows no such
// name: the diagnostic, with the names of that module it may have meant. nullopt where pykern
// knows the name, or does not model the module (a library of the user's, scipy). The type
// checker reports a module attribute through this too, so a mistake both find is reported once.
// `in_jit_function`: the name is read in a @jit function, which the message names (else kernels).
std::optional<Diagnostic> unknown_module_attribute(const SourceFile& file, const std::string& module_name,
                                                   const std::string& attr, SourceRange range,
                                                   bool in_jit_function = false);
// A @jit / @njit function (not a kernel, nor a CUDA device function).
bool is_jit_function(const frontend::ModuleFunction& function);

}  // namespace pykern::sema
