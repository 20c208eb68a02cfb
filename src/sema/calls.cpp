#include "sema/calls.h"

#include <array>

namespace pykern::ir {

namespace {
using namespace call_flag;

constexpr CallInfo rows[] = {
    {"none", "", 0},
#define PK_CALL(id, spelling, flags) {#id, spelling, flags},
#define PK_FOLDABLE(id, function, flags) {#id, #function, (flags) | foldable},
#include "sema/calls.def"
#undef PK_FOLDABLE
#undef PK_CALL
};
}  // namespace

const CallInfo& call_info(Op op) { return rows[static_cast<size_t>(op)]; }

}  // namespace pykern::ir
