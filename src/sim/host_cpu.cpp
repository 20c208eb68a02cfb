#include "sim/host_cpu.h"

#include <fmt/format.h>
#include <sys/utsname.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#else
#include <sys/auxv.h>
#endif

namespace pykern::sim {

namespace {

#if defined(__x86_64__) || defined(__i386__)
// CPUID leaf/subleaf as four words, or zeros where the processor has no such leaf.
std::string leaf(unsigned id, unsigned sub = 0) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(id, sub, &a, &b, &c, &d)) return "-";
  return fmt::format("{:x}.{:x}.{:x}.{:x}", a, b, c, d);
}

// XCR0: which register files (AVX, AVX-512) the OS saves; GCC's -march=native leaves out the
// instructions whose registers it does not.
std::string enabled_state() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return "no-xsave";
  unsigned low = 0, high = 0;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return fmt::format("{:x}.{:x}", high, low);
}

std::string identity() {
  unsigned top = 0, b = 0, c = 0, d = 0;
  __get_cpuid(0, &top, &b, &c, &d);
  char vendor[13] = {};
  __builtin_memcpy(vendor, &b, 4);
  __builtin_memcpy(vendor + 4, &d, 4);
  __builtin_memcpy(vendor + 8, &c, 4);
  // Leaf 1: family, model, stepping and the first feature words (its APIC id in b is the core
  // the call ran on, left out); leaf 7: AVX2, AVX-512 and later; 0x80000001: the extended ones.
  unsigned a1 = 0, b1 = 0, c1 = 0, d1 = 0;
  __get_cpuid(1, &a1, &b1, &c1, &d1);
  return fmt::format("x86 {} {:x} {:x}.{:x} {} {} {} xcr0 {}", vendor, a1, c1, d1, top >= 7 ? leaf(7, 0) : "-",
                     top >= 7 ? leaf(7, 1) : "-", leaf(0x80000001), enabled_state());
}
#else
std::string identity() {
  struct utsname name {};
  ::uname(&name);
  return fmt::format("{} hwcap {:x} {:x}", name.machine, getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
}
#endif

}  // namespace

const std::string& host_cpu_identity() {
  static const std::string text = identity();
  return text;
}

}  // namespace pykern::sim
