// Fibers for the sim runtime: pooled stacks and context switches on Boost.Context's fcontext.
//
// A switch also carries what the OS thread shares between all fibers but each fiber must own:
// libstdc++'s exception state (caught-exception chain, uncaught count, so a fiber switched out
// inside a catch block or during unwinding keeps its own) and, under ASan, the sanitizer's
// notion of the current stack (__sanitizer_start/finish_switch_fiber).
#pragma once

#include <boost/context/detail/fcontext.hpp>
#include <cstddef>
#include <vector>

namespace syncstress::sim::detail {

namespace ctx = boost::context::detail;

/// One fiber stack: usable bytes [bottom, bottom + size), a PROT_NONE guard page below.
struct Stack {
  void* bottom = nullptr;
  std::size_t size = 0;
};

/// Stacks reused across executions: executions run millions of times, mmap each time would
/// dominate.
class StackPool {
 public:
  explicit StackPool(std::size_t size) : size_(size) {}
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  /// A stack ready for a new fiber (unpoisoned for ASan when reused).
  Stack acquire();
  void release(Stack stack);

 private:
  std::size_t size_;
  std::vector<Stack> free_;
  std::vector<Stack> all_;
};

/// What a switch saves and restores for one fiber (or the host: the OS stack run() is on).
struct Context {
  ctx::fcontext_t fctx = nullptr;
  void* caught_exceptions = nullptr;
  unsigned uncaught_exceptions = 0;
  const void* asan_bottom = nullptr;
  std::size_t asan_size = 0;
  /// Set before the last switch away from a finished fiber (ASan frees its fake stack).
  bool exiting = false;
};

/// Starts `self` on `stack`; the first switch_context to it calls entry(transfer), whose
/// first act must be fiber_started(transfer, self).
void make_fiber(Context& self, const Stack& stack, void (*entry)(ctx::transfer_t));
/// Called first in a fiber's entry function.
void fiber_started(ctx::transfer_t transfer, Context& self);
/// Switches from the running context `from` to `to`; returns once someone switches back.
void switch_context(Context& from, Context& to);

}  // namespace syncstress::sim::detail
