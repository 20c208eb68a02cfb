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

// Signatures in Numba's syntax: "void(float32[:, ::1], int64)", "f8(i4, i4)", "(f4[:], f4[:])".
// `file` is the text being parsed (a --sig argument, or a decorator's string literal).
std::optional<Signature> parse_signature(const SourceFile& file, Diagnostics& diagnostics);

// A decorator's signature argument: a string literal or a type expression such as
// void(float32[::1]) written with imported names.
std::optional<Signature> signature_from_decorator(frontend::Module& module, ast::ExprId expr,
                                                  Diagnostics& diagnostics);

// A call of a function whose decorator gives signatures (@cuda.jit('f4(f4[:], f4)', device=True),
// @jit(float64(int32, int32))): Numba compiles those only, and converts the call's arguments to
// the one its overload resolution picks (fewest unsafe conversions, then safe ones, then
// promotions; the first on a tie). The signature to specialise, with the arguments' own array
// types where they convert exactly or only by layout; an error at `where` when none takes them.
std::optional<Signature> declared_overload(frontend::Module& module, const frontend::ModuleFunction& function,
                                           const std::vector<Type>& arguments, SourceRange where,
                                           Diagnostics& diagnostics);

}  // namespace pykern::sema
