// A dict view where a list is taken: list(d.keys()), sorted(d.values()), sorted(d.items()),
// as Numba takes any iterable there. The view becomes a new list of its items in the dict's
// order (runtime/pykern/dict_lists.cuh); sorted() and list() then see a list.
#include "sema/dict_lists.h"

#include "sema/dictionaries.h"

namespace pykern::sema {

bool is_dict_view(const Type& type) { return type.is(TypeKind::dict) && type.ndim != dict_itself; }

Value list_of_dict_view(FunctionChecker& c, const Value& view, SourceRange range) {
  const Type& key = view.type.elements.at(0);
  const Type& value = view.type.elements.at(1);
  switch (view.type.ndim) {
    case dict_keys: return c.make_call(ir::Op::dict_keys_list, {view.expr}, Type::list_of(key), range);
    case dict_values: return c.make_call(ir::Op::dict_values_list, {view.expr}, Type::list_of(value), range);
    default: return c.make_call(ir::Op::dict_items_list, {view.expr}, Type::list_of(Type::tuple({key, value})), range);
  }
}

}  // namespace pykern::sema
