// syncstress-relacy: the two instantiations of Relacy's search (see registry.hpp).
#include "relacy/registry.hpp"

namespace syncstress::relacy_main {

void search_actors(const Search& s, json& out) { search<FamilyTest<kActorThreads>>(s, out); }

void search_pooled(const Search& s, json& out) {
  search<FamilyTest<kActorThreads + kPoolThreads>>(s, out);
}

}  // namespace syncstress::relacy_main
