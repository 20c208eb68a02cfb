// Numba's fastmath option: True, False, or a set (or a dict of name -> bool) of LLVM's fast-math
// flags (numba/core/cpu_options.py, FastMathOptions). Each flag only permits an optimisation,
// so a build may honour fewer than were asked for, never more: the host build maps them to the
// g++ options they justify (sim/simulator.cpp); numba-cuda treats any flag as fastmath=True.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pykern {

enum class FastMathFlag : uint8_t {
  fast = 1 << 0,  // all of them
  nnan = 1 << 1,
  ninf = 1 << 2,
  nsz = 1 << 3,
  arcp = 1 << 4,
  contract = 1 << 5,
  afn = 1 << 6,
  reassoc = 1 << 7,
};

struct FastMath {
  uint8_t bits = 0;

  static FastMath all() { return FastMath{uint8_t(FastMathFlag::fast)}; }  // fastmath=True
  bool any() const { return bits != 0; }
  // `fast` stands for every flag.
  bool has(FastMathFlag flag) const {
    return (bits & uint8_t(FastMathFlag::fast)) != 0 || (bits & uint8_t(flag)) != 0;
  }
  void add(FastMathFlag flag) { bits |= uint8_t(flag); }
  bool operator==(const FastMath& other) const { return bits == other.bits; }
  bool operator!=(const FastMath& other) const { return bits != other.bits; }

  // Numba's names: 'fast', 'nnan', 'ninf', 'nsz', 'arcp', 'contract', 'afn', 'reassoc'.
  static std::optional<FastMathFlag> flag_named(std::string_view name);
  static std::string valid_names();  // "'fast', 'nnan', ...", from the table of names, for messages
};

}  // namespace pykern
