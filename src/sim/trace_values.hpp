// A step's values as its trace entry prints them ("held by t1", "0 -> 1"), formatted only when
// the trace is recorded: an execution without a trace builds no string per step, and passes two
// words instead of a std::string (whose construction, move and destruction cost a step more than
// the rest of its bookkeeping).
#pragma once

#include <string>
#include <type_traits>

namespace syncstress::sim::detail {

/// A function that formats a step's values.
template <class F>
concept FormatsValues = std::is_invocable_r_v<std::string, F&>;

/// Nothing, a text, or a function that formats the text. Refers to what it was made from, so it
/// lives only as long as the call it is passed to (a temporary's full expression).
class TraceValues {
 public:
  TraceValues() = default;
  // Implicit, so a call passes "signaled", a std::string or a formatting lambda alike.
  // NOLINTBEGIN(google-explicit-constructor)
  TraceValues(const char* text) : format_(&text_of), arg_(text) {}
  TraceValues(const std::string& text) : format_(&string_of), arg_(&text) {}
  template <FormatsValues F>
  TraceValues(F& format) : format_(&call<F>), arg_(&format) {}
  // NOLINTEND(google-explicit-constructor)

  /// The text; empty for nothing.
  std::string str() const { return format_ != nullptr ? format_(arg_) : std::string(); }

 private:
  static std::string text_of(const void* text) { return static_cast<const char*>(text); }
  static std::string string_of(const void* text) { return *static_cast<const std::string*>(text); }
  template <class F>
  static std::string call(const void* format) {
    return (*static_cast<F*>(const_cast<void*>(format)))();
  }

  std::string (*format_)(const void*) = nullptr;
  const void* arg_ = nullptr;
};

}  // namespace syncstress::sim::detail
