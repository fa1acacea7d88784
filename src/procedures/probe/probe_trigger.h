// What pushes the system out of its steady state in a metastable probe: a load spike, a lab stall, or a
// slower lab dependency; and the lab configuration each lab trigger applies and restores.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/time.h"

namespace openloop::procedures {

/// A parsed --trigger.
struct Trigger {
  enum class Kind : std::uint8_t { load, stall, dependency };
  Kind kind = Kind::load;
  std::string text;     ///< as given
  double rate = 0;      ///< load: offered requests/s during the trigger phase
  Nanos length{0};      ///< stall:D: the stall's length (0 for a bare "stall": the trigger phase's length)
  Nanos dependency{0};  ///< dependency: the amount
  /// dependency:+D raises the current dependency time by D; dependency:D sets it to D.
  bool relative = false;

  /// True when the trigger acts through the lab's control endpoint (stall, dependency).
  bool needs_lab() const { return kind != Kind::load; }
};

/// Parses "load:600/s", "stall", "stall:10s", "dependency:+500ms" or "dependency:800ms". Errors (usage) quote
/// the text, name `what` and list the accepted forms.
Result<Trigger> parse_trigger(std::string_view text, std::string_view what = "--trigger");

/// The lab's dependency setting during a dependency trigger, given the current one in flag syntax ("" or
/// "none": no dependency). Relative (+D): a constant c becomes c + D, uniform lo..hi becomes lo+D..hi+D, exp
/// and lognormal keep their shape with the mean raised by D, none becomes the constant D. Absolute: D. Errors
/// (usage) when the current text does not parse.
Result<std::string> dependency_during(std::string_view current, const Trigger& t);

/// The "stall-at" list that adds a stall of `length` starting at lab time `uptime` (the lab's GET /_lab/stats
/// uptime_s) to the one-off stalls already configured (`current`: the config's "stall-at" array).
nlohmann::json stall_list_with(const nlohmann::json& current, Nanos uptime, Nanos length);

/// Describes what the trigger does, e.g. "offered 600/s", "lab stalled for 10s", "lab dependency +500ms".
std::string describe(const Trigger& t, Nanos trigger_for);

}  // namespace openloop::procedures
