#include "sim/fiber.hpp"

#include <cxxabi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#ifdef SYNCSTRESS_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace syncstress::sim::detail {

namespace {

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

EhGlobals* ask_eh_globals() noexcept {
  t_eh_globals = reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals());
  return t_eh_globals;
}

StackPool::~StackPool() {
  for (const Stack& s : all_) {
#ifdef SYNCSTRESS_ASAN
    // As in acquire(): the frames of a fiber that was abandoned, or that ended by switching
    // away, never returned, so their redzones are still poisoned. ASan keeps that poison past
    // munmap, and the next stack mapped at this address (another runtime's) would inherit it:
    // its frames' locals would read as redzones.
    __asan_unpoison_memory_region(s.bottom, s.size);
#endif
    munmap(static_cast<char*>(s.bottom) - page_size(), s.size + page_size());
  }
}

Stack StackPool::acquire() {
  if (!free_.empty()) {
    Stack s = free_.back();
    free_.pop_back();
#ifdef SYNCSTRESS_ASAN
    // A fiber that ended by switching away (or was abandoned) never returned from its
    // frames, so their redzones are still poisoned.
    __asan_unpoison_memory_region(s.bottom, s.size);
#endif
    return s;
  }
  const std::size_t guard = page_size();
  void* p = mmap(nullptr, size_ + guard, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    std::fputs("syncstress: sim: cannot map a fiber stack\n", stderr);
    std::abort();
  }
  mprotect(p, guard, PROT_NONE);  // overflow faults instead of corrupting a neighbour
  Stack s{static_cast<char*>(p) + guard, size_};
  all_.push_back(s);
  return s;
}

void StackPool::release(Stack stack) { free_.push_back(stack); }

void make_fiber(Context& self, const Stack& stack, void (*entry)(ctx::transfer_t)) {
  self.fctx = ctx::make_fcontext(static_cast<char*>(stack.bottom) + stack.size, stack.size, entry);
  self.caught_exceptions = nullptr;
  self.uncaught_exceptions = 0;
  self.asan_bottom = stack.bottom;
  self.asan_size = stack.size;
  self.exiting = false;
}

void fiber_started(ctx::transfer_t transfer, Context& self) {
  auto* from = static_cast<Context*>(transfer.data);
#ifdef SYNCSTRESS_ASAN
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(nullptr, &bottom, &size);
  from->asan_bottom = bottom;
  from->asan_size = size;
#endif
  from->fctx = transfer.fctx;
  EhGlobals* g = eh_globals();
  g->caught_exceptions = self.caught_exceptions;
  g->uncaught_exceptions = self.uncaught_exceptions;
}

#ifdef SYNCSTRESS_SIM_JUMP

// syncstress_sim_jump(to, data): jump_fcontext's frame, with the return address the call pushed
// at 0x38 and the six callee-saved registers below it. 0x00 holds the floating-point control
// words in a frame jump_fcontext or make_fcontext wrote; this switch neither writes nor reads
// it, which is why jump_fcontext must not resume a fiber this switch suspended. Returns
// transfer_t{the suspended fiber's fcontext, data} in rax:rdx, and passes the same in rdi:rsi
// to a fiber's entry on its first switch (make_fcontext's trampoline takes them from there).
asm(R"(
    .text
    .p2align 4
    .globl syncstress_sim_jump
    .hidden syncstress_sim_jump
    .type syncstress_sim_jump, @function
syncstress_sim_jump:
    leaq -0x38(%rsp), %rsp
    movq %r12, 0x08(%rsp)
    movq %r13, 0x10(%rsp)
    movq %r14, 0x18(%rsp)
    movq %r15, 0x20(%rsp)
    movq %rbx, 0x28(%rsp)
    movq %rbp, 0x30(%rsp)
    movq %rsp, %rax
    movq %rdi, %rsp
    movq 0x08(%rsp), %r12
    movq 0x10(%rsp), %r13
    movq 0x18(%rsp), %r14
    movq 0x20(%rsp), %r15
    movq 0x28(%rsp), %rbx
    movq 0x30(%rsp), %rbp
    leaq 0x38(%rsp), %rsp
    movq %rsi, %rdx
    movq %rax, %rdi
    ret
    .size syncstress_sim_jump, .-syncstress_sim_jump
)");

#else

void switch_context(Context& from, Context& to) {
  swap_exception_state(from, to);
#ifdef SYNCSTRESS_ASAN
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(from.exiting ? nullptr : &fake_stack, to.asan_bottom,
                                 to.asan_size);
#endif
  ctx::transfer_t t = ctx::jump_fcontext(to.fctx, &from);
  auto* previous = static_cast<Context*>(t.data);
#ifdef SYNCSTRESS_ASAN
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
  // Learns the host's stack bounds (a fiber's are known from make_fiber).
  previous->asan_bottom = bottom;
  previous->asan_size = size;
#endif
  previous->fctx = t.fctx;
  // The switcher saved its own state into `previous` and installed ours before jumping.
}

#endif

}  // namespace syncstress::sim::detail
