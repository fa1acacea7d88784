// The repeats panel: read from the results document as written (results/merging/repeats.h), so a file read back by
// `openloop report` shows it as the run did.
#include "report/html/html_repeats.h"

#include <fmt/format.h>

#include "report/text_format.h"

namespace openloop::report::html {
namespace {

using nlohmann::json;

// A duration the file holds in milliseconds, written as the terminal's repeats block and the latency tables write
// durations (format_duration: "151µs", "2.5ms"), so the page and the terminal read alike.
std::string ms(const json& v) {
  return v.is_number() ? format_seconds(v.get<double>() / 1e3) : "–";
}

std::string repeat_rows(const json& repeats) {
  std::string out =
      "<table class=\"latency\" "
      "id=\"repeats\">\n<tr><th>repeat</th><th>seed</th><th>sent</th><th>verdict</th>"
      "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>lab reset</th></tr>\n";
  for (const json& r : repeats) {
    const json p = r.value("response_time_intervals", json::object());
    const auto cell = [&p](const char* name) {
      const json v = p.value(name, json::object());
      return fmt::format("{} [{} – {}]", ms(v.value("value_ms", json())), ms(v.value("low_ms", json())),
                         ms(v.value("high_ms", json())));
    };
    const json reset = r.value("lab_reset", json::object());
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</"
        "td>"
        "</tr>\n",
        r.value("repeat", 0), r.value("seed", std::uint64_t{0}),
        r.contains("summary") ? r["summary"]["counts"].value("sent", std::uint64_t{0}) : 0,
        r.contains("verdict") && r["verdict"].value("valid", false) ? "valid" : "INVALID", cell("p50"),
        cell("p90"), cell("p99"), cell("p99.9"), escape(reset.value("state", std::string("none"))));
  }
  return out + "</table>\n";
}

std::string spread_rows(const json& per) {
  std::string out =
      "<table class=\"latency\" id=\"repeat-spread\">\n<tr><th>response time</th><th>median of repeats</th>"
      "<th>min – max</th><th>interval for the median</th><th>within-run intervals covering the others' "
      "median</th></tr>\n";
  for (const auto& [name, s] : per.items()) {
    const json m = s.value("median_interval", json::object());
    const json w = s.value("within_run", json::object());
    const double confidence = m.value("confidence", 0.0);
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{} – {}</td><td>{} – {} ({:.1f} %{})</td><td>{}</td></tr>\n",
        escape(name), ms(s.value("median_ms", json())), ms(s.value("min_ms", json())),
        ms(s.value("max_ms", json())), ms(m.value("low_ms", json())), ms(m.value("high_ms", json())),
        100 * confidence, m.value("reaches_95", false) ? "" : ": too few repeats for 95 %",
        w.value("judged", false)
            ? fmt::format("{} of {}{}", w.value("covering", 0), w.value("repeats", 0),
                          w.value("dominated", false) ? " <span class=\"check-bad\">✗</span>" : "")
            : "not judged: " + escape(w.value("why_not", std::string())));
  }
  return out + "</table>\n";
}

}  // namespace

std::string repeats_section(const ReportInput& in) {
  const json& d = in.document;
  if (!d.is_object() || !d.contains("repeat_summary") || !d["repeat_summary"].is_object() ||
      !d.contains("repeats") || !d["repeats"].is_array()) {
    return {};
  }
  const json& s = d["repeat_summary"];
  std::string out = fmt::format(
      "<section class=\"panel\"><h2>Repeats</h2>\n<p>{} of {} repeats, {:g} s apart; the numbers above are "
      "every repeat's histograms added exactly.</p>\n",
      s.value("completed", 0), s.value("planned", 0), s.value("cooldown_s", 0.0));
  if (s.value("variation_dominates", false)) {
    out += fmt::format("<p class=\"check-bad\">{}</p>\n", escape(s.value("flag", std::string())));
  }
  out += repeat_rows(d["repeats"]);
  if (s.contains("response_time") && s["response_time"].is_object()) out += spread_rows(s["response_time"]);
  return out +
         "<p class=\"caption\">Each repeat's percentiles with their within-run 95 % intervals; across "
         "repeats, "
         "the median, the range and a distribution-free interval for the median from order statistics. "
         "Run-to-run variation dominates when fewer than half of the repeats' intervals contain the median "
         "of "
         "the others. See docs/statistics.md.</p>\n</section>\n";
}

}  // namespace openloop::report::html
