// Fibers for the sim runtime: pooled stacks and context switches on Boost.Context's fcontext.
//
// A switch also carries what the OS thread shares between all fibers but each fiber must own:
// libstdc++'s exception state (caught-exception chain, uncaught count, so a fiber switched out
// inside a catch block or during unwinding keeps its own) and, under ASan, the sanitizer's
// notion of the current stack (__sanitizer_start/finish_switch_fiber).
//
// Fibers are made by Boost.Context's make_fcontext. On x86-64 they are switched by
// syncstress_sim_jump (fiber.cpp), which keeps jump_fcontext's frame layout and calling
// convention, so it starts what make_fcontext made and resumes what it suspended itself (not
// what jump_fcontext did, nor the other way round: see below). It differs from jump_fcontext
// in the two ways that decide what a switch costs, the largest part of a sim step:
//  - it returns into the resumed fiber with `ret`, where jump_fcontext jumps (`jmp *%r8`)
//    and leaves the call's entry on the CPU's return stack: every return the resumed fiber
//    then makes was predicted one frame off, and mispredicted. With `ret` the first return
//    lands where the return stack says (a step's switch always has the same call site, in
//    Engine::schedule), and the ones after it wherever the two fibers' call chains agree;
//  - it neither saves nor restores the x87 control word and MXCSR (ldmxcsr and fldcw are
//    slow): fibers share the OS thread's floating-point environment, so a primitive that
//    changes the rounding mode changes it for every simulated thread.
// Elsewhere, and under ASan, switches go through jump_fcontext.
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
/// libstdc++'s per-thread exception state, as __cxa_eh_globals lays it out (unwind-cxx.h) on
/// non-ARM targets.
struct EhGlobals {
  void* caught_exceptions;
  unsigned int uncaught_exceptions;
};

/// This OS thread's EhGlobals, asked of libstdc++ (__cxa_get_globals) once per thread: that
/// call goes through __tls_get_addr, as costly as the rest of a switch.
EhGlobals* ask_eh_globals() noexcept;
inline constinit thread_local EhGlobals* t_eh_globals = nullptr;
inline EhGlobals* eh_globals() noexcept {
  EhGlobals* g = t_eh_globals;
  if (g == nullptr) [[unlikely]] {
    g = ask_eh_globals();
  }
  return g;
}

}  // namespace syncstress::sim::detail

#if defined(__x86_64__) && !defined(SYNCSTRESS_ASAN)
#define SYNCSTRESS_SIM_JUMP 1
/// jump_fcontext's contract (switch to `to`, passing `data`; returns what the switch back
/// passed), returning into the resumed fiber with `ret` (see the file comment).
extern "C" boost::context::detail::transfer_t syncstress_sim_jump(
    boost::context::detail::fcontext_t to, void* data);
#endif

namespace syncstress::sim::detail {

/// Saves the running fiber's exception state into `from` and installs `to`'s: the first half of
/// a switch.
inline void swap_exception_state(Context& from, const Context& to) {
  EhGlobals* g = eh_globals();
  from.caught_exceptions = g->caught_exceptions;
  from.uncaught_exceptions = g->uncaught_exceptions;
  g->caught_exceptions = to.caught_exceptions;
  g->uncaught_exceptions = to.uncaught_exceptions;
}

#ifdef SYNCSTRESS_SIM_JUMP
/// Switches from the running context `from` to `to`; returns once someone switches back.
/// Inline: a step's switch is one call (to syncstress_sim_jump) from where the engine decided.
inline void switch_context(Context& from, Context& to) {
  swap_exception_state(from, to);
  // The switcher saved its own state into `previous` and installed ours before jumping.
  ctx::transfer_t t = syncstress_sim_jump(to.fctx, &from);
  static_cast<Context*>(t.data)->fctx = t.fctx;
}
#else
/// Switches from the running context `from` to `to`; returns once someone switches back.
void switch_context(Context& from, Context& to);
#endif

}  // namespace syncstress::sim::detail
