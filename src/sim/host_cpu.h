// What this machine's CPU can run, in words: the cache key of a library built for it
// (-march=native) holds them, so that a kernel cache shared between machines never hands one
// code built for another's instruction set.
#pragma once
#include <string>

namespace pykern::sim {

// The processor's vendor, family, model and the feature bits -march=native reads (CPUID on
// x86, with the register state the OS enables; the auxiliary vector's HWCAP words elsewhere).
// Computed once per process.
const std::string& host_cpu_identity();

}  // namespace pykern::sim
