// Python's str in @jit functions called on the host (Numba's unicode_type): string values,
// their operators and methods, str(), f-strings, and exception messages made at run time
// (sema/text.cpp; the runtime is runtime/pykern/text.cuh). Kernels keep numba-cuda's rule:
// string literals only in print(), assert and raise.
#pragma once
#include <string>
#include <vector>

#include "sema/checker.h"

namespace pykern::sema {

bool is_text(const Value& value);
// A string literal as a value: a constant on the host, an error in kernels and their functions.
Value text_literal(FunctionChecker& c, const std::string& text, SourceRange range);
// f"...{x}...": its pieces joined, each value formatted as Numba's format_value (str()) does.
Value text_fstring(FunctionChecker& c, const ast::Expr& e);
// + and * where an operand is a string; ==, !=, <, <=, >, >=, in and not in.
Value text_binary(FunctionChecker& c, ast::BinaryOp op, const Value& left, const Value& right, SourceRange range);
Value text_compare(FunctionChecker& c, ast::CompareOp op, const Value& left, const Value& right, SourceRange range);
Value text_truth(FunctionChecker& c, const Value& value, SourceRange range);  // a non-empty string
// s[i] and s[a:b:c].
Value text_index(FunctionChecker& c, const Value& base, const std::vector<FunctionChecker::IndexItem>& items,
                 SourceRange range, bool is_store);
// str(x) of a value as Numba types it inside a function: text for strings, integers and bools.
Value text_of(FunctionChecker& c, const Value& value, SourceRange range);
// The message Python shows for `exception(*arguments)` (str of the one argument, else the
// repr of the tuple of them), made at run time; invalid after an error.
// A list print() writes as Numba's CPU target does (['a', 'b'], [1, 2.5]): items of strings,
// numbers or such lists (sema/text_methods.cpp; pk::list_repr).
bool printable_list(const Type& list);
ir::ExprId exception_message(FunctionChecker& c, const std::string& exception, const std::vector<ast::ExprId>& arguments,
                             SourceRange range);

// print() on the host of None, complex numbers, dicts and lists of tuples, as Numba's CPU
// target prints them; a located error for what it cannot print (sema/text_print.cpp).
void print_on_host(FunctionChecker& c, const Value& value, SourceRange range, std::vector<PrintPiece>& out);

}  // namespace pykern::sema
