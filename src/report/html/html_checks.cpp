// The self-checks panel: one table per check, every statistic beside its critical value.
#include "report/html/html_checks.h"

#include <cmath>

#include <fmt/format.h>

#include "core/units.h"
#include "report/html/html_sections.h"
#include "report/text_format.h"

namespace openloop::report::html {

namespace {
std::string bound(const std::optional<std::int64_t>& v) {
  return v ? format_latency(*v) : "–";
}
std::string mark(bool ok) {
  return ok ? "<span class=\"check-ok\">✓</span>" : "<span class=\"check-bad\">✗</span>";
}

std::string arrivals_table(const results::ArrivalCheck& a) {
  if (!a.tested) return fmt::format("<p>Arrival process not tested: {}.</p>\n", escape(a.why_not));
  std::string out = fmt::format(
      "<p>Arrival process ({}): each worker's issue times against its lane of the plan{}.</p>\n"
      "<table class=\"latency\" id=\"arrival-checks\">\n<tr><th>worker</th><th>test</th><th>gaps</th>"
      "<th>statistic</th><th>critical</th><th>at its own rate</th><th>gaps bunched</th><th>plan</th>"
      "<th></th></tr>\n",
      escape(a.process), a.accepted ? " (--accept-bunching: a failure is reported, not judged)" : "");
  for (const auto& l : a.lanes) {
    const std::string own =
        l.own_rate_statistic && l.own_rate_critical
            ? fmt::format("{:.3g} (≤ {:.3g})", *l.own_rate_statistic, *l.own_rate_critical)
            : "–";
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.3g}</td><td>{:.3g}{}</td><td>{}</td><td>{:.1f} % "
        "(under {})</td><td>{:.1f} %</td><td>{}</td></tr>\n",
        l.worker, l.test == "dispersion" ? "gap dispersion" : "Anderson-Darling A²", l.tested, l.statistic,
        l.critical, l.test == "dispersion" ? " lateness bounds" : fmt::format(" at {}", escape(a.level)), own,
        100 * l.bunched, format_latency(static_cast<std::int64_t>(l.bunch_below_ns)), 100 * l.planned_bunched,
        mark(l.passed));
  }
  out += "</table>\n";
  if (!a.passed()) out += fmt::format("<p class=\"check-bad\">{}</p>\n", escape(a.failure()));
  return out;
}

std::string independence_paragraph(const results::IndependenceCheck& i) {
  if (!i.tested) return "<p>Independence not tested (fewer than 100 response times).</p>\n";
  // Rounded as the terminal's checks line rounds it (results::checks_line), so both say the same number.
  const auto effective =
      static_cast<std::uint64_t>(std::llround(i.effective_fraction * static_cast<double>(i.samples)));
  if (!i.correlated())
    return fmt::format(
        "<p>Independence {}: rank autocorrelation at lag 1 {:.3f} (indistinguishable from 0 below {:.3f}); "
        "effective sample size {} of {}.</p>\n",
        mark(true), i.lag1, i.threshold, effective, i.samples);
  return fmt::format(
      "<p>Independence {}: response times in send order stay correlated up to lag {}{} (rank autocorrelation "
      "at lag 1 {:.3f}), so {} samples are worth about {} independent ones: the intervals below are {:.2g}× "
      "wider than independence would make them.</p>\n",
      mark(false), i.vanished ? "" : "beyond ", i.vanished ? i.vanish_lag : i.vanish_lag - 1, i.lag1,
      i.samples, effective, i.widening());
}

std::string intervals_table(const std::vector<results::PercentileInterval>& rt) {
  if (rt.empty()) return {};
  std::string out =
      "<table class=\"latency\" id=\"percentile-intervals\">\n<tr><th>response time</th><th>value</th>"
      "<th>95 % interval (effective n)</th><th>± %</th><th>as if independent</th><th>effective n</th></tr>\n";
  for (const auto& p : rt) {
    const auto w = p.relative_half_width();
    out += fmt::format(
        "<tr><td>p{:g}</td><td>{}</td><td>{} – {}</td><td>{}</td><td>{} – {}</td><td>{:.0f}</td></tr>\n",
        p.percentile, format_latency(p.value), bound(p.low), bound(p.high),
        w ? fmt::format("{:.1f}", *w * 100) : "–", bound(p.naive_low), bound(p.naive_high),
        p.effective_count);
  }
  return out + "</table>\n";
}
}  // namespace

std::string checks_section(const ReportInput& in) {
  const results::RunChecks& c = in.results.checks;
  if (c.empty()) return {};
  return "<section class=\"panel\"><h2>Self-checks: can these numbers be trusted?</h2>\n" +
         arrivals_table(c.arrivals) + independence_paragraph(c.independence) +
         intervals_table(c.response_time) +
         "<p class=\"caption\">The arrival test maps each gap between a worker's sends through the "
         "distribution "
         "its plan gives it (Poisson: Anderson-Darling, Stephens' critical values; constant: the spread of "
         "achieved − planned gaps in units of the lateness bound). Intervals are distribution-free, from "
         "order "
         "statistics, on the effective sample size the autocorrelation allows; a side is – when too few "
         "samples "
         "bound it. See docs/statistics.md.</p>\n</section>\n";
}

}  // namespace openloop::report::html
