// print() on the host of what infer.cpp's print_pieces leaves over, as Numba's CPU target
// prints it (numba/cpython/printimpl.py boxes the value and Python prints the object): None,
// complex numbers as Python writes them, a list of tuples or complex numbers as the Python
// list's repr, and a dict as numba.typed.Dict's __str__ writes it ({a: 1, b: 2.5}: keys and
// values formatted with str(), so strings bare). The text is made at run time by
// pk::print_text (runtime/pykern/text_search.cuh).
#include <fmt/format.h>

#include "sema/text.h"

namespace pykern::sema {

namespace {

// A value Python's repr() writes inside a list or a tuple, as pk::put_repr does.
bool repr_printable(const Type& type) {
  switch (type.kind) {
    case TypeKind::string:
    case TypeKind::integer:
    case TypeKind::boolean:
    case TypeKind::floating:
    case TypeKind::complex:
    case TypeKind::none: return true;
    case TypeKind::tuple:
      for (const Type& item : type.elements)
        if (!repr_printable(item)) return false;
      return true;
    case TypeKind::list: return repr_printable(type.elements.at(0));
    default: return false;
  }
}

// A key or value of a dict, which the typed Dict formats with str(): a nested dict or a
// list (a typed List there) the same way.
bool str_printable(const Type& type) {
  if (type.is(TypeKind::dict) && type.ndim == 0) return str_printable(type.elements.at(0)) && str_printable(type.elements.at(1));
  if (type.is(TypeKind::list)) return str_printable(type.elements.at(0));
  return repr_printable(type);
}

bool printable_on_host(const Type& type) {
  if (type.is(TypeKind::dict)) return type.ndim == 0 && str_printable(type);
  return type.is(TypeKind::complex) || (type.is(TypeKind::list) && repr_printable(type));
}

std::string refusal_hint(const Type& type) {
  if (type.is(TypeKind::dict) && type.ndim != 0)
    return "Numba cannot print a dict's view: loop over it, or print the dict itself";
  if (type.is(TypeKind::array) || (type.is(TypeKind::dict) && type.ndim == 0))
    return "print the array's items, or the dict's keys and values one by one";
  return "";
}

}  // namespace

void print_on_host(FunctionChecker& c, const Value& value, SourceRange range, std::vector<PrintPiece>& out) {
  const Type& type = value.type;
  if (type.is(TypeKind::none)) {
    out.push_back({"None", "", {}, range});
    return;
  }
  if (!printable_on_host(type)) {
    c.error(DiagKind::unsupported_operation, range,
            fmt::format("print() in a @jit function takes numbers, booleans, None, strings, and tuples, lists and dicts "
                        "of them, not '{}'",
                        to_string(type)),
            refusal_hint(type));
    return;
  }
  Value text = c.make_call(ir::Op::print_text, {value.expr}, Type::string(), range);
  out.push_back({"", "%s", text.expr, range});
}

}  // namespace pykern::sema
