// The Platform concept: everything a primitive under test may use.
//
// A primitive is written once, as `template <Platform P> class X`, and compiled against
// `real` (the OS), `sim` (the deterministic runtime) or `relacy`. Nothing in primitives/
// includes <atomic>, <mutex>, <thread> or a system header; it reaches the machine only
// through P. Every operation takes a std::source_location defaulted at the call site, so a
// trace points at the primitive's own line, not at this header.
//
// Shape of a platform type P (all members static or nested types):
//
//   P::atomic<T>            std::atomic's operations; T trivially copyable, fetch_* for
//                           integral T only. wait(old) returns once the value differs from
//                           old (never spuriously, as std::atomic::wait).
//   P::cell<T>              plain shared data; read through with(f), written through
//                           with_mut(f) so each access has a start and an end.
//   P::mutex                lock / unlock / try_lock; not recursive.
//   P::wait_on_address(a, expected)       blocks while a == expected; MAY return
//                                         spuriously (WaitOnAddress, futex); T is 4 bytes.
//   P::wake_by_address_single(a) / _all(a)
//   P::parker, P::current_parker()        a binary permit per thread (ConcRT
//                           Context::Block/Unblock): unpark() may come before park() and is
//                           not lost; park() consumes the permit or blocks until one arrives.
//   P::yield()              let other threads run (ConcRT Context::Yield, sched_yield).
//   P::pause()              a CPU spin-wait hint (x86 pause); a scheduling point on sim.
//   P::now()                a steady clock (std::chrono::steady_clock::time_point); on sim a
//                           virtual one that advances a microsecond per call and jumps to a
//                           timed wait's deadline when the wait times out.
//   P::counting_semaphore   std::counting_semaphore: counting_semaphore(n), release(n = 1),
//                           acquire(), try_acquire(), try_acquire_for(d) (false on timeout).
//   P::condition_variable   std::condition_variable_any over P::mutex: wait(m), wait_for(m, d)
//                           (std::cv_status), notify_one(), notify_all(); waits may return
//                           spuriously. Timeouts are recorded choices on sim (src/sim/engine.hpp,
//                           "Timeouts") and Relacy's own choices under Relacy.
//   P::atomic_thread_fence(mo) / P::atomic_signal_fence(mo)   std::atomic_thread_fence and
//                           std::atomic_signal_fence: real issues them, Relacy models them, sim
//                           orders by them under memory=c11 (src/sim/memory.hpp) and has nothing
//                           for them to order when sequentially consistent.
//   P::auto_reset_event / P::manual_reset_event   Win32 event semantics: set, reset, wait,
//                           wait_for(d) (false on timeout), try_wait; an auto-reset event
//                           releases one waiter per set and clears itself; a manual-reset event
//                           releases everyone until reset.
//   P::post(h)              run coroutine h on the platform's thread pool (via P::resume).
//   P::resume_on_signal(e, h)  once auto-reset event e is signaled, consume the signal and
//                           post h to the pool (the thread-pool wait behind WinRT's
//                           resume_on_signal).
//   P::resume(h)            resume coroutine h on the calling thread. Every resumption of a
//                           coroutine goes through here, so the runtime sees it.
//   P::thread               thread(F f) starts f; join() waits for it.
//   P::check(ok, what)      a property check raised by a primitive or a scenario; on sim a
//                           failed check ends the execution with a violation.
//   P::frame_allocate(n) / P::frame_deallocate(p, n)   storage for the harness task's frames.
//   P::frame_created(h) / P::frame_destroyed(h)        frame lifetime, for misuse detection.
//   P::frame_awaits(h, loc) a task's frame reached the co_await at loc (sim: a deadlock
//                           names the line each suspended coroutine waits at).
//   P::node_allocate(n) / P::node_deallocate(p, n)     storage for a primitive's own heap nodes
//                           (a work queue's items), in place of new and delete; on sim the
//                           reuse of a freed node's address depends on the execution only.
#pragma once

#include <atomic>  // std::memory_order, the orders every Platform operation takes
#include <chrono>
#include <concepts>
#include <condition_variable>  // std::cv_status, what a timed wait returns
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <source_location>

