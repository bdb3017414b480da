#include "schedules/prefix_walk.hpp"

#include <algorithm>

namespace syncstress {

void PrefixWalk::step(ThreadId thread, std::span<const Access> accesses, bool chosen) {
  if (cut_ != Cut::contended_steps || counted_ >= length()) return;
  const std::uint64_t me = std::uint64_t{1} << std::min<ThreadId>(thread, 63);
  bool contended = false;
  for (const Access& a : accesses) {
    Touched& t = touched_[a.object];
    const std::uint64_t others = (a.write ? t.readers | t.writers : t.writers) & ~me;
    contended = contended || others != 0;
    (a.write ? t.writers : t.readers) |= me;
  }
  if (chosen && contended) ++counted_;
}

}  // namespace syncstress
