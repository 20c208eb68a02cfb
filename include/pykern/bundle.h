// Ahead-of-time kernel bundles. `pykern bundle kernels.py --sig ... -o kernels_bundle.h` (or
// pykern_add_kernels in CMake) writes a C++ header holding the kernels compiled for each listed
// GPU architecture (cubins, plus PTX for newer GPUs) and, unless left out, the CPU simulator's
// build of them, with one typed launch function per kernel and signature:
//
//   #include "kernels_bundle.h"
//   std::vector<float> a(n), b(n), out(n);
//   pykern::Status done = kernels::add(pykern::Launch::forall(n), a, b, out);
//
// A program built with it needs neither NVRTC nor the .py file at run time. The header fills a
// bundle::Data; Module::load_bundle checks it and gives a Module whose kernels launch only with
// the signatures the bundle was made for.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "pykern/array.h"
#include "pykern/module.h"
#include "pykern/view.h"  // the typed launch functions take Views
#include "pykern/version.h"  // a bundle is loaded by the pykern version that wrote it

namespace pykern {

// What a bundle header holds. Only `pykern bundle` writes these; a program reads them through
// Module::load_bundle, which checks every field.
namespace bundle {

// Raised when the layout below changes: a header made by another layout is refused at load.
constexpr int format_version = 3;

struct Parameter {
  const char* name;
  bool is_array;
  const char* dtype;  // NumPy's descr: "<f4", or a record's list form
  int ndim;           // arrays: 1..32
  char layout;        // arrays: 'C', 'F' or 'A'
};

struct Kernel {
  const char* function;   // the Python name
  const char* symbol;     // the extern "C" name in the images and the host library
  const char* signature;  // Numba's, for messages: "(array(float32, 1d, C), int64)"
  const Parameter* parameters;
  int parameter_count;
  bool debug;        // built with debug=True
  bool cooperative;  // syncs the grid: launched cooperatively
  bool prints;       // calls print(): its GPU context gets a larger printf buffer
};

struct Image {
  const char* arch;  // "sm_90" (a cubin) or "compute_90" (PTX, compiled by the driver)
  const char* data;
  size_t size;
  uint64_t checksum;  // checksum(data, size), checked before the image is loaded
};

struct Data {
  int format;                  // format_version of the pykern that wrote it
  const char* pykern_version;  // the pykern that wrote it; must be this one
  const char* source_name;     // the kernel file it was made from, for messages
  const Kernel* kernels;
  int kernel_count;
  const Image* images;  // every kernel is in every image
  int image_count;
  const char* host_library;  // the simulator's build (a shared library), or null
  size_t host_library_size;
  uint64_t host_library_checksum;  // checksum(host_library, host_library_size), checked before dlopen
  const char* host_target;  // the machine it was built for, e.g. "x86_64-linux"
};

// The machine this pykern was built for, in Data::host_target's terms.
const char* host_target();

// The checksum of a bundle's image or host library (XXH3, 64 bits): a header cut short or
// edited is refused by Module::load_bundle before any of its code is loaded.
uint64_t checksum(const char* bytes, size_t size);

// What a typed launch function of a bundle header does: launches `kernel` of the bundle's
// module, or gives back the error that loading the bundle met.
inline Status launch(const Result<Module>& module, const char* kernel, const Launch& config,
                     const std::vector<Argument>& args) {
  if (!module.ok()) return module.error();
  auto found = module->kernel(kernel);
  if (!found.ok()) return found.error();
  return found->launch(config, args);
}

}  // namespace bundle

}  // namespace pykern
