// @jit / @njit functions called from C++ without Python, compiled for the host CPU:
//
//   auto module = pykern::Module::load_file("hypot.py");
//   auto hypot = module->function("hypot");                 // typed per argument types, as Numba does
//   auto result = hypot->call(3.0, 4.0);                    // result->values[0] is the float64 5.0
//
// Arrays are passed by reference (the function may write them). What comes back is None (no
// values), one scalar or array, a tuple of scalars and arrays, or a list of numbers (a 1-d
// array). A returned array owns its memory as NumPy's does (it outlives the Module), or, when
// the function returned a view of an argument, shares that argument's memory:
//
//   auto made = module->function("make_grid")->call(int64_t(4));   // return np.zeros((n, n)), n
//   pykern::Array grid = made->arrays[0];                          // float64, shape (4, 4)
//   int64_t n = made->values[0].integer;
//
// Any other value crosses as a pykern::Value (pykern/value.h): a str, a list, a typed dict, a
// tuple of them, an Optional that may be None. Arguments convert from C++ values (std::string,
// std::vector, std::map, std::tuple, ...: value.h lists them); value() is what came back:
//
//   auto counted = module->function("word_counts")->call(std::vector<std::string>{"a", "b", "a"});
//   pykern::Value counts = counted->value();          // {'a': 2, 'b': 1}, a DictType[unicode_type,int64]
//   int64_t a = counts.find("a")->scalar().integer;
//
// A list or dict is shared with the function when the caller passes it as a non-const
// pykern::Value lvalue (or in a non-const std::vector<Value>), as a Python list or typed Dict
// passed to an @njit function is the caller's own object: after a call that succeeded, the
// Value holds what the function left in it (items appended, set, removed; lists and dicts in it
// changed), its arrays still views of the caller's where the function kept them:
//
//   pykern::Value events = pykern::Value::list({}, "int64");
//   module->function("detect")->call(signal, 0.5, events);   // appends to events
//   module->function("detect")->call(more, 0.5, events);     // and again: events holds both
//
// Any other argument is the function's own copy (a const Value, a temporary, a std::vector or
// std::map converted to a list or dict; arrays in it are views of the caller's arrays, which it
// may write): what the function changes in that container does not come back. A str or tuple
// cannot change. A call that fails leaves shared Values as they were (Numba's keep what the
// function did before it raised).
// An argument that does not fit the parameter's type, and a value no host call can return (a
// record), are errors (invalid_argument), as are None and empty containers without types.
//
// A call runs the function once, on the calling machine, through the same translator and host
// build as the CPU simulator.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "pykern/module.h"
#include "pykern/value.h"

namespace pykern {

struct Returned {
  std::vector<Scalar> values;  // the scalars, in order: empty when the function returned None (or a list)
  std::vector<Array> arrays;   // the arrays, in order
  std::optional<Array> list;   // a returned list, as a 1-d array of its items
  bool is_tuple = false;       // a tuple (values and arrays are its elements), else at most one value
  // Which items (the one value, or a tuple's elements in order) are arrays: item k is the next of
  // `arrays` where array_items[k], else the next of `values`. Empty when no item is an array.
  std::vector<bool> array_items;
  std::string type;            // Numba's name of the return type, e.g. "UniTuple(int64 x 2)"
  std::string warnings;        // rendered warnings of typing it, e.g. a prange loop that runs in order
  // What a function returned that the fields above do not hold: a str, a list of other than
  // numbers, a dict, a tuple holding one of them, an Optional of other than a scalar (values
  // and arrays are empty then). value() reads it.
  std::optional<Value> other;

  // Whatever the function returned, as one Value: None, a scalar, an array, a tuple of them,
  // a list (of Scalars for a list of numbers), a str, a dict, ...
  Value value() const;

  // The items in order: 0 for None, 1 for one value, a tuple's length (a list is not counted).
  size_t size() const { return values.size() + arrays.size(); }
  // Item k, a scalar or an array (k < size()).
  std::variant<Scalar, Array> item(size_t k) const;
};

class Function {
 public:
  const std::string& name() const { return name_; }
  const std::vector<std::string>& parameter_names() const { return parameters_; }
  Result<Returned> call(const std::vector<Argument>& args) const;
  // Copies of the lists and dicts in `args`: the function's changes to them do not come back.
  Result<Returned> call(const std::vector<Value>& args) const;
  // The lists and dicts in `args` are shared: they hold what the function left in them.
  Result<Returned> call(std::vector<Value>& args) const;
  // Arguments as pykern/value.h converts them: arrays, numbers, strings, vectors, maps, tuples.
  // A non-const pykern::Value lvalue among them is shared (see above); others are copies.
  template <class... A, if_values<A...> = 0> Result<Returned> call(A&&... args) const {
    return call_sharing(std::vector<Value>{to_value(std::forward<A>(args))...}, {shared_value<A>(args)...});
  }

 private:
  friend class Module;
  template <class A, class B> static Value* shared_value(B& argument) {
    if constexpr (std::is_same_v<A, Value&>) return &argument;
    else return nullptr;
  }
  Result<Returned> call_sharing(std::vector<Value> values, std::vector<Value*> shared) const;
  Function(std::shared_ptr<detail::ModuleState> module, std::string name, std::vector<std::string> parameters)
      : module_(std::move(module)), name_(std::move(name)), parameters_(std::move(parameters)) {}
  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
  std::vector<std::string> parameters_;
};

}  // namespace pykern
