// numba.cuda: the thread's place in the launch, barriers and fences, float16 intrinsics, bit
// operations, vector types, cooperative groups and constant arrays.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// numba.cuda.fp16.hadd and friends: float16 arguments (others convert), a float16 result, or
// a bool for the comparisons.
Handler fp16_intrinsic(Op op, size_t arity, bool is_comparison) {
  return [op, arity, is_comparison](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, arity, arity)) return Value::error();
    std::vector<ir::ExprId> args;
    for (const Value& arg : call.args) {
      if (!want_numeric(c, call, arg) || arg.type.is(TypeKind::complex)) return Value::error();
      args.push_back(c.cast_expr(arg.expr, Type::float_(16)));
    }
    return c.make_call(op, std::move(args), is_comparison ? Type::boolean() : Type::float_(16), call.range);
  };
}

// cuda.grid(ndim) / cuda.gridsize(ndim): int64, a tuple for 2 and 3 dimensions.
Handler grid(Op op) {
  return [op](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1)) return Value::error();
    auto ndim = c.fold(call.args[0].expr);
    if (!ndim || ndim->as_int() < 1 || ndim->as_int() > 3) {
      c.error(DiagKind::not_constant, call.range, short_name(call.name) + "() takes a constant 1, 2 or 3");
      return Value::error();
    }
    int n = static_cast<int>(ndim->as_int());
    Type type = n == 1 ? Type::i64() : Type::uni_tuple(Type::i64(), n);
    return c.make_call(op, {}, type, call.range, n);
  };
}

Value syncwarp(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 0, 1)) return Value::error();
  ir::ExprId mask =
      call.args.empty() ? c.make_constant({int64_t(0xffffffff)}, Type::i64(), call.range).expr : call.args[0].expr;
  return c.make_call(Op::syncwarp, {c.cast_expr(mask, Type::int_(32, false))}, Type::void_(), call.range);
}

Value fma(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 3, 3)) return Value::error();
  Type type = c.float_type_for(promote(promote(call.args[0].type, call.args[1].type), call.args[2].type));
  return c.make_call(Op::fma, {c.cast_expr(call.args[0].expr, type), c.cast_expr(call.args[1].expr, type),
                               c.cast_expr(call.args[2].expr, type)},
                     type, call.range);
}

// cuda.selp(predicate, a, b): a where the predicate holds, else b (PTX's selp).
Value selp(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 3, 3) || !want_numeric(c, call, call.args[1]) || !want_numeric(c, call, call.args[2]))
    return Value::error();
  Value test = c.truth(call.args[0], call.range);
  if (!test.ok()) return test;
  Type type = promote(call.args[1].type, call.args[2].type);
  ir::Expr select;
  select.kind = ir::ExprKind::select;
  select.type = type;
  select.range = call.range;
  select.args = {test.expr, c.cast_expr(call.args[1].expr, type), c.cast_expr(call.args[2].expr, type)};
  return c.value_of(c.add(std::move(select)));
}

// cuda.popc/clz/ffs/brev typed and lowered as numba-cuda's (cudadecl.py, cudaimpl.py): popc and
// clz count at the argument's own width and keep its type (a bool is an int8); ffs answers uint32
// and is lowered for 32- and 64-bit integers only; brev takes uint32 or uint64, and every other
// integer converts to uint32 first (an int64 loses its high half, as in numba-cuda).
Handler bit_operation(Op op) {
  return [op](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1)) return Value::error();
    const Value& arg = call.args[0];
    std::string name = "cuda." + short_name(call.name);
    if (!arg.type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, name + " needs an integer, not '" + to_string(arg.type) + "'");
      return Value::error();
    }
    Type type = arg.type.is(TypeKind::boolean) ? Type::int_(8) : arg.type;
    if (op == Op::ffs) {
      if (type.bits < 32) {
        c.error(DiagKind::type_mismatch, call.range,
                name + " does not take " + to_string(arg.type) + " values: numba-cuda lowers it for 32- and 64-bit "
                "integers only",
                "widen the value first, e.g. cuda.ffs(int32(x))");
        return Value::error();
      }
      return c.make_call(op, {arg.expr}, Type::int_(32, false), call.range);
    }
    if (op == Op::brev) type = type == Type::u64() ? type : Type::int_(32, false);
    return c.make_call(op, {c.cast_expr(arg.expr, type)}, type, call.range);
  };
}

