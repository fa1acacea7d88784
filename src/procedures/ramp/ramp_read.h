// Reading a ramp's JSON document (openloop.ramp/1) back, so `openloop report` can re-render its table and
// HTML.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "procedures/ramp/ramp_plan.h"
#include "procedures/ramp/ramp_runner.h"

namespace openloop::procedures {

/// A ramp as read back: what render_ramp_summary() and render_ramp_html() need.
struct ReadRamp {
  RampOutcome outcome;
  RampSettings settings;
};

/// Rebuilds a ramp from its document (ramp_to_json()): the settings, every run's full results (read as
/// results files are), and each step judged again on its window of its run (judge_step(), as the ramp did),
/// then the findings (analyse_ramp()); `stopped`, `notes` and `interrupted` are taken as written. Errors
/// (usage) name `source` and the JSON path of a missing or bad value, or the run that does not read.
Result<ReadRamp> ramp_from_json(const nlohmann::json& doc, std::string_view source);

}  // namespace openloop::procedures
