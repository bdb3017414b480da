// Every primitive header, so that one include makes every template of SYNCSTRESS_PRIMITIVES
// (primitives/catalog.hpp) visible. The list is generated at configure time from
// primitives/*.hpp (CMakeLists.txt), so a new primitive needs no line here.
#pragma once

#include "syncstress/primitive_headers.hpp"
