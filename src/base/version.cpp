#include "pykern/version.h"

namespace pykern {

const char* version() { return PYKERN_VERSION; }  // the project version (CMakeLists.txt)

}  // namespace pykern
