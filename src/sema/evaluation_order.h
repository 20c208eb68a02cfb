// Python evaluates an expression's operands left to right; C++ leaves the operands of most
// operators and the arguments of a call unsequenced. Where that could show, in a statement
// that makes a call with effects (a device function, a random draw, an atomic, a list append)
// alongside another such call or a read of an array element, this pass evaluates those calls
// and element reads into temporaries first, one statement each, in Python's order. Statements
// where it cannot show are left as they are, so most emitted code reads as before.
#pragma once
#include "sema/ir.h"

namespace pykern::sema {

void sequence_effects(ir::Function& function);

}  // namespace pykern::sema
