// The compiler as the layers above call it: pykern::compile_source (src/api/compile.cpp)
// picks the architecture of the GPU in use and calls this; bundles call it with theirs.
#pragma once
#include <string>

#include "pykern/compiler.h"

namespace pykern::compiler {

// The architecture compiled for when the options name none.
inline constexpr const char* default_arch = "sm_90";

Result<CompileOutput> compile(const std::string& text, const std::string& file_name, const CompileOptions& options);

}  // namespace pykern::compiler
