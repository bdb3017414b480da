// Names of objects in traces and reports: the one set_name gave, or "<kind>#<n>" in creation
// order per execution.
#include <charconv>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "sim/engine.hpp"

namespace syncstress::sim {

namespace detail {

namespace {

constexpr std::string_view kKindNames[] = {
    "atomic", "mutex",     "auto_event", "manual_event", "parker",     "thread", "pool",
    "frame",  "semaphore", "condvar",    "clock",        "quiescence", "-"};

// Names given outside any execution; they last for the OS thread.
std::map<const void*, std::string>& static_names() {
  static thread_local std::map<const void*, std::string> names;
  return names;
}

}  // namespace

void register_object(Kind kind, const void* obj) {
  Engine* e = t_engine;
  if (e == nullptr || e->aborting()) return;
  e->register_new(kind, obj);
}

void Engine::register_new(Kind kind, const void* obj) {
  serials_.get(obj) = ++kind_counts_[static_cast<std::size_t>(kind)];
  if (observe_) name_new_object(obj);
  names_.erase(obj);  // a new object at a dead one's address does not inherit its name
}

void Engine::name_new_object(const void* obj) {
  // Bit 63 set: never an address (user-space addresses stay below 2^47).
  const std::uint64_t creator = current_ != nullptr ? current_->id : 0xffff'ffffULL;
  const std::uint64_t nth = current_ != nullptr ? ++current_->created : ids_.size() + 1;
  ids_.get(obj) = (std::uint64_t{1} << 63) | (creator << 32) | nth;
}

std::uint64_t Engine::object_id(const void* obj) const {
  if (const std::uint64_t* id = ids_.find(obj)) return *id;
  // Made outside every execution (it keeps its address across executions of this process).
  return reinterpret_cast<std::uintptr_t>(obj);
}

void Engine::name_fixed_object(const void* obj, FixedObject kind, std::uint64_t n) {
  // As name_new_object's ids, with a "creator" no thread has (thread ids stay below 2^30).
  const std::uint64_t creator = 0x3fff'fff0ULL + static_cast<std::uint64_t>(kind);
  ids_.get(obj) = (std::uint64_t{1} << 63) | (creator << 32) | n;
}

std::string Engine::name_of(Kind kind, const void* obj) {
  if (obj == nullptr) return "-";
  if (!names_.empty()) {
    if (auto it = names_.find(obj); it != names_.end()) return it->second;
  }
  if (auto& statics = static_names(); !statics.empty()) {
    if (auto it = statics.find(obj); it != statics.end()) return it->second;
  }
  // The ids are appended, not `"t" + std::to_string(id)`: g++ 12 at -O3 flags that with a
  // false -Wrestrict (GCC bug 105329) in this translation unit.
  switch (kind) {
    case Kind::thread: {
      std::string s = "t";
      s += std::to_string(static_cast<const Thread*>(obj)->id);
      return s;
    }
    case Kind::parker: {
      std::string s = "parker:t";
      s += std::to_string(static_cast<const parker*>(obj)->owner_);
      return s;
    }
    case Kind::pool:
      return "pool";
    case Kind::frame:
      return "frame";
    case Kind::clock:
      return "clock";
    case Kind::quiescence:
      return "the other threads";
    default:
      break;
  }
  bool fresh = false;
  std::uint32_t& serial = serials_.get(obj, &fresh);
  if (fresh) serial = ++kind_counts_[static_cast<std::size_t>(kind)];
  char buf[16];
  auto res = std::to_chars(buf, buf + sizeof buf, serial);
  std::string s(kKindNames[static_cast<std::size_t>(kind)]);
  s += '#';
  s.append(buf, res.ptr);
  return s;
}

}  // namespace detail

using detail::Engine;
using detail::t_engine;

void set_name(const void* object, std::string name) {
  if (Engine* e = t_engine) {
    e->set_name(object, std::move(name));
  } else {
    detail::static_names()[object] = std::move(name);
  }
}

}  // namespace syncstress::sim
