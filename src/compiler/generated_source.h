// The Python source of the kernels pykern generates for @vectorize, @guvectorize and
// @cuda.reduce, as Numba generates its own: written in the kernel dialect, appended to the
// user's module and compiled by the same pipeline. The functions they define are marked
// frontend::Origin::host_call or ::generator, whatever their names; the names start with __pk_
// only to stay out of the user's way.
#pragma once
#include <string>

#include "compiler/translate.h"

namespace pykern::compiler {

// The Python source of `kernel` (named kernel_name(kernel)), to append to the user's file.
std::string generated_source(const GeneratedKernel& kernel);

}  // namespace pykern::compiler
