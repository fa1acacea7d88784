// Parsing and formatting of the units users type: rates ("500/s", "30000/m") and durations ("250ms",
// "1h30m").
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"
#include "core/time.h"

namespace openloop {

/// Parses a rate in requests per second: "500", "500/s", "30000/m", "2.5/s", "1/h". Must be ≥ 0 and finite.
/// `what` names the input in the error (e.g. "--rate"); the error says what is accepted. Exit code usage.
Result<double> parse_rate(std::string_view text, std::string_view what);

/// Parses a duration: "250ms", "30s", "2m", "1h30m", "1.5s", "500us", "100ns", "0". A bare number is refused
/// (ambiguous) except "0". Negative values are refused. `what` names the input in the error.
Result<Nanos> parse_duration(std::string_view text, std::string_view what);

/// Human-readable duration for output: "0", "850ns", "12.3µs", "4.56ms", "1.23s", "2m30s".
std::string format_duration(Nanos d);

/// Human-readable rate: "500/s", "12.5/s".
std::string format_rate(double per_second);

}  // namespace openloop
