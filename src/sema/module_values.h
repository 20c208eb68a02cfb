// Values Python computes at import time that kernels read as constants: np.finfo / np.iinfo
// fields, a dtype's attributes (a.dtype.type, np.dtype(np.int32).itemsize), and the members of
// enum classes defined in the file (IntEnum members are integers, as in Numba).
#pragma once
#include <optional>
#include <string>

#include "sema/builtins.h"

namespace pykern::sema {

// np.finfo(np.float32), np.finfo("double"), np.iinfo(np.int32): a compile-time entity whose
// fields (eps, max, min, bits, ...) are constants of NumPy's types.
Value numpy_finfo(FunctionChecker& checker, const CallSite& call);
Value numpy_iinfo(FunctionChecker& checker, const CallSite& call);

// The dtype NumPy reads from a type argument at import: a NumPy or Numba type, a dtype, its name,
// or Python's float, int, bool and complex (float64, int64, bool, complex128).
std::optional<Type> import_time_dtype(const Value& value);

// An attribute of a compile-time value, where it has one: the fields of np.finfo/np.iinfo, a
// dtype's `type` and `itemsize`, an enum member's `value`. nullopt: not such a value (the
// caller goes on as before).
std::optional<Value> module_value_attribute(FunctionChecker& checker, const Value& base, const std::string& attr,
                                            SourceRange range);

// An enum class of the module, as a name whose attributes are its members (resolve_qualified
// hands names under enum_class_prefix to enum_member).
inline constexpr const char* enum_class_prefix = "enum class ";
Value enum_class_value(const std::string& name);
Value enum_member(FunctionChecker& checker, const std::string& qualified, SourceRange range);
// Color["red"]: the member named by a string literal.
std::optional<Value> enum_subscript(FunctionChecker& checker, const Value& base, ast::ExprId index, SourceRange range);

}  // namespace pykern::sema
