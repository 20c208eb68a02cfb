// A fixture for the layer check (cmake/check_layers.cmake): the launcher reaching up into the
// API, which the build must refuse.
#pragma once
#include "api/arguments.h"
#include "base/result.h"
#include "pykern/launch.h"
#include "pykern/module.h"
