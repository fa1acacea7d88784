// Reading a client's remaining budget from the deadline header ("250ms", "1.5s", or bare milliseconds).
#pragma once

#include <optional>
#include <string_view>

#include "core/time.h"

namespace openloop::lab {

/// Parses a relative budget: a non-negative decimal number with an optional unit ns, us, ms, s (no unit means
/// milliseconds, as in X-Request-Timeout-Ms style headers). Surrounding spaces are ignored. Returns nullopt
/// for anything else. Does not allocate (it runs for every request that carries the header).
std::optional<Nanos> parse_budget(std::string_view text);

}  // namespace openloop::lab
