// Must not compile: saxpy was bundled for float32 arrays, and these are int32.
#include <vector>

#include "kernels_bundle.h"

int main() {
  std::vector<int> x(4), y(4), out(4);
  return kernels::saxpy(pykern::Launch::forall(4), 2.0f, x, y, out).ok() ? 0 : 1;
}
