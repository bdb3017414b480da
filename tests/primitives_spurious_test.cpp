// The primitives that claim spurious-wake-up tolerance keep their contract on sim when every
// wait_on_address and park may return spuriously (a recorded choice of the strategy).
#include <gtest/gtest.h>

#include <vector>

#include "primitives/all.hpp"
#include "tests/primitives_test_support.hpp"

namespace syncstress {
namespace primitives_spurious_test {
namespace {

using testing::Env;

constexpr bool kSpurious = true;

TEST(SpuriousWakeups, TicketMutexKeepsFifoExclusionWhenWaitsReturnEarly) {
  Env<Sim>::run(
      "ticket_mutex",
      [] {
        ticket_mutex<Sim> m;
        Sim::atomic<int> inside{0};
        std::vector<Sim::thread> threads;
        for (int t = 0; t < 3; ++t) {
          threads.emplace_back([&] {
            for (int i = 0; i < 3; ++i) {
              m.lock();
              Sim::check(inside.fetch_add(1) == 0, "two owners at once");
              inside.fetch_sub(1);
              m.unlock();
            }
          });
        }
        for (auto& t : threads) t.join();
      },
      Env<Sim>::kExecutions, kSpurious);
}

TEST(SpuriousWakeups, TicketSharedMutexKeepsReaderWriterExclusionWhenWaitsReturnEarly) {
  Env<Sim>::run(
      "ticket_shared_mutex",
      [] {
        ticket_shared_mutex<Sim> m;
        Sim::atomic<int> writers{0};
        Sim::atomic<int> readers{0};
        std::vector<Sim::thread> threads;
        for (int t = 0; t < 3; ++t) {
          threads.emplace_back([&, t] {
            for (int i = 0; i < 3; ++i) {
              if (t == 0) {
                m.lock();
                Sim::check(writers.fetch_add(1) == 0 && readers.load() == 0, "writer not alone");
                writers.fetch_sub(1);
                m.unlock();
              } else {
                m.lock_shared();
                readers.fetch_add(1);
                Sim::check(writers.load() == 0, "reader beside a writer");
                readers.fetch_sub(1);
                m.unlock_shared();
              }
            }
          });
        }
        for (auto& t : threads) t.join();
      },
      Env<Sim>::kExecutions, kSpurious);
}

TEST(SpuriousWakeups, WaitOnAddressSemaphoreKeepsCapacityWhenWaitsReturnEarly) {
  Env<Sim>::run(
      "wait_on_address_semaphore",
      [] {
        wait_on_address_semaphore<Sim> s(1);
        Sim::atomic<int> inside{0};
        std::vector<Sim::thread> threads;
        for (int t = 0; t < 3; ++t) {
          threads.emplace_back([&] {
            for (int i = 0; i < 3; ++i) {
              s.acquire();
              Sim::check(inside.fetch_add(1) == 0, "more holders than tokens");
              inside.fetch_sub(1);
              s.release();
            }
          });
        }
        for (auto& t : threads) t.join();
      },
      Env<Sim>::kExecutions, kSpurious);
}

}  // namespace
}  // namespace primitives_spurious_test
}  // namespace syncstress
