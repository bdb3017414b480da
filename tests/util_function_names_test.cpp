// Demangled function names as a trace shows them (util/function_names.hpp): a function by its
// class and name, a lambda by where it is.
#include <gtest/gtest.h>

#include <string>

#include "util/function_names.hpp"

namespace syncstress {
namespace util_function_names_test {
namespace {

TEST(FunctionNames, AMemberFunctionIsItsClassAndName) {
  EXPECT_EQ(
      short_function_name(
          "bool syncstress::async_helpers::awaitable_state<P, State, kOptions>::await_suspend("
          "std::__n4861::coroutine_handle<void>, syncstress::async_helpers::impl::node<"
          "syncstress::async_helpers::extra_await_data<State> >&)"),
      "awaitable_state::await_suspend");
  EXPECT_EQ(short_function_name("void syncstress::scenarios::ScenarioContext<P>::enter_exclusive("
                                "int64_t, syncstress::source_location) const"),
            "ScenarioContext::enter_exclusive");
}

TEST(FunctionNames, ALambdaIsNamedByTheFunctionItIsIn) {
  EXPECT_EQ(short_function_name("syncstress::scenarios::Actors<P>::run(syncstress::source_location)"
                                "::<lambda()>"),
            "Actors::run::lambda");
  EXPECT_EQ(short_function_name("syncstress::scenarios::Actors<syncstress::Relacy>::run("
                                "syncstress::source_location)::{lambda()#1}::operator()() const"),
            "Actors::run::lambda");
}

TEST(FunctionNames, AFreeFunctionAndAnOperatorKeepTheirNames) {
  EXPECT_EQ(short_function_name("fiber_proc_impl"), "fiber_proc_impl");
  EXPECT_EQ(short_function_name("void fiber_proc_impl(void*)"), "fiber_proc_impl");
  EXPECT_EQ(short_function_name("bool rl::atomic<int>::operator<(int) const"), "atomic::operator<");
  EXPECT_EQ(short_function_name("void syncstress::hold(typename P::atomic<int64_t>&, int64_t)"),
            "syncstress::hold");
}

}  // namespace
}  // namespace util_function_names_test
}  // namespace syncstress
