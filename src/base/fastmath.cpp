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

std::string FastMath::valid_names() {
  std::string names;
  for (const Named& named : flag_names) names += (names.empty() ? "'" : ", '") + std::string(named.name) + "'";
  return names;
}

}  // namespace pykern
