// A @guvectorize function called from a @jit function on the host, as Numba 0.68 types and
// lowers the call (numba/np/ufunc/gufunc.py GUFunc._type_me, numba/np/npyimpl.py
// numpy_gufunc_kernel):
//   - every operand is passed, the outputs after the inputs (`g(x, w, out)`); Numba allocates
//     no output in a @jit function, so a call without them is its "cannot call" TypingError;
//   - the call is None: the function writes its outputs;
//   - the loop is the first declared one every input converts to safely and whose outputs
//     convert to the given outputs within their kind (ufunc_find_matching_loop); without
//     signatures it is the operands' own element types (Numba compiles one for them);
//   - an array operand is passed to the core function as it is, so its dtype must be the
//     loop's (Numba fails to lower another); a number converts to the loop's type;
//   - the loop shape is the first output's leading dimensions (those before its core ones);
//     an input's leading dimensions must be the loop shape's ("Loop and array shapes are
//     incompatible"), operands of one core signature must agree on their core dimensions
//     ("Operand has a mismatch in one of its core dimensions"): ValueErrors at run time;
//   - each loop index passes the core function the operands indexed by it: a view of the core
//     dimensions, the element itself for an input with none, and for an output with none a
//     1-element 1-d view (Numba hands it a shape (1,) array).
// pykern checks the other outputs' leading dimensions as it checks the inputs' (Numba does not,
// and writes past them), and refuses an input with fewer leading dimensions than the loop but
// more than none (Numba checks it against the loop's first axes and reads it by its last).
#include <fmt/format.h>

#include "sema/array_exprs.h"
#include "sema/checker.h"
#include "sema/infer.h"

namespace pykern::sema {

namespace {

// "(m,n),(n)->(m)": each operand's core dimension names, and how many operands are inputs.
struct GufuncLayout {
  std::vector<std::vector<std::string>> operands;
  size_t inputs = 0;
};

std::optional<GufuncLayout> parse_gufunc_layout(const std::string& text) {
  std::string s;
  for (char c : text)
    if (c != ' ' && c != '\t') s += c;
  size_t arrow = s.find("->");
  if (arrow == std::string::npos) return std::nullopt;
  GufuncLayout layout;
  auto side = [&](const std::string& part) {
    size_t at = 0;
    while (at < part.size()) {
      if (part[at] == ',') ++at;
      if (at >= part.size() || part[at] != '(') return false;
      size_t close = part.find(')', at);
      if (close == std::string::npos) return false;
      std::vector<std::string> names;
      std::string inner = part.substr(at + 1, close - at - 1), name;
      for (char c : inner + ",") {
        if (c != ',') {
          name += c;
        } else if (!name.empty()) {
          names.push_back(name);
          name.clear();
        }
      }
      layout.operands.push_back(std::move(names));
      at = close + 1;
    }
    return true;
  };
  if (!side(s.substr(0, arrow))) return std::nullopt;
  layout.inputs = layout.operands.size();
  if (!side(s.substr(arrow + 2)) || layout.operands.size() == layout.inputs) return std::nullopt;
  return layout;
}

std::string layout_text(const std::string& text) {
  std::string s;
  for (char c : text)
    if (c != ' ') s += c;
  return s;
}

const Type& element_type(const Type& t) { return t.is(TypeKind::array) ? t.dtype() : t; }

}  // namespace

class GufuncCall {
 public:
  GufuncCall(FunctionChecker& c, std::string name, SourceRange range) : c_(c), name_(std::move(name)), range_(range) {}

  Value call(std::vector<Value> args, const std::vector<std::pair<std::string, Value>>& keywords);

