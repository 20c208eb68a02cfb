#include "base/fastmath.h"

namespace pykern {

namespace {
struct Named {
  const char* name;
  FastMathFlag flag;
};
constexpr Named flag_names[] = {
    {"fast", FastMathFlag::fast}, {"nnan", FastMathFlag::nnan},         {"ninf", FastMathFlag::ninf},
    {"nsz", FastMathFlag::nsz},   {"arcp", FastMathFlag::arcp},         {"contract", FastMathFlag::contract},
    {"afn", FastMathFlag::afn},   {"reassoc", FastMathFlag::reassoc},
};
}  // namespace

std::optional<FastMathFlag> FastMath::flag_named(std::string_view name) {
  for (const Named& named : flag_names)
    if (name == named.name) return named.flag;
  return std::nullopt;
}

const char* FastMath::valid_names() {
  return "'fast', 'nnan', 'ninf', 'nsz', 'arcp', 'contract', 'afn', 'reassoc'";
}

}  // namespace pykern
