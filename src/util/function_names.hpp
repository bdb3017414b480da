// Demangled C++ function names (as __PRETTY_FUNCTION__ and debuggers print them) cut to what a
// reader of a trace needs: the class, or enclosing function, and the name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace syncstress {

/// A demangled function as a reader names it: "awaitable_state::await_suspend" for
/// "bool syncstress::async_helpers::awaitable_state<P, State>::await_suspend(std::...&)", and
/// "Actors::run::lambda" for a lambda inside Actors<P>::run. Without its return type, template
/// arguments, parameters, qualifiers and namespaces: the class (or enclosing function) and name.
inline std::string short_function_name(std::string_view full) {
  // The lambdas' own spellings first ("{lambda(int)#1}", "<lambda(int)>"): the brackets below
  // would drop them whole.
  std::string text;
  for (std::size_t i = 0; i < full.size();) {
    const bool brace = full.compare(i, 7, "{lambda") == 0;
    const bool angle = full.compare(i, 7, "<lambda") == 0;
    if (!brace && !angle) {
      text += full[i++];
      continue;
    }
    const char close = brace ? '}' : '>';
    int depth = 0;
    std::size_t k = i;
    for (; k < full.size(); ++k) {
      if (full[k] == '(') ++depth;
      if (full[k] == ')') --depth;
      if (full[k] == close && depth == 0) break;
    }
    text += "lambda";
    i = k + 1;
  }
  // Template arguments and parameter lists, however deeply nested; an operator's own symbols
  // ("operator()", "operator<") are kept.
  std::string flat;
  int angles = 0;
  int parens = 0;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (angles == 0 && parens == 0 && text.compare(i, 8, "operator") == 0) {
      flat += "operator";
      i += 8;
      if (text.compare(i, 2, "()") == 0) {
        flat += "()";
        i += 2;
      }
      while (i < text.size() &&
             std::string_view("<>=!+-*/%&|^~[]").find(text[i]) != std::string_view::npos) {
        flat += text[i++];
      }
      continue;
    }
    if (c == '<') {
      ++angles;
    } else if (c == '>' && angles > 0) {
      --angles;
    } else if (c == '(' && angles == 0) {
      ++parens;
    } else if (c == ')' && angles == 0 && parens > 0) {
      --parens;
    } else if (angles == 0 && parens == 0) {
      flat += c;
    }
    ++i;
  }
  // The qualified name is the last word with "::" in it (the return type and qualifiers such
  // as "const" are other words); without one, the last word that is not a qualifier.
  std::string name;
  std::string plain;
  for (std::size_t start = 0; start < flat.size();) {
    std::size_t end = flat.find(' ', start);
    if (end == std::string::npos) end = flat.size();
    const std::string word = flat.substr(start, end - start);
    if (word.find("::") != std::string::npos) {
      name = word;
    } else if (!word.empty() && word != "const" && word != "volatile" && word != "noexcept" &&
               word != "&" && word != "&&") {
      plain = word;
    }
    start = end + 1;
  }
  if (name.empty()) name = plain;
  if (name.empty()) return std::string(full);
  // The last two parts (class and member, or function and lambda); a lambda's call operator is
  // the lambda itself, named with the function it is in and that function's class.
  std::vector<std::string> parts;
  for (std::size_t at = 0; at <= name.size();) {
    std::size_t next = name.find("::", at);
    if (next == std::string::npos) next = name.size();
    parts.push_back(name.substr(at, next - at));
    at = next + 2;
  }
  if (parts.size() >= 2 && parts.back() == "operator()" && parts[parts.size() - 2] == "lambda") {
    parts.pop_back();
  }
  const std::size_t keep = parts.back() == "lambda" ? 3 : 2;
  std::string out;
  for (std::size_t i = parts.size() > keep ? parts.size() - keep : 0; i < parts.size(); ++i) {
    if (!out.empty()) out += "::";
    out += parts[i];
  }
  return out.empty() ? std::string(full) : out;
}

}  // namespace syncstress
