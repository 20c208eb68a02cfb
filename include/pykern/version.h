// Which pykern this is: "0.4.0" (the project version in CMakeLists.txt).
#pragma once

namespace pykern {

const char* version();

}  // namespace pykern
