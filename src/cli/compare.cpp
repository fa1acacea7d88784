// `openloop compare`: a candidate run against a baseline, with confidence intervals from the histograms and
// --fail-on gates for CI.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "compare/compare_report.h"
#include "compare/comparison.h"
#include "compare/ramp_comparison.h"
#include "core/atomic_file.h"
#include "procedures/probe/probe_report.h"
#include "procedures/ramp/ramp_read.h"
#include "procedures/ramp/ramp_report.h"
#include "report/junit.h"
#include "report/report_input.h"

namespace openloop::cli {
namespace {

struct CompareOptions {
  std::string baseline, candidate;
  std::vector<std::string> fail_on;
  bool allow_different_plans = false;
  std::string inconclusive = "fail";
  std::string confidence = "95%";
  std::string percentiles = "50,90,99,99.9";
  std::string json, html, junit;
  bool quiet = false;
};

// The document of a ramp file (schema openloop.ramp/1), or nullopt for anything else (a results file, an
// .hlog). A probe's file holds many loads, not one run: say what compare takes instead.
Result<std::optional<nlohmann::json>> ramp_document(const std::string& path) {
  auto text = read_file(path);
  if (!text) return tl::unexpected(text.error());
  const std::size_t first = text->find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (*text)[first] != '{') return std::nullopt;
  nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("schema") || !doc["schema"].is_string()) return std::nullopt;
  const std::string schema = doc["schema"].get<std::string>();
  if (schema == procedures::k_probe_schema) {
    return usage_error(
        fmt::format("{}: is a {} file; compare takes two results files (run --json, merged shards "
                    "too), two .hlog files or two ramp files (ramp --json)",
                    path, schema));
  }
  if (schema == procedures::k_ramp_schema) return std::optional<nlohmann::json>(std::move(doc));
  return std::nullopt;
}

Result<double> parse_confidence(const std::string& text) {
  std::string s = text;
  const bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  double v = 0;
  try {
    std::size_t used = 0;
    v = std::stod(s, &used);
    if (used != s.size()) v = -1;
  } catch (const std::exception&) {
    v = -1;
  }
  if (percent) v /= 100;
  if (!(v >= 0.5 && v < 1)) {
    return usage_error(
        fmt::format("--confidence '{}': give a level from 50% up to below 100%, e.g. 95% or 0.99", text));
  }
  return v;
}

Result<std::vector<double>> parse_percentiles(const std::string& text) {
  std::vector<double> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    double v = -1;
    try {
      std::size_t used = 0;
      v = std::stod(item, &used);
      if (used != item.size()) v = -1;
    } catch (const std::exception&) {
      v = -1;
    }
    if (!(v > 0 && v < 100)) {
      return usage_error(
          fmt::format("--percentiles '{}': '{}' is not a percentile above 0 and below 100; give a "
                      "comma-separated list such as 50,90,99,99.9",
                      text, item));
    }
    out.push_back(v);
    start = comma + 1;
  }
  return out;
}

Result<compare::CompareSettings> settings_from(const CompareOptions& o) {
  compare::CompareSettings s;
  s.confidence = OPENLOOP_TRY(parse_confidence(o.confidence));
  s.percentiles = OPENLOOP_TRY(parse_percentiles(o.percentiles));
  for (const std::string& g : o.fail_on) s.gates.push_back(OPENLOOP_TRY(compare::parse_fail_on(g)));
  s.inconclusive = OPENLOOP_TRY(compare::parse_inconclusive_policy(o.inconclusive));
  s.allow_different_plans = o.allow_different_plans;
  return s;
}

// Writes `content` to `path` (nothing when empty); a failure is reported and becomes the exit code.
void write_output(const std::string& path, const std::string& content, int& code) {
  if (path.empty()) return;
  if (auto w = write_file_atomically(path, content); !w) {
    fmt::print(stderr, "openloop compare: {}\n", w.error().message);
    code = static_cast<int>(w.error().code);
  }
}

Result<int> compare_ramp_files(const CompareOptions& o, const compare::CompareSettings& settings,
                               const nlohmann::json& baseline_doc, const nlohmann::json& candidate_doc) {
  const procedures::ReadRamp baseline = OPENLOOP_TRY(procedures::ramp_from_json(baseline_doc, o.baseline));
  const procedures::ReadRamp candidate = OPENLOOP_TRY(procedures::ramp_from_json(candidate_doc, o.candidate));
  const compare::RampComparison c =
      OPENLOOP_TRY(compare::compare_ramps(baseline, candidate, o.baseline, o.candidate, settings));
  if (!o.quiet) std::fputs(compare::render_ramp_text(c).c_str(), stdout);
  int code = c.failed() ? static_cast<int>(ExitCode::slo_failed) : 0;
  write_output(o.json, compare::ramp_comparison_json(c).dump(1) + "\n", code);
  write_output(o.html, compare::render_ramp_compare_html(c), code);
  write_output(o.junit, report::render_junit(compare::junit_for_ramp_compare(c)), code);
  return code;
}

