// Checks on the raw parse that CPython makes and tree-sitter's error recovery does not:
// nesting depth (so that no later phase recurses past the stack) and indentation (so that a
// mis-indented statement is an IndentationError, not a statement silently moved elsewhere).
#pragma once
#include "base/diagnostics.h"
#include "syntax/syntax_tree.h"

namespace pykern::syntax {

// Deepest syntax-tree nesting pykern accepts. CPython's parser stops at 200 nested
// parentheses, which is about 400 tree levels here; ordinary kernels stay under 60.
constexpr uint32_t max_nesting_depth = 600;
// tree-sitter-python keeps block indentation in one byte when it saves its scanner state.
constexpr uint32_t max_indent_columns = 255;

// Reports the first node nested deeper than max_nesting_depth. Iterative: safe on any input.
bool check_nesting(const SyntaxTree& tree, Diagnostics& diagnostics);

// IndentationError / TabError as CPython raises them: a statement whose indentation differs
// from its block's, an else/elif/except/finally not aligned with its statement, tabs and
// spaces mixed inconsistently, or indentation deeper than pykern can parse. ERROR subtrees
// (notebook magics, Python 2 prints) are left to the module model.
bool check_indentation(const SyntaxTree& tree, Diagnostics& diagnostics);

// CPython's SyntaxErrors that tree-sitter parses without complaint, anywhere in the file outside
// ERROR subtrees: a block with no statements (IndentationError "expected an indented block"), a
// keyword used as a name, `09`, binding or deleting __debug__, a duplicate parameter, an unknown
// or late `from __future__` import (`braces`: "not a chance"), an unterminated string. Reports
// the first, as CPython does.
bool check_python_rules(const SyntaxTree& tree, Diagnostics& diagnostics);

// A word Python reserves (soft keywords such as `match` are not).
bool is_keyword(std::string_view name);

// Reports what CPython refuses in the file's bytes before parsing them (SourceFile::problem).
bool check_source_text(const SourceFile& file, Diagnostics& diagnostics);

}  // namespace pykern::syntax
