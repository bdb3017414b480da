// A family's body bound on the real platform, for stress mode: bind_body on Real, except the
// cancellation family for a primitive that only takes a raw destroy. On real threads the
// canceller's look at a waiter and its destroy are not one step, so the waiter may be resumed
// in between, and destroying it then would be the harness's use-after-free (on sim the look and
// the destroy are one step).
#pragma once

#include <cstdint>
#include <optional>

#include "backends/stress/on_real.hpp"
#include "platform/real.hpp"
#include "primitives/awaitable_library.hpp"  // cancellable_by_request
#include "scenarios/bind_body.hpp"

namespace syncstress::scenarios {

template <template <class> class Tmpl, Kind K, Mode M>
std::optional<Body> bind_on_real(Family family, std::uint32_t claims) {
  if (family == Family::cancellation && !cancellable_by_request<Tmpl<Real>>) return std::nullopt;
  return bind_body<Real, Tmpl, K, M>(family, claims);
}

}  // namespace syncstress::scenarios
