// Type inference: AST + argument types → typed IR, by Numba's rules.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "frontend/module.h"
#include "sema/ir.h"
#include "sema/types.h"

namespace pykern::sema {

struct Signature {
  std::optional<Type> return_type;  // absent: inferred (and void for kernels)
  std::vector<Type> arguments;
};
std::string to_string(const Signature& signature);

// One entry point to specialise: a kernel, or the scalar function of a ufunc/reduction.
struct EntryRequest {
  std::string function;
  Signature signature;
  SourceRange where;  // where the signature came from, for diagnostics
};

// Infers every requested entry point and the device functions they call, in dependency order.
// `force_debug` compiles every function as with debug=True (pykern run --debug).
ir::Program infer(frontend::Module& module, const std::vector<EntryRequest>& entries,
                  Diagnostics& diagnostics, bool force_debug = false);

// Where the parts of a signature are written, so that an error about how it fits its function
// points into it.
struct SignatureRanges {
  SourceRange whole;
  std::optional<SourceRange> returns;  // absent: no return type written
  SourceRange arguments;               // "(float32[:], int64)", or the bare list
  std::vector<SourceRange> each;       // each argument type
};

// Signatures in Numba's syntax: "void(float32[:, ::1], int64)", "f8(i4, i4)", "(f4[:], f4[:])".
// `file` holds the signature's text alone (one given to the compiler, or a decorator's string);
// its display name says where the text came from.
std::optional<Signature> parse_signature(const SourceFile& file, Diagnostics& diagnostics,
                                         SignatureRanges* ranges = nullptr);
// One type in the same syntax ("ListType(int64)", "DictType(int64, unicode_type)"), or nullopt.
std::optional<Type> parse_type_text(const std::string& text);

// A decorator's signature argument: a string literal or a type expression such as
// void(float32[::1]) written with imported names. Errors and `ranges` are in the module's file:
// inside the string literal when it is written plainly (no escapes), else the whole literal.
std::optional<Signature> signature_from_decorator(frontend::Module& module, ast::ExprId expr,
                                                  Diagnostics& diagnostics, SignatureRanges* ranges = nullptr);

// Whether a signature fits the function it specialises: one type per parameter (the error names
// them), and a return type of void, or none, for a kernel or a @guvectorize function. Errors are
// at `ranges` in `file`, the signature's text, with a note at the function's definition.
bool check_signature_fits(const Signature& signature, const SignatureRanges& ranges, const SourceFile& file,
                          frontend::Module& module, const frontend::ModuleFunction& function,
                          const ast::Function& lowered, Diagnostics& diagnostics);

// Numba's overload resolution among a typing template's cases (ConcreteTemplate): the case the
// arguments convert to best (fewest unsafe conversions, then safe ones, then promotions; the
// earlier case on a tie), or nullopt when they convert to none.
std::optional<size_t> best_case(const std::vector<Type>& arguments, const std::vector<std::vector<Type>>& cases);

// A call of a function whose decorator gives signatures (@cuda.jit('f4(f4[:], f4)', device=True),
// @jit(float64(int32, int32))): Numba compiles those only, and converts the call's arguments to
// the one its overload resolution picks (fewest unsafe conversions, then safe ones, then
// promotions; the first on a tie). The signature to specialise, with the arguments' own array
// types where they convert exactly or only by layout; an error at `where` when none takes them.
std::optional<Signature> declared_overload(frontend::Module& module, const frontend::ModuleFunction& function,
                                           const std::vector<Type>& arguments, SourceRange where,
                                           Diagnostics& diagnostics);

}  // namespace pykern::sema
