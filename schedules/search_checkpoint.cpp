// Checkpoints of the exhaustive searches: the state between two executions as JSON, so that a
// search stopped by its time budget or a signal continues where it stopped (`run --resume`)
// and, continued to its end, counts what one uninterrupted search counts. Arrays, not objects,
// keep a node small: a checkpoint holds the last execution's path (and, for the reduction, its
// steps), a few hundred nodes.
#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"

namespace syncstress {
namespace {

using nlohmann::json;

constexpr int kFormat = 3;

[[noreturn]] void bad(const std::string& field, const std::string& what) {
  throw CheckpointError(field + " " + what);
}

/// The field `key` of the object `parent` (itself the field `where`).
const json& member(const json& parent, const std::string& where, const char* key) {
  if (!parent.is_object()) bad(where, "must be an object");
  const auto it = parent.find(key);
  if (it == parent.end()) bad(where + "." + key, "is missing");
  return *it;
}

/// `v` (the field `where`) as an array of at least `min` elements.
const json& array(const json& v, const std::string& where, std::size_t min = 0) {
  if (!v.is_array()) bad(where, "must be an array");
  if (v.size() < min) bad(where, "must have at least " + std::to_string(min) + " elements");
  return v;
}

std::string index(const std::string& where, std::size_t i) {
  return where + "[" + std::to_string(i) + "]";
}

/// `v` (the field `where`) as a whole number from 0 to `max`.
std::uint64_t whole(const json& v, const std::string& where,
                    std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  const bool non_negative =
      v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
  if (!non_negative) bad(where, "must be a whole number >= 0");
  const auto n = v.get<std::uint64_t>();
  if (n > max) bad(where, "is " + std::to_string(n) + ", above " + std::to_string(max));
  return n;
}

bool boolean(const json& v, const std::string& where) {
  if (!v.is_boolean()) bad(where, "must be true or false");
  return v.get<bool>();
}

ThreadId thread_id(const json& v, const std::string& where) {
  return static_cast<ThreadId>(whole(v, where, std::numeric_limits<ThreadId>::max()));
}

std::vector<ThreadId> threads(const json& v, const std::string& where) {
  std::vector<ThreadId> out;
  for (std::size_t i = 0; i < array(v, where).size(); ++i) {
    out.push_back(thread_id(v[i], index(where, i)));
  }
  return out;
}

/// `position` must be a checkpoint of the search `kind` ("plain", "dpor"); returns its state.
const json& state_of(const json& position, const char* kind) {
  const std::string root = "the checkpoint";
  if (!position.is_object()) bad(root, "must be an object");
  const json& format = member(position, root, "format");
  if (!format.is_number_integer() || format.get<std::int64_t>() != kFormat) {
    bad("format", (format.is_number_integer() ? "is " + std::to_string(format.get<std::int64_t>())
                                              : std::string("is not a whole number")) +
                      ", and this build reads format " + std::to_string(kFormat));
  }
  const json& search = member(position, root, "search");
  if (!search.is_string()) bad("search", "must be a string");
  if (search.get<std::string>() != kind) {
    const auto name = [](const std::string& k) {
      return k == "dpor"    ? std::string("the reduced search (reduction=dpor)")
             : k == "plain" ? std::string("the plain search (reduction=none)")
                            : "'" + k + "'";
    };
    bad("search", "is " + name(search.get<std::string>()) + "'s, and this cell runs " + name(kind));
  }
  return member(position, root, "state");
}

/// The shard prefix's position, as PrefixWalk::state() writes it.
std::array<std::int64_t, 4> prefix_of(const json& v) {
  const std::string where = "state.prefix";
  if (!array(v, where).is_array() || v.size() != 4) bad(where, "must have 4 elements");
  std::array<std::int64_t, 4> out{};
  for (std::size_t i = 0; i < 4; ++i) {
    if (!v[i].is_number_integer()) bad(index(where, i), "must be a whole number");
    out[i] = v[i].get<std::int64_t>();
    // Its end may be -1 (none); the others count.
    if (out[i] < (i == 1 ? -1 : 0)) bad(index(where, i), "is out of range");
  }
  if (out[3] > 1) bad(index(where, 3), "must be 0 or 1");
  return out;
}

json accesses_to_json(const std::vector<Access>& accesses) {
  json out = json::array();
  for (const Access& a : accesses) {
    // The flags only where one is set (Access::follows_write, Access::chained, and the C++
    // model's Access::free_read, Access::store and Access::races_store).
    if (a.free_read || a.store != 0) {
      out.push_back(
          json{a.object, a.write, a.follows_write, a.chained, a.free_read, a.store, a.races_store});
    } else if (a.chained) {
      out.push_back(json{a.object, a.write, a.follows_write, true});
    } else {
      out.push_back(a.follows_write ? json{a.object, a.write, true} : json{a.object, a.write});
    }
  }
  return out;
}

std::vector<Access> accesses_from_json(const json& in, const std::string& where) {
  std::vector<Access> out;
  for (std::size_t i = 0; i < array(in, where).size(); ++i) {
    const std::string at = index(where, i);
    const json& a = array(in[i], at, 2);
    out.push_back(
        {whole(a[0], index(at, 0)), boolean(a[1], index(at, 1)),
         a.size() > 2 && boolean(a[2], index(at, 2)), a.size() > 3 && boolean(a[3], index(at, 3)),
         a.size() > 4 && boolean(a[4], index(at, 4)), a.size() > 5 ? whole(a[5], index(at, 5)) : 0,
         a.size() > 6 && boolean(a[6], index(at, 6))});
  }
  return out;
}

template <class Sleeper>
json sleepers_to_json(const std::vector<Sleeper>& sleepers) {
  json out = json::array();
  for (const auto& s : sleepers) {
    out.push_back(
        {s.thread, accesses_to_json(s.accesses), s.since, s.partial, s.writes_woken, s.stops});
  }
  return out;
}

template <class Sleeper>
std::vector<Sleeper> sleepers_from_json(const json& in, const std::string& where) {
  std::vector<Sleeper> out;
  for (std::size_t i = 0; i < array(in, where).size(); ++i) {
    const std::string at = index(where, i);
    const json& s = array(in[i], at, 2);
    out.push_back(
        {thread_id(s[0], index(at, 0)), accesses_from_json(s[1], index(at, 1)),
         s.size() > 2 ? static_cast<std::uint32_t>(
                            whole(s[2], index(at, 2), std::numeric_limits<std::uint32_t>::max()))
                      : 0,
         s.size() > 3 && boolean(s[3], index(at, 3)), s.size() > 4 && boolean(s[4], index(at, 4)),
         s.size() > 5 && boolean(s[5], index(at, 5))});
  }
  return out;
}

}  // namespace

json ExhaustiveStrategy::checkpoint() const {
  json path = json::array();
  for (const Node& n : path_) {
    path.push_back({n.is_thread, n.bound, n.chosen, n.continuing, n.preemptions_before});
  }
  return {{"format", kFormat},
          {"search", "plain"},
          {"state",
           {{"path", path},
            {"depth", depth_},
            {"explored", explored_},
            {"complete", complete_},
            {"prefix", prefix_.state()}}}};
}

void ExhaustiveStrategy::resume(const json& position) {
  const json& s = state_of(position, "plain");
  std::vector<Node> path;
  const json& nodes = array(member(s, "state", "path"), "state.path");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string at = index("state.path", i);
    const json& n = array(nodes[i], at, 5);
    Node node{boolean(n[0], index(at, 0)),
              whole(n[1], index(at, 1)),
              whole(n[2], index(at, 2)),
              whole(n[3], index(at, 3)),
              static_cast<std::uint32_t>(
                  whole(n[4], index(at, 4), std::numeric_limits<std::uint32_t>::max())),
              0};
    if (node.bound == 0 || node.chosen >= node.bound) {
      bad(index(at, 2), "(the answer taken) must be below its bound " + std::to_string(node.bound));
    }
    path.push_back(node);
  }
  const std::uint64_t depth = whole(member(s, "state", "depth"), "state.depth", path.size());
  const std::uint64_t explored = whole(member(s, "state", "explored"), "state.explored");
  const bool complete = boolean(member(s, "state", "complete"), "state.complete");
  const auto prefix = prefix_of(member(s, "state", "prefix"));
  // Everything checked: taken.
  path_ = std::move(path);
  depth_ = depth;
  explored_ = explored;
  complete_ = complete;
  prefix_.set_state(prefix);
  // The estimate starts afresh: the subtrees completed before the checkpoint are not known.
  estimate_.clear();
  for (Node& n : path_) n.branch_start = explored_ > 0 ? explored_ - 1 : 0;
  resumed_after(explored_);
}

