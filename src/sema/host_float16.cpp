#include "sema/host_float16.h"

#include <fmt/format.h>

namespace pykern::sema {

namespace {

const char* float16_hint =
    "convert to float32 before the call (a.astype(np.float32)), or compute it in a @cuda.jit kernel, where "
    "numba-cuda takes float16";

}  // namespace

bool holds_float16(const Type& type) {
  if (type.is(TypeKind::floating)) return type.bits == 16;
  if (type.is(TypeKind::record)) return false;  // a field's float16 is bytes in a record
  for (const Type& element : type.elements)
    if (holds_float16(element)) return true;
  return false;
}

void refuse_float16_on_cpu(FunctionChecker& c, const ast::Function& function, const std::vector<Type>& arguments,
                           const ir::Function& typed) {
  for (size_t i = 0; i < arguments.size() && i < function.parameters.size(); ++i) {
    if (!holds_float16(arguments[i])) continue;
    c.error(DiagKind::unsupported_operation, function.parameters[i].range,
            fmt::format("parameter '{}' is {}: Numba's CPU target has no float16, so @jit functions called on the "
                        "host take none (NotImplementedError: float16)",
                        function.parameters[i].name, to_string(arguments[i])),
            float16_hint);
    return;
  }
  const ir::Expr* first = nullptr;
  for (size_t k = 0; k < typed.exprs.size(); ++k) {
    const ir::Expr& e = typed.exprs[ir::ExprId(static_cast<uint32_t>(k))];
    if (holds_float16(e.type) && e.range.end > e.range.begin && (!first || e.range.begin < first->range.begin))
      first = &e;
  }
  if (!first) return;
  c.error(DiagKind::unsupported_operation, first->range,
          fmt::format("this value is {}: Numba's CPU target has no float16, so @jit functions called on the host "
                      "compute with none (NotImplementedError: float16)",
                      to_string(first->type)),
          float16_hint);
}

}  // namespace pykern::sema
