// Checkpoints of the exhaustive searches: the state between two executions as JSON, so that a
// search stopped by its time budget or a signal continues where it stopped (`run --resume`)
// and, continued to its end, counts what one uninterrupted search counts. Arrays, not objects,
// keep a node small: a checkpoint holds the last execution's path (and, for the reduction, its
// steps), a few hundred nodes.
#include <stdexcept>

#include "schedules/dpor_strategy.hpp"
#include "schedules/exhaustive_strategy.hpp"
#include "util/json_input.hpp"

namespace syncstress {
namespace {

using nlohmann::json;

constexpr int kFormat = 2;

[[noreturn]] void malformed(const char* what) {
  throw std::invalid_argument(std::string("the search's checkpoint is malformed: ") + what);
}

/// `position` must be a checkpoint of kind `kind`; returns its state.
const json& state_of(const json& position, const char* kind) {
  if (!position.is_object() || position.value("format", 0) != kFormat ||
      position.value("search", std::string()) != kind || !position.contains("state")) {
    malformed(kind);
  }
  return position.at("state");
}

json accesses_to_json(const std::vector<Access>& accesses) {
  json out = json::array();
  for (const Access& a : accesses) {
    // A third element only where it is set (Access::follows_write).
    out.push_back(a.follows_write ? json{a.object, a.write, true} : json{a.object, a.write});
  }
  return out;
}

std::vector<Access> accesses_from_json(const json& in) {
  std::vector<Access> out;
  for (const auto& a : in) {
    out.push_back(
        {a.at(0).get<std::uint64_t>(), a.at(1).get<bool>(), a.size() > 2 && a.at(2).get<bool>()});
  }
  return out;
}

template <class Sleeper>
json sleepers_to_json(const std::vector<Sleeper>& sleepers) {
  json out = json::array();
  for (const auto& s : sleepers) out.push_back({s.thread, accesses_to_json(s.accesses)});
  return out;
}

template <class Sleeper>
std::vector<Sleeper> sleepers_from_json(const json& in) {
  std::vector<Sleeper> out;
  for (const auto& s : in) {
    out.push_back({s.at(0).get<ThreadId>(), accesses_from_json(s.at(1))});
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
  try {
    const json& s = state_of(position, "plain");
    path_.clear();
    for (const auto& n : s.at("path")) {
      path_.push_back(Node{n.at(0).get<bool>(), n.at(1).get<std::uint64_t>(),
                           n.at(2).get<std::uint64_t>(), n.at(3).get<std::uint64_t>(),
                           n.at(4).get<std::uint32_t>(), 0});
      if (path_.back().chosen >= path_.back().bound) malformed("a node's answer is out of range");
    }
    depth_ = s.at("depth").get<std::size_t>();
    explored_ = s.at("explored").get<std::uint64_t>();
    complete_ = s.at("complete").get<bool>();
    prefix_.set_state(s.at("prefix").get<std::array<std::int64_t, 4>>());
    // The estimate starts afresh: the subtrees completed before the checkpoint are not known.
    estimate_.clear();
    for (Node& n : path_) n.branch_start = explored_ > 0 ? explored_ - 1 : 0;
  } catch (const json::exception& e) {
    malformed(json_error_text(e).c_str());
  }
}

json DporStrategy::checkpoint() const {
  json path = json::array();
  for (const Node& n : path_) {
    path.push_back({n.is_thread, n.bound, n.chosen, n.runnable, n.backtrack,
                    sleepers_to_json(n.done), sleepers_to_json(n.sleep),
                    accesses_to_json(n.chosen_accesses), n.continuing, n.preemptions_before,
                    n.in_prefix});
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
  try {
    const json& s = state_of(position, "dpor");
    path_.clear();
    for (const auto& n : s.at("path")) {
      Node node;
      node.is_thread = n.at(0).get<bool>();
      node.bound = n.at(1).get<std::uint64_t>();
      node.chosen = n.at(2).get<std::uint64_t>();
      node.runnable = n.at(3).get<std::vector<ThreadId>>();
      node.backtrack = n.at(4).get<std::vector<ThreadId>>();
      node.done = sleepers_from_json<Sleeper>(n.at(5));
      node.sleep = sleepers_from_json<Sleeper>(n.at(6));
      node.chosen_accesses = accesses_from_json(n.at(7));
      node.continuing = n.at(8).get<std::uint64_t>();
      node.preemptions_before = n.at(9).get<std::uint32_t>();
      node.in_prefix = n.at(10).get<bool>();
      if (node.chosen >= node.bound || (node.is_thread && node.runnable.size() != node.bound)) {
        malformed("a node's answer is out of range");
      }
      path_.push_back(std::move(node));
    }
    depth_ = s.at("depth").get<std::size_t>();
    explored_ = s.at("explored").get<std::uint64_t>();
    pruned_ = s.at("pruned").get<std::uint64_t>();
    complete_ = s.at("complete").get<bool>();
    last_pruned_ = s.at("last_pruned").get<bool>();
    accesses_ = accesses_from_json(s.at("accesses"));
    events_.clear();
    for (const auto& e : s.at("events")) {
      Event ev{e.at(0).get<ThreadId>(), e.at(1).get<std::uint32_t>(), e.at(2).get<std::uint32_t>(),
               e.at(3).get<std::int64_t>(), e.at(4).get<std::uint64_t>()};
      if (ev.first_access > ev.end_access || ev.end_access > accesses_.size() ||
          ev.node >= static_cast<std::int64_t>(path_.size())) {
        malformed("a step refers to what is not there");
      }
      events_.push_back(ev);
    }
    runnable_at_end_ = s.at("runnable_at_end").get<std::vector<ThreadId>>();
    traces_.clear();
    traces_before_ = s.at("traces").get<std::uint64_t>();
    traces_capped_ = s.at("traces_capped").get<bool>();
    prefix_.set_state(s.at("prefix").get<std::array<std::int64_t, 4>>());
    sleep_.clear();
    choosing_node_ = -1;
    data_hash_ = 0;
    // The estimate starts afresh: the subtrees completed before the checkpoint are not known.
    estimate_.clear();
    for (Node& n : path_) n.branch_start = explored_ > 0 ? explored_ - 1 : 0;
  } catch (const json::exception& e) {
    malformed(json_error_text(e).c_str());
  }
}

}  // namespace syncstress
