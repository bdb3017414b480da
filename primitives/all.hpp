// Every primitive header, so that one include makes every template of SYNCSTRESS_PRIMITIVES
// (primitives/catalog.hpp) visible.
#pragma once

#include "primitives/async_unfair_mutex.hpp"
#include "primitives/awaitable_events.hpp"
#include "primitives/awaitable_library.hpp"
#include "primitives/awaitable_semaphore.hpp"
#include "primitives/catalog.hpp"
#include "primitives/cooperative_semaphore.hpp"
#include "primitives/locked_work_queue.hpp"
#include "primitives/platform_events.hpp"
#include "primitives/platform_mutex.hpp"
#include "primitives/shared_mutex_part8.hpp"
#include "primitives/shared_mutex_part9.hpp"
#include "primitives/ticket_mutex.hpp"
#include "primitives/ticket_shared_mutex.hpp"
#include "primitives/wait_on_address_semaphore.hpp"
#include "primitives/work_queue.hpp"