// numba.cuda's vector types: float32x4(...) and its CUDA alias float4(...) take scalars and
// vectors of the same lane type whose lanes add up to the type's (float32x4(v2, 1.0, 2.0)).
Handler vector_constructor(Type lane, int lanes) {
  return [lane, lanes](FunctionChecker& c, const CallSite& call) -> Value {
    Type type = Type::vector(lane, lanes);
    std::vector<ir::ExprId> parts;
    for (const Value& arg : call.args) {
      if (arg.type.is(TypeKind::vector) && arg.type.elements[0] == lane) {
        static const char* const names[] = {"x", "y", "z", "w"};
        for (int i = 0; i < arg.type.ndim; ++i) parts.push_back(c.attribute_of(arg, names[i], call.range).expr);
      } else if (arg.type.is_numeric() && !arg.type.is(TypeKind::complex)) {
        parts.push_back(c.cast_expr(arg.expr, lane));
      } else {
        c.error(DiagKind::type_mismatch, call.range,
                fmt::format("{}() takes numbers and {} vectors, not '{}'", to_string(type), to_string(lane),
                            to_string(arg.type)));
        return Value::error();
      }
    }
    if (static_cast<int>(parts.size()) != lanes || !call.keywords.empty()) {
      c.error(DiagKind::wrong_arity, call.range,
              fmt::format("{}() needs {} lanes, {} given", to_string(type), lanes, parts.size()));
      return Value::error();
    }
    return c.make_call(Op::make_vec, parts, type, call.range, lanes);
  };
}

void add_vector_constructors(HandlerTable& t) {
  static const std::pair<const char*, Type> lane_types[] = {
      {"int8", Type::int_(8)},           {"int16", Type::int_(16)},          {"int32", Type::int_(32)},
      {"int64", Type::int_(64)},         {"uint8", Type::int_(8, false)},    {"uint16", Type::int_(16, false)},
      {"uint32", Type::int_(32, false)}, {"uint64", Type::int_(64, false)},  {"float32", Type::f32()},
      {"float64", Type::f64()}};
  // CUDA's names, as numba-cuda maps them on a 64-bit Linux (long is 64 bits).
  static const std::pair<const char*, const char*> aliases[] = {
      {"char", "int8"},    {"short", "int16"},    {"int", "int32"},      {"long", "int64"},
      {"longlong", "int64"}, {"uchar", "uint8"},  {"ushort", "uint16"},  {"uint", "uint32"},
      {"ulong", "uint64"}, {"ulonglong", "uint64"}, {"float", "float32"}, {"double", "float64"}};
  for (const auto& [name, lane] : lane_types)
    for (int lanes = 1; lanes <= 4; ++lanes) {
      t[fmt::format("numba.cuda.{}x{}", name, lanes)] = vector_constructor(lane, lanes);
      for (const auto& [alias, base] : aliases)
        if (std::string(base) == name) t[fmt::format("numba.cuda.{}{}", alias, lanes)] = vector_constructor(lane, lanes);
    }
}

void add_fp16_intrinsics(HandlerTable& t) {
  static const std::pair<const char*, Op> binary[] = {{"hadd", Op::fp16_hadd}, {"hsub", Op::fp16_hsub},
                                                      {"hmul", Op::fp16_hmul}, {"hdiv", Op::fp16_hdiv},
                                                      {"hmax", Op::fp16_hmax}, {"hmin", Op::fp16_hmin}};
  for (const auto& [name, op] : binary) t[std::string("numba.cuda.fp16.") + name] = fp16_intrinsic(op, 2, false);
  static const std::pair<const char*, Op> comparisons[] = {{"heq", Op::fp16_heq}, {"hne", Op::fp16_hne},
                                                           {"hgt", Op::fp16_hgt}, {"hge", Op::fp16_hge},
                                                           {"hlt", Op::fp16_hlt}, {"hle", Op::fp16_hle}};
  for (const auto& [name, op] : comparisons) t[std::string("numba.cuda.fp16.") + name] = fp16_intrinsic(op, 2, true);
  static const std::pair<const char*, Op> unary[] = {
      {"hneg", Op::fp16_hneg},   {"habs", Op::fp16_habs},     {"hsin", Op::fp16_hsin},     {"hcos", Op::fp16_hcos},
      {"hlog", Op::fp16_hlog},   {"hlog2", Op::fp16_hlog2},   {"hlog10", Op::fp16_hlog10}, {"hexp", Op::fp16_hexp},
      {"hexp2", Op::fp16_hexp2}, {"hexp10", Op::fp16_hexp10}, {"hsqrt", Op::fp16_hsqrt},   {"hrsqrt", Op::fp16_hrsqrt},
      {"hrcp", Op::fp16_hrcp},   {"hceil", Op::fp16_hceil},   {"hfloor", Op::fp16_hfloor}, {"htrunc", Op::fp16_htrunc},
      {"hrint", Op::fp16_hrint}};
  for (const auto& [name, op] : unary) t[std::string("numba.cuda.fp16.") + name] = fp16_intrinsic(op, 1, false);
  t["numba.cuda.fp16.hfma"] = fp16_intrinsic(Op::fp16_hfma, 3, false);
}

// value.method() with nothing in the parentheses (args[0] is the value itself).
bool want_no_method_args(FunctionChecker& c, const CallSite& call, const char* method) {
  if (call.args.size() == 1 && call.keywords.empty()) return true;
  c.error(DiagKind::wrong_arity, call.range,
          fmt::format("{}() takes no arguments ({} given)", method, call.args.size() - 1 + call.keywords.size()));
  return false;
}