 private:
  bool check_operands(const GufuncLayout& layout);
  std::optional<std::vector<Type>> loop_types(const GufuncLayout& layout);
  void check_shapes(const GufuncLayout& layout, size_t loop_ndim);
  void emit_loops(const GufuncLayout& layout, size_t loop_ndim, std::vector<Value>& indices);
  void call_core(const GufuncLayout& layout, const std::vector<Value>& indices);
  void raise_if(const Value& condition, const std::string& message);
  Value dim(const Value& array, int axis) {
    return c_.element_of_tuple(c_.attribute_of(array, "shape", range_), static_cast<size_t>(axis), range_);
  }
  Value constant(int64_t v) { return c_.make_constant({v}, Type::i64(), range_); }
  std::string shown() const {
    std::string text;
    for (const Value& v : operands_) text += (text.empty() ? "" : ", ") + to_string(v.type);
    return text;
  }

  FunctionChecker& c_;
  std::string name_;
  SourceRange range_;
  std::vector<Value> operands_;
  bool failed_ = false;  // a step reported an error
  bool shapes_incompatible_ = false;  // an input has more loop dimensions than the first output
};

Value GufuncCall::call(std::vector<Value> args, const std::vector<std::pair<std::string, Value>>& keywords) {
  frontend::ModuleFunction* target = c_.program_.function(name_);
  auto layout = parse_gufunc_layout(target->decoration.gufunc_layout);
  if (!layout) {
    c_.error(DiagKind::bad_argument, range_,
             fmt::format("the @guvectorize gufunc '{}' has a malformed layout '{}'", name_,
                         target->decoration.gufunc_layout),
             "write it as Numba does: '(n),()->(n)'");
    return Value::error();
  }
  size_t operands = layout->operands.size();
  if (!keywords.empty()) {
    c_.error(DiagKind::wrong_arity, range_,
             fmt::format("the @guvectorize gufunc '{}' got keyword arguments: Numba's gufuncs take none in @jit "
                         "functions",
                         name_),
             "pass the output arrays after the inputs, as in " + name_ + "(..., out)");
    return Value::error();
  }
  if (args.size() < operands) {
    c_.error(DiagKind::unsupported_operation, range_,
             "the @guvectorize gufunc '" + name_ +
                 "' is called from a @jit function without its outputs: Numba allocates none there (its "
                 "TypingError: cannot call '" + name_ + "' with these types)",
             "pass the output arrays after the inputs, as in " + name_ + "(..., out)");
    return Value::error();
  }
  if (args.size() > operands) {
    c_.error(DiagKind::wrong_arity, range_,
             fmt::format("the @guvectorize gufunc '{}' takes {} arguments ({} input{}, then {} output{}), {} given",
                         name_, operands, layout->inputs, layout->inputs == 1 ? "" : "s", operands - layout->inputs,
                         operands - layout->inputs == 1 ? "" : "s", args.size()));
    return Value::error();
  }
  if (!c_.allow_host_only(range_, "the @guvectorize gufunc '" + name_ + "'")) return Value::error();
  for (Value& v : args) {
    v = c_.unwrap_optional(c_.as_runtime(v, range_), range_);
    if (!v.ok() || !v.type.known()) return Value::error();
  }
  operands_ = std::move(args);
  if (!check_operands(*layout)) return Value::error();
  auto types = loop_types(*layout);
  if (!types) return Value::error();
  // Each operand evaluated once, a number converted to the loop's type.
  for (size_t i = 0; i < operands; ++i) {
    Value v = operands_[i].type.is(TypeKind::array) ? operands_[i] : c_.cast(operands_[i], (*types)[i], range_);
    operands_[i] = c_.store_in_temporary(v, range_);
  }
  const Value& first_output = operands_[layout->inputs];
  size_t loop_ndim = static_cast<size_t>(first_output.type.ndim) - layout->operands[layout->inputs].size();
  if (shapes_incompatible_) {
    raise_if(c_.make_constant({int64_t(1)}, Type::boolean(), range_), "Loop and array shapes are incompatible");
    return c_.make_constant({int64_t(0)}, Type::none(), range_);
  }
  check_shapes(*layout, loop_ndim);
  std::vector<Value> indices;
  emit_loops(*layout, loop_ndim, indices);
  if (failed_) return Value::error();
  return c_.make_constant({int64_t(0)}, Type::none(), range_);
}

bool GufuncCall::check_operands(const GufuncLayout& layout) {
  std::string signature = layout_text(c_.program_.function(name_)->decoration.gufunc_layout);
  for (size_t i = 0; i < operands_.size(); ++i) {
    const Type& t = operands_[i].type;
    bool input = i < layout.inputs;
    size_t position = input ? i : i - layout.inputs;
    int core = static_cast<int>(layout.operands[i].size());
    if (!t.is(TypeKind::array) && !(input && t.is_numeric())) {
      c_.error(DiagKind::type_mismatch, range_,
               fmt::format("cannot call the @guvectorize gufunc '{}' with types ({}): {} {} is {} '{}'", name_, shown(),
                           input ? "input" : "output", position, input ? "neither an array nor a number" : "not an array",
                           to_string(t)),
               input ? "" : "pass an array for each output, after the inputs");
      return false;
    }
    if (t.is(TypeKind::array) ? t.ndim < core : core > 0) {
      // Numba's words (GUFunc._type_me).
      c_.error(DiagKind::type_mismatch, range_,
               fmt::format("{}: {} operand {} does not have enough dimensions (has {}, gufunc core with signature {} "
                           "requires {})",
                           name_, input ? "Input" : "Output", position, t.is(TypeKind::array) ? t.ndim : 0, signature,
                           core));
      return false;
    }
    if (!input && t.readonly) {
      c_.error(DiagKind::bad_assignment, range_,
               fmt::format("the @guvectorize gufunc '{}' is given a read-only output {} (a module-level array, frozen "
                           "as in Numba)",
                           name_, position));
      return false;
    }
  }
  const Type& first_output = operands_[layout.inputs].type;
  if (first_output.ndim == 0) {
    c_.error(DiagKind::unsupported_operation, range_,
             fmt::format("the @guvectorize gufunc '{}' is given a 0-d output array: pykern does not take it yet", name_),
             "pass a 1-d array of one element");
    return false;
  }
  size_t loop_ndim = static_cast<size_t>(first_output.ndim) - layout.operands[layout.inputs].size();
  for (size_t i = 0; i < operands_.size(); ++i) {
    if (!operands_[i].type.is(TypeKind::array)) continue;
    size_t leading = static_cast<size_t>(operands_[i].type.ndim) - layout.operands[i].size();
    bool input = i < layout.inputs;
    if (input && leading > loop_ndim) {
      shapes_incompatible_ = true;  // Numba's guard_shape raises whatever the shapes
      continue;
    }
    if (input ? leading != 0 && leading != loop_ndim : leading != loop_ndim) {
      c_.error(DiagKind::type_mismatch, range_,
               fmt::format("the @guvectorize gufunc '{}': {} {} has {} loop dimension{} (before its {} core ones), the "
                           "first output has {}",
                           name_, input ? "input" : "output", input ? i : i - layout.inputs, leading,
                           leading == 1 ? "" : "s", layout.operands[i].size(), loop_ndim),
               input ? "give each input the output's loop dimensions, or none (then it is passed whole to each call)"
                     : "give every output the same loop dimensions");
      return false;
    }
  }
  return true;
}

std::optional<std::vector<Type>> GufuncCall::loop_types(const GufuncLayout& layout) {
  frontend::ModuleFunction* target = c_.program_.function(name_);
  std::vector<Type> given;
  for (const Value& v : operands_) given.push_back(element_type(v.type));
  if (target->decoration.signatures.empty()) return given;  // a dynamic gufunc: compiled for them
  std::vector<Type> inputs(given.begin(), given.begin() + static_cast<std::ptrdiff_t>(layout.inputs));
  std::optional<std::vector<Type>> chosen;
  for (ast::ExprId expr : target->decoration.signatures) {
    Diagnostics quiet;  // the module's load reported a malformed signature already
    auto signature = signature_from_decorator(c_.module(), expr, quiet);
    if (!signature || signature->arguments.size() != given.size()) continue;
    std::string in;
    for (size_t i = 0; i < layout.inputs; ++i) in += numpy_type_char(element_type(signature->arguments[i]));
    // Inputs convert safely; each output takes the loop's within its kind.
    bool fits = true;
    std::vector<Type> types;
    for (size_t k = layout.inputs; k < given.size() && fits; ++k) {
      std::string loop = in + "->" + numpy_type_char(element_type(signature->arguments[k]));
      auto found = find_ufunc_loop(loop, inputs, given[k]);
      fits = found.has_value();
      if (fits && types.empty()) types = found->inputs;
    }
    if (!fits) continue;
    for (size_t k = layout.inputs; k < given.size(); ++k) types.push_back(element_type(signature->arguments[k]));
    chosen = std::move(types);
    break;
  }
  if (!chosen) {
    c_.error(DiagKind::type_mismatch, range_,
             fmt::format("cannot call the @guvectorize gufunc '{}' with types ({})", name_, shown()),
             "no loop of its signatures takes these operands (Numba's TypingError); add a signature for them");
    return std::nullopt;
  }
  for (size_t i = 0; i < operands_.size(); ++i) {
    if (!operands_[i].type.is(TypeKind::array) || operands_[i].type.dtype() == (*chosen)[i]) continue;
    bool input = i < layout.inputs;
    c_.error(DiagKind::type_mismatch, range_,
             fmt::format("the @guvectorize gufunc '{}' runs its {} loop here, which takes a {} array as {} {}, not "
                         "{}: Numba cannot pass it (it fails to compile the call)",
                         name_, to_string((*chosen)[i]), to_string((*chosen)[i]), input ? "input" : "output",
                         input ? i : i - layout.inputs, to_string(operands_[i].type)),
             fmt::format("make the array {} (np.empty(shape, np.{})), or add a signature for its dtype",
                         to_string((*chosen)[i]), to_string((*chosen)[i])));
    return std::nullopt;
  }
  return chosen;
}

void GufuncCall::raise_if(const Value& condition, const std::string& message) {
  if (!condition.ok()) {
    failed_ = true;
    return;
  }
  ir::Stmt check;
  check.kind = ir::StmtKind::if_;
  check.range = range_;
  check.condition = condition.expr;
  ir::Stmt raise;
  raise.kind = ir::StmtKind::raise_;
  raise.range = range_;
  raise.exception = "ValueError";
  raise.message = message;
  std::vector<ir::StmtId>* saved = c_.current_block_;
  c_.current_block_ = &check.body;
  c_.emit_stmt(std::move(raise));
  c_.current_block_ = saved;
  c_.emit_stmt(std::move(check));
}

void GufuncCall::check_shapes(const GufuncLayout& layout, size_t loop_ndim) {
  const Value& first_output = operands_[layout.inputs];
  // Operands of one core signature agree on their core dimensions.
  for (size_t a = 0; a < operands_.size(); ++a)
    for (size_t b = a + 1; b < operands_.size(); ++b) {
      if (layout.operands[a] != layout.operands[b] || layout.operands[a].empty()) continue;
      if (!operands_[a].type.is(TypeKind::array) || !operands_[b].type.is(TypeKind::array)) continue;
      int core = static_cast<int>(layout.operands[a].size());
      for (int k = 0; k < core; ++k) {
        Value differ = c_.compare_elements(ast::CompareOp::ne, dim(operands_[a], operands_[a].type.ndim - core + k),
                                           dim(operands_[b], operands_[b].type.ndim - core + k), range_);
        raise_if(differ,
                 "Operand has a mismatch in one of its core dimensions. Please, check if all arguments to a "
                 "@guvectorize function have the same core dimensions.");
      }
    }
  // Every other array with loop dimensions has the first output's.
  for (size_t i = 0; i < operands_.size(); ++i) {
    if (i == layout.inputs || !operands_[i].type.is(TypeKind::array)) continue;
    size_t leading = static_cast<size_t>(operands_[i].type.ndim) - layout.operands[i].size();
    if (leading == 0) continue;
    for (size_t k = 0; k < loop_ndim; ++k) {
      Value differ = c_.compare_elements(ast::CompareOp::ne, dim(operands_[i], static_cast<int>(k)),
                                         dim(first_output, static_cast<int>(k)), range_);
      raise_if(differ, "Loop and array shapes are incompatible");
    }
  }
}

void GufuncCall::emit_loops(const GufuncLayout& layout, size_t loop_ndim, std::vector<Value>& indices) {
  if (indices.size() == loop_ndim) return call_core(layout, indices);
  ir::Stmt loop;
  loop.kind = ir::StmtKind::for_range;
  loop.range = range_;
  loop.loop_id = c_.next_loop_id_++;
  loop.step_sign = 1;
  loop.start = constant(0).expr;
  Value stop = dim(operands_[layout.inputs], static_cast<int>(indices.size()));
  if (!stop.ok()) {
    failed_ = true;
    return;
  }
  loop.stop = stop.expr;
  loop.step = constant(1).expr;
  loop.local = c_.new_temporary(Type::i64());
  std::vector<ir::StmtId>* saved = c_.current_block_;
  c_.current_block_ = &loop.body;
  indices.push_back(c_.read_local(loop.local, range_));
  emit_loops(layout, loop_ndim, indices);
  indices.pop_back();
  c_.current_block_ = saved;
  c_.emit_stmt(std::move(loop));
}

void GufuncCall::call_core(const GufuncLayout& layout, const std::vector<Value>& indices) {
  Signature signature;
  ir::Expr call;
  call.kind = ir::ExprKind::device_call;
  for (size_t i = 0; i < operands_.size(); ++i) {
    Value v = operands_[i];
    bool input = i < layout.inputs;
    size_t leading = v.type.is(TypeKind::array) ? static_cast<size_t>(v.type.ndim) - layout.operands[i].size() : 0;
    if (v.type.is(TypeKind::array) && (leading > 0 || (!input && layout.operands[i].empty()))) {
      std::vector<FunctionChecker::IndexItem> items;
      for (size_t k = 0; k < leading; ++k) {
        FunctionChecker::IndexItem item;
        item.value = indices[k];
        item.range = range_;
        items.push_back(item);
      }
      if (!input && layout.operands[i].empty()) {
        // An output element as a 1-element 1-d view: out[..., j:j + 1].
        FunctionChecker::IndexItem last = items.back();
        items.pop_back();
        FunctionChecker::IndexItem slice;
        slice.is_slice = true;
        slice.start = last.value.expr;
        Value stop = c_.binary(ast::BinaryOp::add, last.value, constant(1), range_);
        if (!stop.ok()) {
          failed_ = true;
          return;
        }
        slice.stop = stop.expr;
        slice.range = range_;
        items.push_back(slice);
      }
      v = c_.index_into(v, std::move(items), range_);
      if (!v.ok()) {
        failed_ = true;
        return;
      }
    }
    signature.arguments.push_back(v.type);
    call.args.push_back(v.expr);
  }
  if (!c_.resolve_device_call(name_, signature, call, range_)) {
    failed_ = true;
    return;
  }
  call.range = range_;
  ir::Stmt run;
  run.kind = ir::StmtKind::expr;
  run.range = range_;
  run.value = c_.value_of(c_.add(std::move(call))).expr;
  c_.emit_stmt(std::move(run));
}

Value FunctionChecker::call_user_gufunc(const std::string& name, std::vector<Value> args,
                                        std::vector<std::pair<std::string, Value>> keywords, const ast::Expr& e) {
  GufuncCall call(*this, name, e.range);
  return call.call(std::move(args), keywords);
}

}  // namespace pykern::sema
