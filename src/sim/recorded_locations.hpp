// Source locations the trace gives to operations the runtime performs itself, where no user
// line exists: a pool worker waiting for work, and a Sim::thread joined by its destructor.
// Traces print them, so they are pinned to the text they have printed since those operations
// lived in src/sim/engine.cpp: moving the runtime's code between files changes no trace.
#pragma once

#include <source_location>

namespace syncstress::sim::detail {

// #line renames the lines below it in this header only; the includer's locations are its own.
#line 740 "src/sim/engine.cpp"
inline constexpr std::source_location kPoolWaitLocation = std::source_location::current();
#line 1052 "src/sim/engine.cpp"
inline constexpr std::source_location kJoinInDestructorLocation = std::source_location::current();

}  // namespace syncstress::sim::detail
