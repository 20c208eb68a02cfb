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
// A call runs the function once, on the calling machine, through the same translator and host
// build as the CPU simulator.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "pykern/module.h"

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
  template <class... A, if_arguments<A...> = 0> Result<Returned> call(A&&... args) const {
    return call(std::vector<Argument>{to_argument(std::forward<A>(args))...});
  }

 private:
  friend class Module;
  Function(std::shared_ptr<detail::ModuleState> module, std::string name, std::vector<std::string> parameters)
      : module_(std::move(module)), name_(std::move(name)), parameters_(std::move(parameters)) {}
  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
  std::vector<std::string> parameters_;
};

}  // namespace pykern
