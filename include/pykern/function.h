// @jit / @njit functions called from C++ without Python, compiled for the host CPU:
//
//   auto module = pykern::Module::load_file("hypot.py");
//   auto hypot = module->function("hypot");                 // typed per argument types, as Numba does
//   auto result = hypot->call(3.0, 4.0);                    // result->values[0] is the float64 5.0
//
// Arrays are passed by reference (the function may write them); what comes back is None (no
// values), one scalar, a tuple of scalars, or a list of numbers (a 1-d array). A call runs the
// function once, on the calling machine, through the same translator and host build as the CPU
// simulator.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pykern/module.h"

namespace pykern {

struct Returned {
  std::vector<Scalar> values;  // empty when the function returned None (or a list)
  std::optional<Array> list;   // a returned list, as a 1-d array of its items
  bool is_tuple = false;       // a tuple (values are its elements), else at most one value
  std::string type;            // Numba's name of the return type, e.g. "UniTuple(int64 x 2)"
  std::string warnings;        // rendered warnings of typing it, e.g. a prange loop that runs in order
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
