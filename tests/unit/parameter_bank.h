// The launcher's argument layout checked against a cubin's own parameter table: for each
// kernel, every parameter where the CUDA ABI puts it (abi::parameter_bank_layout, ordinal,
// offset and size as EIATTR_KPARAM_INFO says, the bank's size as EIATTR_PARAM_CBANK says), and
// a launcher buffer for it (layout_arguments) that holds those bytes at that alignment, since
// cuLaunchKernel copies `size` bytes from each pointer. A fake driver cannot see a mismatch.
#pragma once
#include <doctest/doctest.h>

#include "abi/arguments.h"
#include "pykern/compiler.h"

namespace test {

inline void check_parameter_banks(const pykern::CompileOutput& output) {
  auto functions = pykern::kernel_resources(output.binary);
  REQUIRE_MESSAGE(functions.ok(), functions.error().describe());
  for (const pykern::CompiledKernel& kernel : output.kernels) {
    CAPTURE(kernel.symbol);
    CAPTURE(kernel.signature);
    auto cubin = std::find_if(functions->begin(), functions->end(),
                              [&](const pykern::KernelResources& f) { return f.symbol == kernel.symbol; });
    REQUIRE(cubin != functions->end());
    CHECK(cubin->is_kernel);
    auto places = pykern::detail::parameter_bank_layout(kernel);
    REQUIRE(cubin->parameters.size() == places.size());
    pykern::detail::PackedArguments packed;
    pykern::detail::layout_arguments(kernel, packed);
    for (size_t i = 0; i < places.size(); ++i) {
      CAPTURE(i);
      CHECK(cubin->parameters[i].ordinal == static_cast<int>(i));
      CHECK(cubin->parameters[i].offset == static_cast<int64_t>(places[i].offset));
      CHECK(cubin->parameters[i].size == static_cast<int64_t>(places[i].size));
      size_t end = i + 1 < packed.offsets.size() ? packed.offsets[i + 1] : packed.bytes.size();
      CHECK(end - packed.offsets[i] >= static_cast<size_t>(cubin->parameters[i].size));
      CHECK(packed.offsets[i] % places[i].alignment == 0);
    }
    CHECK(cubin->parameter_bank_bytes == static_cast<int64_t>(pykern::detail::parameter_bank_bytes(kernel)));
  }
}

}  // namespace test
