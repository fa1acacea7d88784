// `openloop report`: re-renders a results file or an .hlog as text, JSON, CSV, .hgrm, HTML or .hlog, nothing
// re-run.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "procedures/probe/probe_read.h"
#include "procedures/probe/probe_report.h"
#include "observe/ramp_observed.h"
#include "procedures/ramp/ramp_read.h"
#include "procedures/ramp/ramp_report.h"
#include "report/csv.h"
#include "report/hgrm.h"
#include "report/hlog_export.h"
#include "report/html/html.h"
#include "report/observed_summary.h"
#include "report/report_input.h"
#include "report/summary.h"
#include "results/files/results_json.h"

namespace openloop::cli {
namespace {

struct ReportOptions {
  std::string file;
  std::string format = "text";
  std::string output;
  std::string html;  ///< --html FILE: the HTML page too, beside the format printed
  report::HgrmOptions hgrm;
  std::vector<const CLI::Option*> hgrm_only;  ///< --tag, --ticks-per-half, --unit-ratio: --format hgrm only
};

// The hgrm options change nothing in another format: refuse them rather than ignore them.
Result<void> refuse_hgrm_only(const ReportOptions& o) {
  if (o.format == "hgrm") return {};
  for (const CLI::Option* opt : o.hgrm_only) {
    if (opt->count() == 0) continue;
    return usage_error(fmt::format(
        "{}: applies to --format hgrm only (one histogram's percentile spectrum); --format {} shows every "
        "histogram and has no use for it",
        opt->get_name(), o.format));
  }
  return {};
}

Result<std::string> render(const report::ReportInput& in, const ReportOptions& o) {
  if (o.format == "text") return report::render_summary(in);
  if (o.format == "csv") return report::render_csv(in);
  if (o.format == "hgrm") return report::render_hgrm(in, o.hgrm);
  if (o.format == "html") return report::render_html(in);
  if (o.format == "json" || o.format == "hlog") {
    if (!in.has_counts) {
      return usage_error(
          fmt::format("--format {}: needs a results JSON; {} is an .hlog, which holds latency "
                      "histograms only",
                      o.format, in.source));
    }
    if (o.format == "hlog") return report::render_interval_log(in.results);
    return (in.document.is_null() ? results::to_json(in.results) : in.document).dump(1) + "\n";
  }
  return usage_error(
      fmt::format("--format: \"{}\" is not a format; use text, json, csv, hgrm, html or hlog", o.format));
}

// The schema of a JSON document at `path`, or "" (not JSON, or no schema: the results reader says why).
std::string schema_of(const std::string& path, nlohmann::json& doc) {
  auto text = read_file(path);
  if (!text) return {};
  const std::size_t first = text->find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (*text)[first] != '{') return {};
  doc = nlohmann::json::parse(*text, nullptr, false);
  return doc.is_object() ? doc.value("schema", std::string()) : std::string();
}

// A ramp's file (openloop.ramp/1): its table and findings (text), its report (html) or itself (json); each
// step judged again from the runs it holds.
Result<std::string> render_ramp(const nlohmann::json& doc, const ReportOptions& o) {
  if (o.format != "text" && o.format != "html" && o.format != "json") {
    return usage_error(
        fmt::format("--format {}: a ramp file ({}) renders as text, html or json; for one run's "
                    "{}, take it from a `run --json` file",
                    o.format, o.file, o.format));
  }
  if (o.format == "json") return doc.dump(1) + "\n";
  const procedures::ReadRamp ramp = OPENLOOP_TRY(procedures::ramp_from_json(doc, o.file));
  if (o.format == "text") {
    // As the ramp printed it: the table and findings, then what was observed at its steps.
    return procedures::render_ramp_summary(ramp.outcome, ramp.settings) +
           observe::render_ramp_observed(ramp.outcome);
  }
  return procedures::render_ramp_html(ramp.outcome, ramp.settings, o.file);
}

// A probe's file (openloop.probe/1): its phase tables and verdict (text), its report (html) or itself (json);
// the outcome as the probe concluded it (procedures/probe_read.h).
Result<std::string> render_probe(const nlohmann::json& doc, const ReportOptions& o) {
  if (o.format != "text" && o.format != "html" && o.format != "json") {
    return usage_error(
        fmt::format("--format {}: a probe file ({}) renders as text, html or json; for one run's "
                    "{}, extract its results (jq '.runs[0].results') and report that",
                    o.format, o.file, o.format));
  }
  if (o.format == "json") return doc.dump(1) + "\n";
  const procedures::ProbeReport probe = OPENLOOP_TRY(procedures::probe_from_json(doc, o.file));
  if (o.format == "text") {
    std::vector<const results::RunResults*> runs;
    for (const auto& run : probe.runs) runs.push_back(&run.results);
    return procedures::render_probe_text(probe) + report::render_observed_runs(runs);
  }
  return procedures::render_probe_html(probe);
}

Result<std::string> render_file(const ReportOptions& o) {
  nlohmann::json doc;
  const std::string schema = schema_of(o.file, doc);
  if (schema == procedures::k_ramp_schema) return render_ramp(doc, o);
  if (schema == procedures::k_probe_schema) return render_probe(doc, o);
  const report::ReportInput in = OPENLOOP_TRY(report::load_report_input(o.file));
  return render(in, o);
}

int report_command(const ReportOptions& o) {
  if (auto refused = refuse_hgrm_only(o); !refused) {
    fmt::print(stderr, "openloop report: {}\n", refused.error().message);
    return static_cast<int>(refused.error().code);
  }
  auto text = render_file(o);
  if (!text) {
    fmt::print(stderr, "openloop report: {}\n", text.error().message);
    return static_cast<int>(text.error().code);
  }
  if (!o.html.empty()) {
    ReportOptions as_html = o;
    as_html.format = "html";
    auto page = render_file(as_html);
    auto written = page ? write_file_atomically(o.html, *page) : Result<void>(tl::unexpected(page.error()));
    if (!written) {
      fmt::print(stderr, "openloop report: --html {}: {}\n", o.html, written.error().message);
      return static_cast<int>(written.error().code);
    }
  }
  if (o.output.empty() || o.output == "-") {
    std::fwrite(text->data(), 1, text->size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : static_cast<int>(ExitCode::runtime);
  }
  if (auto written = write_file_atomically(o.output, *text); !written) {
    fmt::print(stderr, "openloop report: {}\n", written.error().message);
    return static_cast<int>(written.error().code);
  }
  return 0;
}

}  // namespace

Action setup_report(CLI::App& sub) {
  auto o = std::make_shared<ReportOptions>();
  sub.add_option(
         "FILE", o->file,
         "A results file (run --json), an HdrHistogram interval log (.hlog), or a ramp's or a probe's "
         "file (ramp --json, probe metastable --json: text, html, json)")
      ->required()
      ->type_name("");
  sub.add_option(
         "-f,--format", o->format,
         "text (the run summary) | json (re-emit) | csv (interval series) | hgrm (percentile spectrum, as "
         "HdrHistogram's Java tools print it) | html (self-contained report) | hlog (interval log)")
      ->capture_default_str()
      ->type_name("FORMAT");
  sub.add_option("-o,--output", o->output, "Write to FILE (atomically) instead of standard output")
      ->type_name("FILE");
  sub.add_option("--html", o->html,
                 "Also write the self-contained HTML report to FILE (atomically), as run, ramp and probe do; "
                 "the --format still goes to standard output or -o")
      ->type_name("FILE");
  o->hgrm_only.push_back(
      sub.add_option("--tag,--histogram", o->hgrm.tag,
                     "Which histogram: response_time | service_time | send_lateness (or any tag of an .hlog)")
          ->capture_default_str()
          ->type_name("TAG")
          ->group("With --format hgrm"));
  o->hgrm_only.push_back(
      sub.add_option("--ticks-per-half", o->hgrm.ticks_per_half_distance,
                     "Percentile ticks per half distance to 100% (Java's percentilesOutputTicksPerHalf)")
          ->capture_default_str()
          ->type_name("N")
          ->group("With --format hgrm"));
  o->hgrm_only.push_back(
      sub.add_option("--unit-ratio", o->hgrm.value_unit_ratio,
                     "Divide values (ns) by this: 1e6 prints ms, 1e3 µs, 1 ns (Java's outputValueUnitRatio)")
          ->capture_default_str()
          ->type_name("RATIO")
          ->group("With --format hgrm"));
  return [o] { return report_command(*o); };
}

}  // namespace openloop::cli
