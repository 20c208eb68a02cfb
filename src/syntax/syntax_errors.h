// A syntax error explained as CPython 3.11 explains it. tree-sitter recovers from a broken file
// by wrapping what it could not parse in ERROR nodes, which often begin a line or more before the
// mistake; CPython names the mistake ("expected ':'", "'(' was never closed") at its own place.
// This re-reads the file with CPython's tokenizer (tokens.h), finds the first logical line of the
// region that does not parse, and asks a table of CPython's rules which one fits it.
#pragma once
#include <string>

#include "base/source_file.h"
#include "syntax/syntax_tree.h"

namespace pykern::syntax {

struct SyntaxProblem {
  SourceRange where;
  std::string message;
  std::string hint;
};

// The first syntax error in `region`, a node that holds an ERROR or MISSING node (the whole
// tree, a function's definition, a module-level ERROR). Never fails: what no rule recognises is
// "invalid syntax" at the first token CPython's parser could not take.
SyntaxProblem explain_syntax_error(const SyntaxTree& tree, TSNode region);

}  // namespace pykern::syntax
