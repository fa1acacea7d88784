// `openloop report`: re-renders a results file or an .hlog as text, JSON, CSV, .hgrm, HTML or .hlog, nothing
// re-run.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "report/csv.h"
#include "report/hgrm.h"
#include "report/hlog_export.h"
#include "report/html.h"
#include "report/report_input.h"
#include "report/summary.h"
#include "results/results_json.h"

namespace openloop::cli {
namespace {

struct ReportOptions {
  std::string file;
  std::string format = "text";
  std::string output;
  report::HgrmOptions hgrm;
};

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

int report_command(const ReportOptions& o) {
  auto in = report::load_report_input(o.file);
  if (!in) {
    fmt::print(stderr, "openloop report: {}\n", in.error().message);
    return static_cast<int>(in.error().code);
  }
  auto text = render(*in, o);
  if (!text) {
    fmt::print(stderr, "openloop report: {}\n", text.error().message);
    return static_cast<int>(text.error().code);
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
  sub.add_option("file", o->file, "A results file (run --json) or an HdrHistogram interval log (.hlog)")
      ->required();
  sub.add_option(
         "-f,--format", o->format,
         "text (the run summary) | json (re-emit) | csv (interval series) | hgrm (percentile spectrum, as "
         "HdrHistogram's Java tools print it) | html (self-contained report) | hlog (interval log)")
      ->capture_default_str();
  sub.add_option("-o,--output", o->output, "Write to FILE (atomically) instead of standard output");
  sub.add_option(
         "--tag,--histogram", o->hgrm.tag,
         "hgrm: which histogram, response_time | service_time | send_lateness (or any tag of an .hlog)")
      ->capture_default_str();
  sub.add_option("--ticks-per-half", o->hgrm.ticks_per_half_distance,
                 "hgrm: percentile ticks per half distance to 100% (Java's percentilesOutputTicksPerHalf)")
      ->capture_default_str();
  sub.add_option(
         "--unit-ratio", o->hgrm.value_unit_ratio,
         "hgrm: divide values (ns) by this: 1e6 prints ms, 1e3 µs, 1 ns (Java's outputValueUnitRatio)")
      ->capture_default_str();
  return [o] { return report_command(*o); };
}

}  // namespace openloop::cli
