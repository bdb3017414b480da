// What every scenario family shares, on every platform: the header the families include. Each
// part is a header of its own: what the harness needs from a platform (harness_hooks.hpp), the
// property checks made during an execution (property_checks.hpp), the wait bookkeeping behind
// fairness and starvation metrics (wait_book.hpp, settling.hpp), the harness's counters
// (counter.hpp), the context every execution shares (scenario_context.hpp), the actors
// (actors.hpp), and the uniform way to build, acquire and release a primitive whether it is used
// from threads (sync) or from coroutines (async), whatever its acquisition gives (acquire.hpp).
//
// Everything here is a template over the Platform P, so one family body runs on sim, under
// Relacy and on real threads. An actor is a task<P> started on a P::thread of its own. For a
// sync primitive the "awaits" below block the thread and never suspend, so the task runs to its
// end inside start(); for an async primitive the task suspends in the primitive and is resumed
// by whoever releases it, on whatever thread. Either way the body's thread waits for every
// actor's task to finish; one that never does shows up as a deadlock (sim, Relacy).
//
// The harness's own bookkeeping (who holds the primitive, how many sets an event saw) is kept
// in std::atomic, not in Platform objects: it must not add scheduling points on sim (the traces
// would change), nor synchronisation that Relacy would credit to the primitive, and it must be
// exact on real threads. What the primitive must order is touched through P::cell: a holder's
// write of `guarded`, a waiter's read of an event's published value.
#pragma once

#include "scenarios/acquire.hpp"
#include "scenarios/actors.hpp"
#include "scenarios/counter.hpp"
#include "scenarios/finding.hpp"
#include "scenarios/harness_hooks.hpp"
#include "scenarios/params.hpp"
#include "scenarios/property_checks.hpp"
#include "scenarios/scenario_context.hpp"
#include "scenarios/settling.hpp"
#include "scenarios/wait_book.hpp"
