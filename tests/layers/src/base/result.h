// A fixture for the layer check: a header of the lowest layer, which every layer may include.
#pragma once
