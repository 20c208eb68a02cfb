#include "emit/emit_cuda.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "emit/carried_chains.h"
#include "emit/try_blocks.h"
#include "emit/writer.h"
#include "sema/infer.h"

namespace pykern::emit {

using sema::Layout;
using sema::Type;
using sema::TypeKind;

std::string cxx_type(const Type& t, bool owning_arrays) {
  switch (t.kind) {
    case TypeKind::void_:
    case TypeKind::none: return "void";
    case TypeKind::boolean: return "bool";
    case TypeKind::integer: return fmt::format("pk::{}{}", t.is_signed ? "i" : "u", t.bits);
    case TypeKind::floating: return fmt::format("pk::f{}", t.bits);
    case TypeKind::complex: return fmt::format("pk::complex<pk::f{}>", t.bits / 2);
    case TypeKind::array:
      return fmt::format("pk::{}<{}, {}, pk::layout_{}>", owning_arrays ? "OwnedArray" : "Array", cxx_type(t.dtype()),
                         t.ndim, t.layout == Layout::C ? "c" : t.layout == Layout::F ? "f" : "a");
    case TypeKind::tuple: {
      std::string text = "pk::tuple<";
      for (size_t i = 0; i < t.elements.size(); ++i)  // a None item holds nothing: pk::none_t
        text += (i ? ", " : "") + (t.elements[i].is(TypeKind::none) ? "pk::none_t" : cxx_type(t.elements[i], owning_arrays));
      return text + ">";
    }
    case TypeKind::record: return t.record_name.empty() ? record_struct_name(t) : t.record_name;
    case TypeKind::range: return fmt::format("pk::range<{}>", cxx_type(t.elements.at(0)));
    case TypeKind::vector: return fmt::format("pk::vec<{}, {}>", cxx_type(t.elements.at(0)), t.ndim);
    case TypeKind::grid_group: return "pk::grid_group";
    case TypeKind::optional: return fmt::format("pk::optional<{}>", cxx_type(t.elements.at(0), owning_arrays));
    case TypeKind::list: return fmt::format("pk::list<{}>", cxx_type(t.elements.at(0), owning_arrays));
    case TypeKind::dict:  // a view (d.keys()) is the dict itself
      return fmt::format("pk::dict<{}, {}>", cxx_type(t.elements.at(0)), cxx_type(t.elements.at(1), owning_arrays));
    case TypeKind::string: return "pk::str";  // host only (runtime/pykern/text.cuh)
    default: return "void";
  }
}

namespace {

std::string float_literal(double value, bool single) {
  std::string type = single ? "pk::f32" : "pk::f64";
  // A NaN keeps its sign bit: copysign(x, nan) reads it, and the folded value must be the
  // run-time one.
  if (std::isnan(value)) return fmt::format("{}pk::nan<{}>()", std::signbit(value) ? "-" : "", type);
  if (std::isinf(value)) return fmt::format("{}pk::inf<{}>()", value < 0 ? "-" : "", type);
  std::string text = single ? fmt::format("{:.9g}", value) : fmt::format("{:.17g}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return single ? text + "f" : text;
}

// Module arrays whose elements C++ cannot initialise as constants (records, pk::c64, pk::f16):
// sema freezes their bytes, read through a cast of 8-byte words.
bool frozen_as_bytes(const Type& dtype) {
  return dtype.is(TypeKind::record) || dtype.is(TypeKind::complex) || (dtype.is(TypeKind::floating) && dtype.bits == 16);
}

// A string constant: the program's bytes, with their size and code points (text.cuh).
std::string text_constant(const std::string& text) {
  int64_t code_points = 0;
  for (unsigned char c : text) code_points += (c & 0xC0) != 0x80;
  return fmt::format("pk::str_literal({}, {}, {})", c_string_literal(text), text.size(), code_points);
}

std::string constant_text(const ir::Constant& c, const Type& type) {
  switch (type.kind) {
    case TypeKind::boolean: return c.as_int() ? "true" : "false";
    case TypeKind::integer: {
      if (!type.is_signed)
        return type.bits == 64 ? fmt::format("{}ULL", static_cast<uint64_t>(c.as_int()))
                               : fmt::format("{}({}ULL)", cxx_type(type), static_cast<uint64_t>(c.as_int()));
      int64_t v = c.as_int();
      if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
      return type.bits == 64 ? fmt::format("{}LL", v) : fmt::format("{}({})", cxx_type(type), v);
    }
    case TypeKind::floating:
      if (type.bits == 16) return "pk::f16(" + float_literal(c.as_double(), true) + ")";
      return float_literal(c.as_double(), type.bits == 32);
    case TypeKind::complex: {
      std::complex<double> z = std::holds_alternative<std::complex<double>>(c.value)
                                   ? std::get<std::complex<double>>(c.value)
                                   : std::complex<double>(c.as_double(), 0);
      bool single = type.bits == 64;
      return fmt::format("{}({}, {})", cxx_type(type), float_literal(z.real(), single), float_literal(z.imag(), single));
    }
    case TypeKind::string: return text_constant(std::get<std::string>(c.value));
    default: return "/* none */ 0";
  }
}

bool has_loops(const ir::Function& f) {
  for (size_t i = 0; i < f.stmts.size(); ++i) {
    ir::StmtKind kind = f.stmts[ir::StmtId(static_cast<uint32_t>(i))].kind;
    if (kind == ir::StmtKind::for_range || kind == ir::StmtKind::while_) return true;
  }
  return false;
}

// A call's runtime function, from the registry (sema/calls.def): {n} is the operation's constant
// argument, {lane} a vector's lane type, {type} the result's type (spelled by `spell`).
std::string call_spelling(const ir::Expr& e, const std::function<std::string(const Type&)>& spell) {
  std::string_view spelling = ir::call_info(e.op).spelling;
  if (spelling.find('{') == std::string_view::npos) return std::string(spelling);
  if (spelling.find("{type}") != std::string_view::npos)
    return fmt::format(fmt::runtime(spelling), fmt::arg("type", spell(e.type)));
  std::string lane = e.type.is(TypeKind::vector) ? cxx_type(e.type.elements.at(0)) : "";
  // The message Numba raises for an Optional that is None where its value is used.
  std::string what = e.op == ir::Op::checked_unwrap ? c_string_literal("expected " + to_string(e.type) + ", got None") : "";
  return fmt::format(fmt::runtime(spelling), fmt::arg("n", e.op_arg), fmt::arg("lane", lane), fmt::arg("what", what));
}

class Emitter {
 public:
  Emitter(const ir::Program& program, const std::string& file_name, Writer& out)
      : program_(program), file_name_(file_name), out_(out) {}

  void function(const ir::Function& f);
  void declare_recursive_functions();

 private:
  // A type's C++ spelling in this program: a host call's program that makes arrays holds owning
  // ones, except a kernel's own parameters, which keep the launch ABI's view (emit::cxx_type).
  std::string cxx_type(const Type& t) const { return emit::cxx_type(t, program_.owning_arrays); }
  std::string parameter_list() const;  // the current function's, as C++ declares them
  std::string device_function_head(const ir::Function& f);
  std::string expr(ir::ExprId id);
  std::string lvalue(ir::ExprId id);
  std::string local(int index) const;
  std::string local_name(int index) const;
  bool is_record_reference(int index) const;
  void block(const std::vector<ir::StmtId>& body);
  void stmt(ir::StmtId id);
  void line_directive(uint32_t line);
  std::string declaration(int index) const;
  void for_range(const ir::Stmt& s);
  void parallel_for_range(const ir::Stmt& s);
  void loop_body(const ir::Stmt& loop);
  void exit_stmt(const ir::Stmt& s);
  void try_except(const ir::Stmt& s);
  void try_finally(const ir::Stmt& s);

  const ir::Program& program_;
  const std::string& file_name_;
  Writer& out_;
  const ir::Function* function_ = nullptr;
  int storage_count_ = 0;
  std::vector<bool> branch_min_max_;  // by expression: a min/max written as a branch (carried_chains.h)
  std::vector<bool> recursive_;  // by function: called before its definition (a recursion)
  FinallyRoutes routes_;  // the loops and finally blocks around the statement being written
};

// None (and a call's missing value) is a type with no values to hold: C++ has no `void` variable.
bool holds_nothing(const Type& type) { return type.is(TypeKind::none) || type.is(TypeKind::void_); }

std::string Emitter::local_name(int index) const {
  const ir::Local& l = function_->locals[index];
  if (l.is_temporary) return "pk_" + l.name;
  // A later web of a name (sema/webs.h): user names all start py, so pv cannot collide.
  return l.version > 0 ? fmt::format("pv{}_{}", l.version, mangle_local(l.name)) : mangle_local(l.name);
}

// A record variable refers to a record, as in Numba (r = a[i]; r.x = 1 writes a[i].x): it is a
// pointer, bound by assignment and read through. A kernel's own record parameters are values.
bool Emitter::is_record_reference(int index) const {
  const ir::Local& l = function_->locals[index];
  return l.type.is(TypeKind::record) && !(l.is_parameter && function_->is_kernel);
}

std::string Emitter::local(int index) const {
  return is_record_reference(index) ? "(*" + local_name(index) + ")" : local_name(index);
}

std::string Emitter::declaration(int index) const {
  const ir::Local& l = function_->locals[index];
  return fmt::format("{}{} {}{{}};", cxx_type(l.type), is_record_reference(index) ? "*" : "", local_name(index));
}

void Emitter::line_directive(uint32_t line) {
  if (line == 0) return;
  out_.line_directive(line, c_string_literal(file_name_));
}

std::string Emitter::parameter_list() const {
  const ir::Function& f = *function_;
  std::string params;
  for (size_t i = 0; i < f.parameters.size(); ++i) {
    int p = f.parameters[i];
    std::string type = f.is_kernel ? emit::cxx_type(f.locals[p].type) : cxx_type(f.locals[p].type);
    if (holds_nothing(f.locals[p].type)) type = "int";  // None passed to a callee that rebinds it: `/* none */ 0`
    params += fmt::format("{}{}{} {}", i ? ", " : "", type, is_record_reference(p) ? "*" : "",
                          local_name(p));
  }
  return params;
}

std::string Emitter::device_function_head(const ir::Function& f) {
  function_ = &f;
  return fmt::format("static PK_NOINLINE_DEVICE {} {}({})", cxx_type(f.return_type), device_symbol(f), parameter_list());
}

// Functions come callees first (sema), so only a recursion calls a function not yet defined:
// one that calls itself, or the first of two that call each other. Those are declared first.
void Emitter::declare_recursive_functions() {
  std::vector<bool> declared(program_.functions.size(), false);
  for (size_t caller = 0; caller < program_.functions.size(); ++caller) {
    const ir::Function& f = program_.functions[caller];
    for (size_t i = 0; i < f.exprs.size(); ++i) {
      const ir::Expr& e = f.exprs[ir::ExprId(static_cast<uint32_t>(i))];
      if (e.kind == ir::ExprKind::device_call && e.callee >= static_cast<int>(caller)) declared[e.callee] = true;
    }
  }
  recursive_ = declared;
  bool any = false;
  for (size_t i = 0; i < program_.functions.size(); ++i) {
    if (!declared[i]) continue;
    out_.line(device_function_head(program_.functions[i]) + ";");
    any = true;
  }
  if (any) out_.blank();
}

void Emitter::function(const ir::Function& f) {
  function_ = &f;
  storage_count_ = 0;
  branch_min_max_ = carried_min_max_chains(f);
  std::string params = parameter_list();
  line_directive(f.first_line);
  if (f.is_kernel)
    out_.line(fmt::format("extern \"C\" PK_KERNEL void {}({}) {{", kernel_symbol(f), params));
  else
    out_.line(device_function_head(f) + " {");
  out_.indent();
  // Every recursion passes through a function called before its definition.
  size_t index = static_cast<size_t>(&f - program_.functions.data());
  if (index < recursive_.size() && recursive_[index]) {
    line_directive(f.first_line);  // reported at the def
    out_.line("PK_RECURSION_CHECK();");
  }
  if (has_loops(f)) out_.line("PK_LOOP_COUNTER();");
  // Python scoping: every local lives for the whole function.
  for (size_t i = 0; i < f.locals.size(); ++i) {
    const ir::Local& l = f.locals[i];
    if (l.is_parameter || !l.type.known() || holds_nothing(l.type)) continue;
    out_.line(declaration(static_cast<int>(i)));
  }
  for (const std::string& line : try_declarations(f, cxx_type(f.return_type))) out_.line(line);
  block(f.body);
  // A function that returns a value can still reach its end in Python (it returns None there:
  // its type is then an Optional, whose {} is None); C++ must not fall off a value function.
  bool returns_value = !f.is_kernel && !f.return_type.is(TypeKind::void_) && !f.return_type.is(TypeKind::none);
  if (returns_value && (f.body.empty() || f[f.body.back()].kind != ir::StmtKind::return_)) out_.line("return {};");
  out_.dedent();
  out_.line("}");
  out_.blank();
}

void Emitter::block(const std::vector<ir::StmtId>& body) {
  for (ir::StmtId id : body) stmt(id);
}

void Emitter::stmt(ir::StmtId id) {
  const ir::Stmt& s = (*function_)[id];
  line_directive(s.line);
  switch (s.kind) {
    case ir::StmtKind::assign: {
      const ir::Expr& target = (*function_)[s.target];
      if (target.kind == ir::ExprKind::local && holds_nothing(function_->locals[target.local].type)) {
        // A name bound to None has no C++ variable; a call on the right still runs.
        const ir::Expr& value = (*function_)[s.value];
        if (value.kind != ir::ExprKind::constant && value.kind != ir::ExprKind::local) out_.line(expr(s.value) + ";");
        return;
      }
      if (target.kind == ir::ExprKind::local && is_record_reference(target.local))
        out_.line(fmt::format("{} = &{};", local_name(target.local), expr(s.value)));  // binds the name
      else
        out_.line(fmt::format("{} = {};", lvalue(s.target), expr(s.value)));
      return;
    }
    case ir::StmtKind::expr: out_.line(expr(s.value) + ";"); return;
    case ir::StmtKind::if_:
      out_.line(fmt::format("if ({}) {{", expr(s.condition)));
      out_.indent();
      block(s.body);
      out_.dedent();
      if (!s.orelse.empty()) {
        out_.line("} else {");
        out_.indent();
        block(s.orelse);
        out_.dedent();
      }
      out_.line("}");
      return;
    case ir::StmtKind::for_range:
      if (s.parallel.enabled) parallel_for_range(s);
      else for_range(s);
      return;
    case ir::StmtKind::while_:
      out_.line(fmt::format("while ({}) {{ PK_LOOP_TICK();", expr(s.condition)));
      out_.indent();
      loop_body(s);
      out_.dedent();
      out_.line("}");
      block(s.orelse);
      if (s.loop_has_else) out_.line(fmt::format("pk_break_{}:;", s.loop_id));
      return;
    case ir::StmtKind::break_:
    case ir::StmtKind::continue_:
    case ir::StmtKind::return_: exit_stmt(s); return;
    case ir::StmtKind::declare_array: {
      int64_t count = 1;
      std::string extents;
      for (int64_t e : s.array_shape) {
        count *= e;
        extents += fmt::format(", {}", e);
      }
      std::string storage = fmt::format("pk_storage_{}", storage_count_++);
      std::string element = cxx_type(s.array_dtype);
      if (s.dynamic_shared) {
        out_.line(fmt::format("PK_DYNAMIC_SHARED_STORAGE({}, {});", element, storage));
        out_.line(fmt::format("{} = pk::make_array<{}, 1>({}, pk::dynamic_shared_bytes() / sizeof({}));",
                              local(s.local), element, storage, element));
        return;
      }
      out_.line(fmt::format("{}({}, {}, {});", s.in_shared_memory ? "PK_SHARED_STORAGE" : "PK_LOCAL_STORAGE",
                            element, storage, count));
      out_.line(fmt::format("{} = pk::make_array<{}, {}>({}{});", local(s.local), element, s.array_shape.size(),
                            storage, extents));
      return;
    }
    case ir::StmtKind::assert_:
      out_.line(fmt::format("{}({}, {});", function_->options.raises ? "PK_CHECK_ASSERT" : "PK_ASSERT",
                            expr(s.condition), c_string_literal(s.message)));
      return;
    case ir::StmtKind::raise_:
      // A message made at run time (sema/text.cpp) is a string value; else the constant text.
      out_.line(fmt::format("{}({}, {});", function_->options.raises ? "PK_RAISE_ERROR" : "PK_RAISE",
                            c_string_literal(s.exception),
                            s.value.valid() ? "pk::c_str(" + expr(s.value) + ")" : c_string_literal(s.message)));
      return;
    case ir::StmtKind::print: {
      // Values past printf's 32 are evaluated, not passed (their conversions print as text).
      for (size_t i = s.printed_args; i < s.args.size(); ++i) out_.line(fmt::format("(void)({});", expr(s.args[i])));
      std::string args;
      for (size_t i = 0; i < s.printed_args; ++i) {
        // A string value (host only) prints its bytes (%s); bool_text is already a C string.
        const ir::Expr& arg = (*function_)[s.args[i]];
        bool text = arg.type.is(TypeKind::string) && !(arg.kind == ir::ExprKind::call && arg.op == ir::Op::bool_text);
        args += ", " + (text ? "pk::c_str(" + expr(s.args[i]) + ")" : expr(s.args[i]));
      }
      out_.line(fmt::format("printf({}{});", c_string_literal(s.message), args));
      return;
    }
    case ir::StmtKind::try_except: try_except(s); return;
    case ir::StmtKind::try_else: block(s.body); return;  // written by its try_except
    case ir::StmtKind::try_finally: try_finally(s); return;
  }
}

void Emitter::loop_body(const ir::Stmt& loop) {
  routes_.enter_loop(loop.loop_id);
  block(loop.body);
  routes_.leave_loop();
}

// break, continue and return: through the finally blocks between them and where they go
// (emit/try_blocks.h).
void Emitter::exit_stmt(const ir::Stmt& s) {
  if (s.kind == ir::StmtKind::return_) {
    std::string plain = s.value.valid() ? fmt::format("return {};", expr(s.value)) : "return;";
    if (!routes_.passes_finally(Exit::return_, -1)) {
      out_.line(plain);
      return;
    }
    if (s.value.valid()) out_.line(fmt::format("pk_result = {};", expr(s.value)));
    out_.line(routes_.jump(Exit::return_, -1, s.value.valid() ? "return pk_result;" : "return;"));
    return;
  }
  Exit exit = s.kind == ir::StmtKind::break_ ? Exit::break_ : Exit::continue_;
  // A loop with an else branch is left past that branch.
  std::string plain = exit == Exit::continue_ ? "continue;"
                      : s.loop_has_else       ? fmt::format("goto pk_break_{};", s.loop_id)
                                              : "break;";
  out_.line(routes_.passes_finally(exit, s.loop_id) ? routes_.jump(exit, s.loop_id, plain) : plain);
}

void Emitter::try_except(const ir::Stmt& s) {
  const std::vector<ir::StmtId>& body = s.body;
  bool has_else = !body.empty() && (*function_)[body.back()].kind == ir::StmtKind::try_else;
  out_.line("try {");
  out_.indent();
  for (size_t i = 0; i + (has_else ? 1 : 0) < body.size(); ++i) stmt(body[i]);
  out_.dedent();
  out_.line("} catch (const ::pk::PythonException&) {");
  out_.indent();
  block(s.orelse);
  if (has_else) out_.line(fmt::format("goto pk_try_end_{};", s.loop_id));
  out_.dedent();
  out_.line("}");
  if (!has_else) return;
  out_.line("{");
  out_.indent();
  block((*function_)[body.back()].body);
  out_.dedent();
  out_.line("}");
  out_.line(fmt::format("pk_try_end_{}:;", s.loop_id));
}

void Emitter::try_finally(const ir::Stmt& s) {
  int k = s.loop_id;
  out_.line("{");
  out_.indent();
  out_.line(fmt::format("int pk_exit_{} = 0;", k));
  out_.line(fmt::format("::pk::PendingException pk_pending_{};", k));
  out_.line("try {");
  out_.indent();
  routes_.enter_finally(k);
  block(s.body);
  std::vector<std::string> resumes = routes_.leave_finally();
  out_.dedent();
  out_.line("} catch (const ::pk::PythonException& pk_exception) {");
  out_.indent();
  out_.line(fmt::format("pk_pending_{}.keep(pk_exception);", k));
  out_.line(fmt::format("pk_exit_{} = 1;", k));
  out_.dedent();
  out_.line("}");
  if (!resumes.empty()) out_.line(fmt::format("pk_finally_{}:;", k));
  block(s.orelse);
  out_.line(fmt::format("if (pk_exit_{0} == 1) pk_pending_{0}.raise();", k));
  for (const std::string& line : resumes) out_.line(line);
  out_.dedent();
  out_.line("}");
}

void Emitter::for_range(const ir::Stmt& s) {
  std::string i = local(s.local);
  std::string type = cxx_type(function_->locals[s.local].type);
  out_.line("{");
  out_.indent();
  out_.line(fmt::format("const {} pk_stop_{} = {};", type, s.loop_id, expr(s.stop)));
  out_.line(fmt::format("const {} pk_step_{} = {};", type, s.loop_id, expr(s.step)));
  // The tick shares the loop's line, so a timeout names the loop (the simulator's check).
  line_directive(s.line);
  // The test is i < stop (or >) where sema knows the step's sign; else range_continues, which
  // asks the sign at run time (and costs NVRTC and the host compiler more to optimise).
  std::string test = s.step_sign > 0   ? fmt::format("{} < pk_stop_{}", i, s.loop_id)
                     : s.step_sign < 0 ? fmt::format("{} > pk_stop_{}", i, s.loop_id)
                                       : fmt::format("pk::range_continues({0}, pk_stop_{1}, pk_step_{1})", i, s.loop_id);
  out_.line(fmt::format("for ({} = {}; {}; {} += pk_step_{}) {{ PK_LOOP_TICK();", i, expr(s.start), test, i, s.loop_id));
  out_.indent();
  loop_body(s);
  out_.dedent();
  out_.line("}");
  block(s.orelse);
  out_.dedent();
  out_.line("}");
  if (s.loop_has_else) out_.line(fmt::format("pk_break_{}:;", s.loop_id));
}

// A prange loop on the thread pool (sema/parallel_loops.h, runtime/pykern/parallel.cuh). The
// body runs in a lambda per part, whose declarations of the privates and the reductions'
// accumulators hide the function's own; pointers taken before it reach the function's
// variables for the hand-back of the last iteration's values. What the body only reads is
// copied into the lambda's own locals too: the compiler keeps those in registers, where it
// would reload a captured reference after every call it cannot see into. A list or a dict is
// the exception (bound by reference: copying it would count references from several threads).
void Emitter::parallel_for_range(const ir::Stmt& s) {
  const ir::ParallelLoop& plan = s.parallel;
  int id = s.loop_id;
  std::string counter_type = cxx_type(function_->locals[s.local].type);
  out_.line("{");
  out_.indent();
  out_.line(fmt::format("const {} pk_start_{} = {};", counter_type, id, expr(s.start)));
  out_.line(fmt::format("const {} pk_stop_{} = {};", counter_type, id, expr(s.stop)));
  out_.line(fmt::format("const {} pk_step_{} = {};", counter_type, id, expr(s.step)));
  out_.line(fmt::format("const pk::i64 pk_trip_{0} = pk::range_trip(pk_start_{0}, pk_stop_{0}, pk_step_{0});", id));
  out_.line(fmt::format("const pk::i32 pk_parts_{0} = pk::parts_of(pk_trip_{0});", id));
  for (size_t r = 0; r < plan.reductions.size(); ++r) {
    const ir::Reduction& reduction = plan.reductions[r];
    std::string type = cxx_type(function_->locals[reduction.local].type);
    std::string start = !reduction.starts_at_identity        ? local(reduction.local)
                        : reduction.combine == ir::Op::mul ? fmt::format("pk::multiplicative_identity<{}>()", type)
                                                           : type + "{}";
    out_.line(fmt::format("pk::partials<{}> pk_partial_{}_{}(pk_parts_{}, {});", type, id, r, id, start));
  }
  for (int p : plan.privates) out_.line(fmt::format("auto* pk_outer_{}_{} = &{};", id, p, local_name(p)));
  for (int r : plan.shared) out_.line(fmt::format("auto* pk_shared_{}_{} = &{};", id, r, local_name(r)));
  out_.line(fmt::format("pk::parallel_for(pk_parts_{}, pk_trip_{}, [&](pk::i32 pk_part, pk::i64 pk_begin, "
                        "pk::i64 pk_end) {{", id, id));
  out_.indent();
  if (has_loops(*function_)) out_.line("PK_LOOP_COUNTER();");
  for (int r : plan.shared)
    out_.line(fmt::format("{} {} = *pk_shared_{}_{};",
                          function_->locals[r].type.is(TypeKind::list) || function_->locals[r].type.is(TypeKind::dict)
                              ? "const auto&"
                              : "const auto",
                          local_name(r),
                          id, r));
  out_.line(fmt::format("const {0} pk_first_{1} = pk_start_{1}, pk_stride_{1} = pk_step_{1};", counter_type, id));
  for (int p : plan.privates) out_.line(declaration(p));
  for (size_t r = 0; r < plan.reductions.size(); ++r) {
    int l = plan.reductions[r].local;
    out_.line(fmt::format("{} {} = pk_partial_{}_{}[pk_part];", cxx_type(function_->locals[l].type), local_name(l), id, r));
  }
  line_directive(s.line);
  out_.line("for (pk::i64 pk_k = pk_begin; pk_k < pk_end; ++pk_k) { PK_LOOP_TICK();");
  out_.indent();
  out_.line(fmt::format("{} = static_cast<{}>(pk_first_{} + pk_k * pk_stride_{});", local(s.local), counter_type, id, id));
  loop_body(s);
  out_.dedent();
  out_.line("}");
  for (size_t r = 0; r < plan.reductions.size(); ++r)
    out_.line(fmt::format("pk_partial_{}_{}[pk_part] = {};", id, r, local_name(plan.reductions[r].local)));
  if (!plan.privates.empty()) {
    out_.line(fmt::format("if (pk_end == pk_trip_{} && pk_end > pk_begin) {{", id));
    out_.indent();
    for (int p : plan.privates) out_.line(fmt::format("*pk_outer_{}_{} = {};", id, p, local_name(p)));
    out_.dedent();
    out_.line("}");
  }
  out_.dedent();
  out_.line("});");
  // The parts' results, combined in part order (Numba's order: the value before the loop first).
  for (size_t r = 0; r < plan.reductions.size(); ++r) {
    const ir::Reduction& reduction = plan.reductions[r];
    std::string name = local(reduction.local), type = cxx_type(function_->locals[reduction.local].type);
    std::string part = fmt::format("pk_partial_{}_{}[pk_p]", id, r);
    std::string_view combine = ir::call_info(reduction.combine).spelling;
    std::string combined = ir::call_has(reduction.combine, ir::call_flag::operator_)
                               ? fmt::format("static_cast<{}>({} {} {})", type, name, combine, part)
                               : fmt::format("{}({}, {})", combine, name, part);
    out_.line(fmt::format("for (pk::i32 pk_p = 0; pk_p < pk_parts_{}; ++pk_p) {} = {};", id, name, combined));
  }
  out_.dedent();
  out_.line("}");
}

// An element as the place it is stored (an assignment's target), or any expression.
std::string Emitter::lvalue(ir::ExprId id) {
  const ir::Expr& e = (*function_)[id];
  if (e.kind != ir::ExprKind::element) return expr(id);
  if (e.args.size() == 1) return fmt::format("PK_AT0({})", expr(e.args[0]));  // z[()] of a 0-d array
  std::string indices;
  for (size_t i = 1; i < e.args.size(); ++i) indices += (i > 1 ? ", " : "") + expr(e.args[i]);
  if (e.known_non_negative || e.known_in_bounds)
    return fmt::format("PK_AT_KNOWN({}, {}u, {}u, {})", expr(e.args[0]), e.known_non_negative, e.known_in_bounds,
                       indices);
  return fmt::format("PK_AT({}, {})", expr(e.args[0]), indices);
}

std::string Emitter::expr(ir::ExprId id) {
  const ir::Expr& e = (*function_)[id];
  auto args = [&](size_t from) {
    std::string text;
    for (size_t i = from; i < e.args.size(); ++i) text += (i > from ? ", " : "") + expr(e.args[i]);
    return text;
  };
  switch (e.kind) {
    case ir::ExprKind::constant:
      // An array, tuple or list constant only names its type (a list's items': sema/lists.cpp).
      if (e.type.is(TypeKind::array) || e.type.is(TypeKind::tuple) || e.type.is(TypeKind::list))
        return cxx_type(e.type) + "{}";
      return constant_text(e.constant, e.type);
    case ir::ExprKind::local:
      return holds_nothing(function_->locals[e.local].type) ? "/* none */ 0" : local(e.local);
    case ir::ExprKind::cast: return fmt::format("static_cast<{}>({})", cxx_type(e.type), expr(e.args[0]));
    case ir::ExprKind::unary: return fmt::format("({}{})", ir::call_info(e.op).spelling, expr(e.args[0]));
    case ir::ExprKind::binary:
    case ir::ExprKind::logical:
      return fmt::format("({} {} {})", expr(e.args[0]), ir::call_info(e.op).spelling, expr(e.args[1]));
    case ir::ExprKind::call:
      if (id.index < branch_min_max_.size() && branch_min_max_[id.index])
        return fmt::format("{}({})", e.op == ir::Op::min ? "pk::min_branch" : "pk::max_branch", args(0));
      return fmt::format("{}({})", call_spelling(e, [this](const Type& t) { return cxx_type(t); }), args(0));
    case ir::ExprKind::device_call: {
      // A record argument is passed by reference, as Numba passes it.
      const ir::Function& callee = program_.functions[e.callee];
      std::string text;
      for (size_t i = 0; i < e.args.size(); ++i)
        text += fmt::format("{}{}{}", i ? ", " : "", (*function_)[e.args[i]].type.is(TypeKind::record) ? "&" : "",
                            expr(e.args[i]));
      return fmt::format("{}({})", device_symbol(callee), text);
    }
    case ir::ExprKind::element:
      // A bool element is read as its byte: NumPy and Numba take any non-zero byte for True,
      // where a C++ bool holding 2 is undefined behaviour. Stores write 0 or 1 (lvalue()).
      if (e.type.is(TypeKind::boolean)) return fmt::format("pk::stored_bool({})", lvalue(id));
      return lvalue(id);
    case ir::ExprKind::member: {
      // A record of the program's own (a struct emitted here) has mangled field names.
      const Type& base = (*function_)[e.args[0]].type;
      bool own_record = base.is(TypeKind::record) && base.record_name.empty();
      return fmt::format("{}.{}", expr(e.args[0]), own_record ? mangle_local(e.name) : e.name);
    }
    case ir::ExprKind::make_tuple: {
      // A braced list evaluates its items left to right, as Python does (a call's arguments
      // are unsequenced in C++): (random(), random()) draws in order.
      if (e.args.empty()) return "pk::make_tuple()";
      std::string items;
      for (size_t i = 0; i < e.args.size(); ++i) {
        const Type& item = (*function_)[e.args[i]].type;
        std::string text = item.is(TypeKind::none) ? "pk::none_t{}" : expr(e.args[i]);
        if (i < e.type.elements.size() && item != e.type.elements[i])
          text = fmt::format("static_cast<{}>({})", cxx_type(e.type.elements[i]), text);
        items += (i ? ", " : "") + text;
      }
      return fmt::format("({}{{{}}})", cxx_type(e.type), items);  // parenthesised: a macro argument
    }
    case ir::ExprKind::select:
      return fmt::format("({} ? {} : {})", expr(e.args[0]), expr(e.args[1]), expr(e.args[2]));
    case ir::ExprKind::array_map: {
      // A lazy node of runtime/pykern/array_expr.cuh: the body as a lambda of the operands'
      // elements (pk_e0, pk_e1, ...), which sema has already converted inside the body.
      std::string params;
      for (size_t k = 0; k < e.args.size(); ++k) {
        const Type& operand = (*function_)[e.args[k]].type;
        params += fmt::format("{}{} pk_e{}", k ? ", " : "", cxx_type(operand.is(TypeKind::array) ? operand.dtype() : operand), k);
      }
      std::string element = cxx_type(e.type.dtype());
      return fmt::format("pk::ex::map<{0}>([]({1}) -> {0} {{ return {2}; }}, {3})", element, params, expr(e.body), args(0));
    }
    case ir::ExprKind::map_element: return fmt::format("pk_e{}", e.op_arg);
    case ir::ExprKind::constant_array: {
      const ir::ConstantArray& array = program_.constant_arrays[e.callee];
      std::string extents;
      for (int64_t extent : array.shape) extents += fmt::format(", {}", extent);
      // Parenthesised: the template's comma must not split a macro argument (PK_AT).
      if (frozen_as_bytes(array.dtype))  // 8-byte words holding the elements' bytes, aligned
        return fmt::format("(pk::make_array<{0}, {1}>(reinterpret_cast<{0}*>(pk_const_{2}){3}))", cxx_type(array.dtype),
                           array.shape.size(), e.callee, extents);
      return fmt::format("(pk::make_array<{}, {}>(pk_const_{}{}))", cxx_type(array.dtype), array.shape.size(), e.callee,
                         extents);
    }
  }
  return "/* ? */";
}

}  // namespace

std::string emit_simulator_entries(const ir::Program& program) {
  Writer out;
  out.line("// Simulator entry points (host builds only).");
  std::string table;
  int count = 0;
  for (const ir::Function& f : program.functions) {
    if (!f.is_kernel) continue;
    out.line(fmt::format("static void pk_sim_entry_{}(void* const* args) {{", count));
    std::string call = kernel_symbol(f) + "(";
    for (size_t i = 0; i < f.parameters.size(); ++i)
      call += fmt::format("{}*static_cast<const {}*>(args[{}])", i ? ", " : "", cxx_type(f.locals[f.parameters[i]].type), i);
    out.indent();
    out.line(call + ");");
    out.dedent();
    out.line("}");
    table += fmt::format("  {{\"{}\", pk_sim_entry_{}, {}, {}ULL, {}}},\n", kernel_symbol(f), count,
                         f.uses_barriers ? "true" : "false", f.local_bytes, f.syncs_grid ? "true" : "false");
    ++count;
  }
  std::string text = out.take();
  const char* exported = "extern \"C\" __attribute__((visibility(\"default\")))";
  text += fmt::format("{} const pk::sim::KernelInfo pk_sim_kernels[] = {{\n{}{}}};\n", exported, table,
                      count == 0 ? "  {nullptr, nullptr, false, 0, false},\n" : "");
  text += fmt::format("{} const int pk_sim_kernel_count = {};\n", exported, count);
  // The engine (in the pykern library) hands over its hooks once the library is loaded.
  text += fmt::format("{} void pk_sim_set_hooks(const void* hooks) {{\n", exported);
  text += "  pk::sim::hooks = static_cast<const pk::sim::Hooks*>(hooks);\n}\n";
  return text;
}

EmittedSource emit_cuda(const ir::Program& program, const std::string& file_name) {
  Writer out;
  // The path is user text: it appears only as an escaped literal, never raw.
  out.line("// Generated by pykern from " + c_string_literal(file_name) + ". Do not edit.");
  for (const std::string& header : runtime_includes(program)) out.line("#include \"" + header + "\"");
  out.blank();
  // Module-level arrays the kernels read, frozen into constant memory.
  for (size_t i = 0; i < program.constant_arrays.size(); ++i) {
    const ir::ConstantArray& array = program.constant_arrays[i];
    if (frozen_as_bytes(array.dtype)) {
      // A record, complex or float16 array's bytes as NumPy lays them out, in little-endian
      // 8-byte words so that the storage is aligned for every field.
      std::string words;
      size_t count = (array.bytes.size() + 7) / 8;
      for (size_t w = 0; w < count; ++w) {
        uint64_t word = 0;
        for (size_t b = 0; b < 8 && w * 8 + b < array.bytes.size(); ++b) word |= uint64_t(array.bytes[w * 8 + b]) << (8 * b);
        words += fmt::format("{}{}ULL", w ? ", " : "", word);
      }
      out.line(fmt::format("PK_CONSTANT_ARRAY(pk::u64, pk_const_{}, {}) = {{{}}};  // {}", i, std::max<size_t>(count, 1),
                           words, mangle_local(array.global)));
      continue;
    }
    std::string values;
    for (size_t v = 0; v < array.values.size(); ++v)
      values += (v ? ", " : "") + constant_text(array.values[v], array.dtype);
    // An empty array still gets one element: C++ has no arrays of none. Its shape says 0.
    out.line(fmt::format("PK_CONSTANT_ARRAY({}, pk_const_{}, {}) = {{{}}};  // {}", cxx_type(array.dtype), i,
                         std::max<size_t>(array.values.size(), 1), values, mangle_local(array.global)));
  }
  if (!program.constant_arrays.empty()) out.blank();
  emit_record_structs(program, out);
  EmittedSource result;
  Emitter emitter(program, file_name, out);
  emitter.declare_recursive_functions();
  for (const ir::Function& function : program.functions) {
    emitter.function(function);
    if (function.is_kernel)
      result.kernels.push_back({function.python_name, kernel_symbol(function), signature_text(function)});
  }
  result.text = out.take();
  return result;
}

}  // namespace pykern::emit
