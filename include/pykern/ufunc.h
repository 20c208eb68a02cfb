// Numba's generated functions, run from C++:
//   @vectorize   → Ufunc: elementwise over NumPy-broadcast arguments, a new array or out=
//   @guvectorize → Ufunc: core dimensions from the layout string, loop dimensions broadcast
//   @cuda.reduce → Reduction: a binary function folded over a 1-d array
//
//   auto add = module->ufunc("add_ufunc");
//   auto sum = add->call({a, b});                           // Result<Array>
//   auto rows = add->reduce(matrix, 1);                     // NumPy's add.reduce(matrix, axis=1)
//   auto total = module->reduction("sum_reduce")->reduce(values);   // Result<Scalar>
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "pykern/module.h"

namespace pykern {

class Ufunc {
 public:
  const std::string& name() const { return name_; }
  // Inputs (arrays or scalars, NumPy-broadcast), then for a gufunc optionally its outputs.
  // With `out`, the result is written there and returned (a gufunc's one output).
  Result<Array> call(const std::vector<Argument>& args, std::optional<Array> out = std::nullopt,
                     Backend backend = Backend::automatic) const;
  // A gufunc with several outputs returns them all.
  Result<std::vector<Array>> call_all(const std::vector<Argument>& args, Backend backend = Backend::automatic) const;

  // NumPy's methods of a CPU @vectorize ufunc of two inputs (api/ufunc_methods.cpp), with the
  // loops it has (its signatures, or those a DUFunc compiled so far: a method compiles none,
  // as Numba's DUFunc.reduce called from Python does not). reduce folds `values` along `axis`
  // (nullopt: every axis, as axis=None, for a reorderable ufunc) from `initial`, else the
  // ufunc's identity, else the first slice; a 0-d array holds a number. accumulate keeps each
  // step along `axis`.
  Result<Array> reduce(const Array& values, std::optional<int> axis = 0, std::optional<Scalar> initial = std::nullopt,
                       Backend backend = Backend::automatic) const;
  Result<Array> accumulate(const Array& values, int axis = 0, Backend backend = Backend::automatic) const;

 private:
  friend class Module;
  Ufunc(std::shared_ptr<detail::ModuleState> module, std::string name) : module_(std::move(module)), name_(std::move(name)) {}
  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
};

class Reduction {
 public:
  const std::string& name() const { return name_; }
  // Folds `values` (1-d); `init` (converted to the array's dtype, 0 by default) is combined
  // with the result as Numba does, and returned for an empty array. With `res`, the result is
  // also written to res[0].
  Result<Scalar> reduce(const Array& values, std::optional<Scalar> init = std::nullopt,
                        std::optional<Array> res = std::nullopt, Backend backend = Backend::automatic) const;

 private:
  friend class Module;
  Reduction(std::shared_ptr<detail::ModuleState> module, std::string name) : module_(std::move(module)), name_(std::move(name)) {}
  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
};

}  // namespace pykern
