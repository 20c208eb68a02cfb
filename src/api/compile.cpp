// The public compiler entry points: the compiler's translate() does the work; what it cannot
// know (the GPU in use, for an empty --arch) is settled here.
#include "compiler/translate.h"
#include "pykern/compiler.h"
#include "pykern/device.h"

#include "base/source_file.h"

namespace pykern {

Result<CompileOutput> compile_source(const std::string& text, const std::string& file_name,
                                     const CompileOptions& options) {
  compiler::Request request{text, file_name, options};
  if (options.arch.empty()) request.options.arch = current_gpu_arch();
  auto translated = compiler::translate(request);
  if (!translated.ok()) return translated.error();
  return std::move(translated->output);
}

Result<CompileOutput> compile_file(const std::string& path, const CompileOptions& options) {
  auto file = SourceFile::load(path);
  if (!file.ok()) return file.error();
  return compile_source(file->text(), path, options);
}

}  // namespace pykern
