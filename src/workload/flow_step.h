// What a flow step does with its response beyond counting it: the values it captures into the session's
// variables, the checks the response must pass, and what a failure does to the session.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "workload/json_path.h"
#include "workload/regex.h"
#include "workload/request_template.h"

namespace openloop::workload {

/// Where a captured value comes from.
enum class CaptureSource : std::uint8_t { json, header, cookie, regex, status, body };

/// `capture: [{as: token, json: $.data.token}, ...]`: one value into the session's variable `variable`.
struct Capture {
  std::string as;             ///< the variable's name, read as {{as}} by later steps
  std::size_t variable = 0;   ///< its index in the plan's VariableSet (a GeneratorKind::captured variable)
  CaptureSource source = CaptureSource::status;
  std::string name;           ///< the header or cookie name (header: as written; matched case-insensitively)
  std::optional<JsonPath> json;
  std::shared_ptr<const Regex> regex;
  std::uint32_t group = 0;  ///< regex: the group whose text is the value (0: the whole match)
  /// regex: which match: 0 = the first, k_last = the last, N = the Nth (1-based, JMeter's match number).
  std::uint32_t match = 1;
  static constexpr std::uint32_t k_last = 0;
  std::optional<std::string> fallback;  ///< `default:` the value when nothing matches (the capture then holds)
  std::string where;                    ///< "plan.yaml:12:9: scenarios.shop.steps[1].capture[1]"
};

/// What a check asks of a response.
enum class CheckKind : std::uint8_t { status, json, body_contains, header };
/// How a json or header check judges the value it finds.
enum class CheckTest : std::uint8_t { exists, equals, matches };

/// `check: [{status: 200-299}, {json: $.ok, equals: true}, ...]`.
struct Check {
  CheckKind kind = CheckKind::status;
  StatusRange status{200, 299};
  std::optional<JsonPath> json;
  CheckTest test = CheckTest::exists;
  bool exists = true;  ///< json exists: true (present) or false (absent)
  std::string text;    ///< json equals: the expected value as text; body_contains: the text; header: the name
  std::shared_ptr<const Regex> regex;  ///< matches:
  std::string label;                   ///< e.g. "json $.ok equals true", for counts and messages
  std::string where;
};

/// What a failed capture or check does: stop the session (or the closed user's iteration), or carry on.
enum class OnFail : std::uint8_t { stop, next };

/// A step's captures, checks and failure rule (all empty for a plain step).
struct StepFlow {
  std::vector<Capture> captures;
  std::vector<Check> checks;
  OnFail on_fail = OnFail::stop;
  bool empty() const { return captures.empty() && checks.empty(); }
};

}  // namespace openloop::workload