namespace syncstress {

/// The call site of a Platform operation; every operation takes one, defaulted.
using source_location = std::source_location;

namespace platform_detail {

template <class P, class T>
concept AtomicOf = requires(typename P::template atomic<T>& a, T& expected, T value,
                            std::memory_order mo) {
  { a.load(mo) } -> std::same_as<T>;
  { a.load() } -> std::same_as<T>;
  a.store(value, mo);
  a.store(value);
  { a.exchange(value, mo) } -> std::same_as<T>;
  { a.compare_exchange_weak(expected, value, mo, mo) } -> std::same_as<bool>;
  { a.compare_exchange_weak(expected, value, mo) } -> std::same_as<bool>;
  { a.compare_exchange_strong(expected, value, mo, mo) } -> std::same_as<bool>;
  { a.compare_exchange_strong(expected, value, mo) } -> std::same_as<bool>;
  a.wait(value, mo);
  a.notify_one();
  a.notify_all();
};

template <class P, class T>
concept IntegralAtomicOf = AtomicOf<P, T> &&
    requires(typename P::template atomic<T>& a, T v, std::memory_order mo) {
  { a.fetch_add(v, mo) } -> std::same_as<T>;
  { a.fetch_sub(v, mo) } -> std::same_as<T>;
  { a.fetch_and(v, mo) } -> std::same_as<T>;
  { a.fetch_or(v, mo) } -> std::same_as<T>;
  { a.fetch_xor(v, mo) } -> std::same_as<T>;
};

template <class E>
concept Event = std::constructible_from<E, bool> && requires(E& e) {
  e.set();
  e.reset();
  e.wait();
  { e.wait_for(std::chrono::nanoseconds(1)) } -> std::same_as<bool>;
  { e.try_wait() } -> std::same_as<bool>;
};

}  // namespace platform_detail

template <class P>
concept Platform = platform_detail::IntegralAtomicOf<P, int> &&
    platform_detail::IntegralAtomicOf<P, std::int32_t> &&
    platform_detail::IntegralAtomicOf<P, std::int64_t> &&
    platform_detail::IntegralAtomicOf<P, std::uint32_t> && platform_detail::AtomicOf<P, bool> &&
    platform_detail::AtomicOf<P, void*> && platform_detail::Event<typename P::auto_reset_event> &&
    platform_detail::Event<typename P::manual_reset_event> &&
    requires(typename P::template cell<int>& c, typename P::mutex& m,
             typename P::template atomic<std::int32_t>& word, typename P::parker& parker,
             typename P::auto_reset_event& are, typename P::thread& t, std::coroutine_handle<> h,
             typename P::counting_semaphore& sem, typename P::condition_variable& cv,
             std::chrono::nanoseconds timeout, void* frame, std::size_t n) {
  {
    c.with([](const int& v) { return v; })
    } -> std::same_as<int>;
  c.with_mut([](int& v) { ++v; });
  m.lock();
  m.unlock();
  { m.try_lock() } -> std::same_as<bool>;
  P::wait_on_address(word, std::int32_t{0});
  P::wake_by_address_single(word);
  P::wake_by_address_all(word);
  { P::current_parker() } -> std::same_as<typename P::parker&>;
  parker.park();
  parker.unpark();
  P::yield();
  P::pause();
  { P::now() } -> std::same_as<std::chrono::steady_clock::time_point>;
  sem.release();
  sem.release(std::ptrdiff_t{2});
  sem.acquire();
  { sem.try_acquire() } -> std::same_as<bool>;
  { sem.try_acquire_for(timeout) } -> std::same_as<bool>;
  cv.wait(m);
  { cv.wait_for(m, timeout) } -> std::same_as<std::cv_status>;
  cv.notify_one();
  cv.notify_all();
  P::atomic_thread_fence(std::memory_order_seq_cst);
  P::atomic_signal_fence(std::memory_order_seq_cst);
  P::post(h);
  P::resume_on_signal(are, h);
  P::resume(h);
  t.join();
  P::check(true, "what");
  { P::frame_allocate(n) } -> std::same_as<void*>;
  P::frame_deallocate(frame, n);
  P::frame_created(h);
  P::frame_destroyed(h);
  P::frame_awaits(h, source_location::current());
  { P::node_allocate(n) } -> std::same_as<void*>;
  P::node_deallocate(frame, n);
} && std::constructible_from<typename P::thread, void (*)()> &&
    std::constructible_from<typename P::counting_semaphore, std::ptrdiff_t>;

}  // namespace syncstress