json DporStrategy::checkpoint() const {
  json path = json::array();
  for (const Node& n : path_) {
    path.push_back({n.is_thread, n.bound, n.chosen, n.runnable, n.backtrack,
                    sleepers_to_json(n.done), sleepers_to_json(n.sleep),
                    accesses_to_json(n.chosen_accesses), n.continuing, n.preemptions_before,
                    n.in_prefix, n.events_before, n.restricted, n.only, n.chosen_stops});
  }
  json events = json::array();
  for (const Event& e : events_) {
    events.push_back({e.thread, e.first_access, e.end_access, e.node, e.data});
  }
  return {{"format", kFormat},
          {"search", "dpor"},
          {"state",
           {{"path", path},
            {"depth", depth_},
            {"explored", explored_},
            {"pruned", pruned_},
            {"complete", complete_},
            {"last_pruned", last_pruned_},
            {"events", events},
            {"accesses", accesses_to_json(accesses_)},
            {"runnable_at_end", runnable_at_end_},
            {"traces", distinct_traces()},
            {"traces_capped", traces_capped_},
            {"prefix", prefix_.state()}}}};
}

void DporStrategy::resume(const json& position) {
  const json& s = state_of(position, "dpor");
  const auto field = [&](const char* key) -> const json& { return member(s, "state", key); };
  std::vector<Node> path;
  const json& nodes = array(field("path"), "state.path");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string at = index("state.path", i);
    const json& n = array(nodes[i], at, 11);
    Node node;
    node.is_thread = boolean(n[0], index(at, 0));
    node.bound = whole(n[1], index(at, 1));
    node.chosen = whole(n[2], index(at, 2));
    node.runnable = threads(n[3], index(at, 3));
    node.backtrack = threads(n[4], index(at, 4));
    node.done = sleepers_from_json<Sleeper>(n[5], index(at, 5));
    node.sleep = sleepers_from_json<Sleeper>(n[6], index(at, 6));
    node.chosen_accesses = accesses_from_json(n[7], index(at, 7));
    node.continuing = whole(n[8], index(at, 8));
    node.preemptions_before = static_cast<std::uint32_t>(
        whole(n[9], index(at, 9), std::numeric_limits<std::uint32_t>::max()));
    node.in_prefix = boolean(n[10], index(at, 10));
    if (n.size() > 13) {
      node.events_before = static_cast<std::uint32_t>(
          whole(n[11], index(at, 11), std::numeric_limits<std::uint32_t>::max()));
      node.restricted = boolean(n[12], index(at, 12));
      const json& only = array(n[13], index(at, 13));
      for (std::size_t k = 0; k < only.size(); ++k) {
        node.only.push_back(whole(only[k], index(index(at, 13), k), node.bound - 1));
      }
      if (!std::is_sorted(node.only.begin(), node.only.end())) {
        bad(index(at, 13), "must be ascending");
      }
    }
    if (n.size() > 14) node.chosen_stops = boolean(n[14], index(at, 14));
    if (node.bound == 0 || node.chosen >= node.bound) {
      bad(index(at, 2), "(the answer taken) must be below its bound " + std::to_string(node.bound));
    }
    if (node.is_thread) {
      if (node.runnable.size() != node.bound) {
        bad(index(at, 3),
            "(the runnable threads) must number its bound " + std::to_string(node.bound));
      }
      const auto runnable = [&](ThreadId t) {
        return std::find(node.runnable.begin(), node.runnable.end(), t) != node.runnable.end();
      };
      for (const ThreadId t : node.backtrack) {
        if (!runnable(t)) bad(index(at, 4), "names thread " + std::to_string(t) + ", not runnable");
      }
      for (const Sleeper& z : node.done) {
        if (!runnable(z.thread)) {
          bad(index(at, 5), "names thread " + std::to_string(z.thread) + ", not runnable");
        }
      }
      if (node.continuing > node.bound) {
        bad(index(at, 8), "must be at most its bound " + std::to_string(node.bound));
      }
    }
    path.push_back(std::move(node));
  }
  const std::uint64_t depth = whole(field("depth"), "state.depth", path.size());
  const std::uint64_t explored = whole(field("explored"), "state.explored");
  const std::uint64_t pruned = whole(field("pruned"), "state.pruned", explored);
  const bool complete = boolean(field("complete"), "state.complete");
  const bool last_pruned = boolean(field("last_pruned"), "state.last_pruned");
  std::vector<Access> accesses = accesses_from_json(field("accesses"), "state.accesses");
  std::vector<Event> events;
  const json& steps = array(field("events"), "state.events");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string at = index("state.events", i);
    const json& e = array(steps[i], at, 5);
    if (!e[3].is_number_integer()) bad(index(at, 3), "must be a whole number");
    Event ev{thread_id(e[0], index(at, 0)),
             static_cast<std::uint32_t>(whole(e[1], index(at, 1), accesses.size())),
             static_cast<std::uint32_t>(whole(e[2], index(at, 2), accesses.size())),
             e[3].get<std::int64_t>(), whole(e[4], index(at, 4))};
    if (ev.first_access > ev.end_access) bad(index(at, 1), "must not be past its end");
    if (ev.node < -1 || ev.node >= static_cast<std::int64_t>(path.size())) {
      bad(index(at, 3), "names no node of state.path");
    }
    events.push_back(ev);
  }
  std::vector<ThreadId> runnable_at_end =
      threads(field("runnable_at_end"), "state.runnable_at_end");
  const std::uint64_t traces = whole(field("traces"), "state.traces", explored);
  const bool traces_capped = boolean(field("traces_capped"), "state.traces_capped");
  const auto prefix = prefix_of(field("prefix"));
  // Everything checked: taken.
  path_ = std::move(path);
  depth_ = depth;
  explored_ = explored;
  pruned_ = pruned;
  complete_ = complete;
  last_pruned_ = last_pruned;
  accesses_ = std::move(accesses);
  events_ = std::move(events);
  // The stores of the last execution, which its analysis looks up (event_of).
  store_events_.clear();
  for (std::size_t j = 0; j < events_.size(); ++j) {
    const Event& e = events_[j];
    index_stores({accesses_.data() + e.first_access, e.end_access - e.first_access},
                 static_cast<std::uint32_t>(j));
  }
  runnable_at_end_ = std::move(runnable_at_end);
  traces_.clear();
  traces_before_ = traces;
  traces_capped_ = traces_capped;
  prefix_.set_state(prefix);
  sleep_.clear();
  choosing_node_ = -1;
  data_hash_ = 0;
  // The estimate starts afresh: the subtrees completed before the checkpoint are not known.
  estimate_.clear();
  for (Node& n : path_) n.branch_start = explored_ > 0 ? explored_ - 1 : 0;
  resumed_after(explored_);
}

}  // namespace syncstress