Result<int> compare_command(const CompareOptions& o) {
  const compare::CompareSettings settings = OPENLOOP_TRY(settings_from(o));
  const std::pair<const std::string*, const char*> outputs[] = {
      {&o.json, "--json"}, {&o.html, "--html"}, {&o.junit, "--junit"}};
  for (const auto& [path, flag] : outputs) {
    if (!path->empty()) OPENLOOP_TRY_VOID(check_output_path(*path, flag));
  }
  const auto baseline_ramp = OPENLOOP_TRY(ramp_document(o.baseline));
  const auto candidate_ramp = OPENLOOP_TRY(ramp_document(o.candidate));
  if (baseline_ramp.has_value() != candidate_ramp.has_value()) {
    return usage_error(
        fmt::format("{} is a ramp file and {} is not: a ramp compares with a ramp (capacity and knees), a "
                    "run with a run; "
                    "give two of a kind",
                    baseline_ramp ? o.baseline : o.candidate, baseline_ramp ? o.candidate : o.baseline));
  }
  if (baseline_ramp) return compare_ramp_files(o, settings, *baseline_ramp, *candidate_ramp);
  const report::ReportInput baseline = OPENLOOP_TRY(report::load_report_input(o.baseline));
  const report::ReportInput candidate = OPENLOOP_TRY(report::load_report_input(o.candidate));
  const compare::Comparison c = OPENLOOP_TRY(compare::compare_runs(baseline, candidate, settings));
  if (!o.quiet) std::fputs(compare::render_text(c).c_str(), stdout);
  int code = c.failed() ? static_cast<int>(ExitCode::slo_failed) : 0;
  write_output(o.json, compare::to_json(c).dump(1) + "\n", code);
  write_output(o.html, compare::render_html(c), code);
  write_output(o.junit, report::render_junit(compare::junit_for_compare(c)), code);
  return code;
}

}  // namespace

Action setup_compare(CLI::App& sub) {
  auto o = std::make_shared<CompareOptions>();
  sub.add_option("BASELINE", o->baseline,
                 "The reference: a results file (run --json; merged shards too), an .hlog or a ramp file "
                 "(ramp --json: capacity and knees compared)")
      ->required()
      ->type_name("");
  sub.add_option(
         "CANDIDATE", o->candidate,
         "The run judged against it: of the baseline's kind (a results file or an .hlog; a ramp file)")
      ->required()
      ->type_name("");
  sub.footer(
      "Here exit 1 means a --fail-on gate failed (its whole interval past its bound) or was inconclusive "
      "(the interval holds the bound) under --inconclusive fail; see docs/compare.md.");
  sub.add_option("--fail-on", o->fail_on,
                 "Exit 1 when this change is past its bound over its whole interval, e.g. 'p99>+10%', "
                 "'goodput<-1%', 'errors>+0.5%' (points of intended), 'timeouts>0%' (any significant rise); on "
                 "two ramp files 'capacity<-5%'; repeatable")
      ->type_name("GATE");
  sub.add_option("--inconclusive", o->inconclusive,
                 "What a gate whose interval holds its bound counts as: fail (default: a CI threshold fails "
                 "the build unless the data show the change within it) or pass; it prints how much longer "
                 "runs would decide")
      ->type_name("fail|pass");
  sub.add_flag("--allow-different-plans", o->allow_different_plans,
               "Compare runs whose plans differ (refused otherwise: exit 2 naming both)");
  sub.add_option("--confidence", o->confidence,
                 "Probability that every interval shown holds its true change at once (default 95%)")
      ->type_name("LEVEL");
  sub.add_option("--percentiles", o->percentiles,
                 "Response-time percentiles compared (default 50,90,99,99.9)")
      ->type_name("LIST");
  sub.add_option("--json", o->json, "Write the comparison as JSON (openloop.compare/1)")->type_name("FILE");
  sub.add_option("--html", o->html, "Write a page with both response-time distributions overlaid")
      ->type_name("FILE");
  sub.add_option("--junit", o->junit, "Write a JUnit XML report: one test case per --fail-on")
      ->type_name("FILE");
  sub.add_flag("-q,--quiet", o->quiet, "Print nothing (outputs and the exit code still say it all)");
  return [o] {
    auto code = compare_command(*o);
    if (!code) {
      fmt::print(stderr, "openloop compare: {}\n", code.error().message);
      return static_cast<int>(code.error().code);
    }
    return *code;
  };
}

}  // namespace openloop::cli
