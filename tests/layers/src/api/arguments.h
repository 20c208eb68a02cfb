// A fixture for the layer check: a header of the API layer.
#pragma once
