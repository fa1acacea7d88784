// Reading a probe's JSON document (openloop.probe/1) back, so `openloop report` can re-render its terminal
// report and its HTML page.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "procedures/probe/probe_report.h"

namespace openloop::procedures {

/// Rebuilds a probe's report from its document (probe_json()): the settings (laid out again by
/// make_probe_plan()), and per run its full results (read as results files are), the lab's samples and calls,
/// the baseline's SLOs and the outcome as the probe concluded it (verdict, sentence, phases with their
/// stats, signals, notes, recovery window), so render_probe_text() and render_probe_html() print what the
/// probe printed. Nothing is judged again: the probe's conclusion rests on facts the file does not hold (its
/// own stop after recovering, a lab call that failed). Errors (usage) name `source` and the JSON path of a
/// missing or bad value, or the run whose results do not read.
Result<ProbeReport> probe_from_json(const nlohmann::json& doc, std::string_view source);

}  // namespace openloop::procedures
