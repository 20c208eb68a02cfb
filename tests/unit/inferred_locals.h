// The locals of one inferred function, for the tests that read types off the typed IR.
#pragma once
#include <string>

#include <doctest/doctest.h>

#include "frontend/module.h"
#include "sema/infer.h"
#include "syntax/syntax_tree.h"

namespace pykern::test {

// Infers `name` with `signature` and returns its locals as "name: type" lines (leaving out
// `hidden`, e.g. a parameter every case has) and "-> RETURN" when `with_return`; or the errors.
inline std::string inferred_locals(const std::string& text, const std::string& name, const std::string& signature,
                                   const std::string& hidden = "", bool with_return = true) {
  SourceFile file("k.py", text);
  auto tree = syntax::SyntaxTree::parse(file);
  REQUIRE(tree.ok());
  Diagnostics diagnostics;
  auto module = frontend::Module::build(*tree, diagnostics);
  SourceFile sig_file("sig", signature);
  auto parsed = sema::parse_signature(sig_file, diagnostics);
  REQUIRE(parsed);
  auto program = sema::infer(module, {{name, *parsed, {}}}, diagnostics);
  if (diagnostics.has_errors()) return diagnostics.render();
  std::string out;
  const ir::Function& f = program.functions[program.kernels.at(0)];
  for (const ir::Local& l : f.locals)
    if (!l.is_temporary && l.name != hidden) out += l.name + ": " + sema::to_string(l.type) + "\n";
  return with_return ? out + "-> " + sema::to_string(f.return_type) : out;
}

}  // namespace pykern::test
