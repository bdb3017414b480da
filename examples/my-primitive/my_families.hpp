// The scenario families my-syncstress adds to syncstress's (CMakeLists.txt: syncstress_add_tool's
// FAMILIES_HEADER): one X(type) per family in SYNCSTRESS_EXTRA_FAMILIES, each type visible from
// namespace syncstress (scenarios/tool_family.hpp in the install says what it holds).
#pragma once

#include "my/timed_lock_family.hpp"

#define SYNCSTRESS_EXTRA_FAMILIES(X) X(my::timed_lock_family)
