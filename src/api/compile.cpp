// The public compiler entry points: the compiler layer below does the work; what it cannot
// know (the GPU in use, for an empty --arch) is settled here.
#include "compiler/compile.h"
#include "pykern/compiler.h"
#include "pykern/device.h"

#include "base/source_file.h"

namespace pykern {

Result<CompileOutput> compile_source(const std::string& text, const std::string& file_name,
                                     const CompileOptions& options) {
  if (!options.arch.empty()) return compiler::compile(text, file_name, options);
  CompileOptions with_arch = options;
  with_arch.arch = current_gpu_arch();
  return compiler::compile(text, file_name, with_arch);
}

Result<CompileOutput> compile_file(const std::string& path, const CompileOptions& options) {
  auto file = SourceFile::load(path);
  if (!file.ok()) return file.error();
  return compile_source(file->text(), path, options);
}

}  // namespace pykern
