// The plan table of the HTML report: every option of a run as people read it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace openloop::report::html {

/// The plan's rows (<tr><th>option</th><td>value</td></tr>), in the order a run's options are read: durations
/// for
/// *_s fields, stages as "30s → 100/s", retry settings in the words of their flags, rows that only restate a
/// default left out, and for merged runs each option that differs with every run's value. One row "not
/// recorded" when `plan` is not an object or is empty. Every text is escaped.
std::string plan_rows(const nlohmann::json& plan);

}  // namespace openloop::report::html