// g.sync() on the grid group: a barrier of every thread of the grid; int32 as in numba-cuda.
Value grid_sync(FunctionChecker& c, const CallSite& call) {
  const Type& type = call.args[0].type;  // args[0] is the value itself
  if (!type.is(TypeKind::grid_group)) {
    c.error(DiagKind::unknown_attribute, call.range, "a value of type '" + to_string(type) + "' has no attribute 'sync'",
            "sync() is a method of the grid group: g = cuda.cg.this_grid(); g.sync()");
    return Value::error();
  }
  if (!want_no_method_args(c, call, "sync")) return Value::error();
  return c.make_call(Op::grid_sync, {call.args[0].expr}, Type::i32(), call.range);
}

// cuda.const.array_like(A): A's values in constant memory. A module-level array is frozen
// into the kernel as a read-only constant array already, so it is that array.
Value const_array_like(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1)) return Value::error();
  if (c.expr(call.args[0].expr).kind != ir::ExprKind::constant_array) {
    c.error(DiagKind::not_constant, call.range, "cuda.const.array_like needs a module-level NumPy array",
            "bind the array once at module level, e.g. TABLE = np.array([...], dtype=np.float32)");
    return Value::error();
  }
  return call.args[0];
}

}  // namespace

namespace {

const std::map<std::string, Op>& intrinsic_values() {
  static const std::map<std::string, Op> values = {
      {"numba.cuda.threadIdx.x", Op::threadIdx_x}, {"numba.cuda.threadIdx.y", Op::threadIdx_y},
      {"numba.cuda.threadIdx.z", Op::threadIdx_z}, {"numba.cuda.blockIdx.x", Op::blockIdx_x},
      {"numba.cuda.blockIdx.y", Op::blockIdx_y},   {"numba.cuda.blockIdx.z", Op::blockIdx_z},
      {"numba.cuda.blockDim.x", Op::blockDim_x},   {"numba.cuda.blockDim.y", Op::blockDim_y},
      {"numba.cuda.blockDim.z", Op::blockDim_z},   {"numba.cuda.gridDim.x", Op::gridDim_x},
      {"numba.cuda.gridDim.y", Op::gridDim_y},     {"numba.cuda.gridDim.z", Op::gridDim_z},
      {"numba.cuda.laneid", Op::laneid},           {"numba.cuda.warpsize", Op::warpsize}};
  return values;
}

}  // namespace

std::optional<Op> cuda_intrinsic_value(const std::string& name) {
  auto found = intrinsic_values().find(name);
  if (found == intrinsic_values().end()) return std::nullopt;
  return found->second;
}

std::vector<std::string> cuda_intrinsic_names() {
  std::vector<std::string> names;
  for (const auto& [name, op] : intrinsic_values()) names.push_back(name);
  return names;
}

void add_cuda_builtins(HandlerTable& t) {
  t["numba.cuda.grid"] = grid(Op::grid);
  t["numba.cuda.gridsize"] = grid(Op::gridsize);
  t["numba.cuda.syncthreads"] = nullary(Op::syncthreads, Type::void_());
  t["numba.cuda.syncthreads_count"] = fixed(Op::syncthreads_count, {Type::i32()}, Type::i32());
  t["numba.cuda.syncthreads_and"] = fixed(Op::syncthreads_and, {Type::i32()}, Type::i32());
  t["numba.cuda.syncthreads_or"] = fixed(Op::syncthreads_or, {Type::i32()}, Type::i32());
  t["numba.cuda.syncwarp"] = syncwarp;
  t["numba.cuda.threadfence"] = nullary(Op::threadfence, Type::void_());
  t["numba.cuda.threadfence_block"] = nullary(Op::threadfence_block, Type::void_());
  t["numba.cuda.threadfence_system"] = nullary(Op::threadfence_system, Type::void_());
  t["numba.cuda.nanosleep"] = fixed(Op::nanosleep, {Type::int_(32, false)}, Type::void_());
  t["numba.cuda.fma"] = fma;
  t["numba.cuda.cbrt"] = unary_math(Op::cbrt);
  t["numba.cuda.selp"] = selp;
  t["numba.cuda.popc"] = bit_operation(Op::popc);
  t["numba.cuda.clz"] = bit_operation(Op::clz);
  t["numba.cuda.ffs"] = bit_operation(Op::ffs);
  t["numba.cuda.brev"] = bit_operation(Op::brev);
  // x.bit_count() on an integer: its population count, as numba-cuda's cuda.popc.
  t["method.bit_count"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_no_method_args(c, call, "bit_count")) return Value::error();
    return call_builtin(c, {"numba.cuda.popc", call.args, call.keywords, call.range});
  };
  add_fp16_intrinsics(t);
  add_vector_constructors(t);
  // Cooperative groups: cuda.cg.this_grid() is the grid; its sync() is a barrier of every
  // thread of the grid. A kernel that syncs the grid is launched cooperatively (all its blocks
  // resident at once).
  t["numba.cuda.cg.this_grid"] = nullary(Op::this_grid, Type::grid_group());
  t["method.sync"] = grid_sync;
  t["numba.cuda.const.array_like"] = const_array_like;
}

}  // namespace pykern::sema
