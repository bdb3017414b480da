// syncstress-relacy: the two instantiations of Relacy's search (see registry.hpp).
#include "backends/relacy/child/registry.hpp"

namespace syncstress::relacy_main {

CellResult search_actors(const Search& s) { return search<FamilyTest<kActorThreads>>(s); }

CellResult search_pooled(const Search& s) {
  return search<FamilyTest<kActorThreads + kPoolThreads>>(s);
}

}  // namespace syncstress::relacy_main

// tree_guard.hpp: Relacy's tree searches follow a replayed path only where it fits.
namespace {
using syncstress::relacy_main::end_search_tree_iteration;
using syncstress::relacy_main::follow_search_tree;
using syncstress::relacy_main::kActorTestThreads;
using syncstress::relacy_main::kPooledTestThreads;
}  // namespace

template <>
unsigned syncstress::relacy_main::FullSearchTree<kActorTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind) {
  return follow_search_tree(stree_, stree_depth_, limit, kind);
}
template <>
unsigned syncstress::relacy_main::FullSearchTree<kPooledTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind) {
  return follow_search_tree(stree_, stree_depth_, limit, kind);
}
template <>
unsigned syncstress::relacy_main::BoundSearchTree<kActorTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind) {
  return follow_search_tree(stree_, stree_depth_, limit, kind);
}
template <>
unsigned syncstress::relacy_main::BoundSearchTree<kPooledTestThreads>::rand_impl(
    unsigned limit, rl::sched_type kind) {
  return follow_search_tree(stree_, stree_depth_, limit, kind);
}
template <>
bool syncstress::relacy_main::FullSearchTree<kActorTestThreads>::iteration_end_impl() {
  return end_search_tree_iteration(stree_, stree_depth_);
}
template <>
bool syncstress::relacy_main::FullSearchTree<kPooledTestThreads>::iteration_end_impl() {
  return end_search_tree_iteration(stree_, stree_depth_);
}
template <>
bool syncstress::relacy_main::BoundSearchTree<kActorTestThreads>::iteration_end_impl() {
  return end_search_tree_iteration(stree_, stree_depth_);
}
template <>
bool syncstress::relacy_main::BoundSearchTree<kPooledTestThreads>::iteration_end_impl() {
  return end_search_tree_iteration(stree_, stree_depth_);
}
