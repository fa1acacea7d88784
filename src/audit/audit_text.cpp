// The audit as text.
#include "audit/audit_text.h"

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::audit {
namespace {

std::string row(const char* name, const PercentileSet& p) {
  return fmt::format("  {:<12} p50 {:>9}  p90 {:>9}  p99 {:>9}  p99.9 {:>9}  max {:>9}  ({} samples)\n", name,
                     format_duration(p.p50), format_duration(p.p90), format_duration(p.p99),
                     format_duration(p.p999), format_duration(p.max), p.count);
}

}  // namespace

std::string render_text(const AuditResult& a) {
  std::string out = fmt::format("audit of {} ({}): {} requests, {} failed, over {}\n", a.path, a.tool,
                                a.records, a.failures, format_duration(a.span));
  if (a.bad.count > 0) out += fmt::format("  {} line(s) skipped; the first: {}\n", a.bad.count, a.bad.first);
  out += fmt::format("\nLoad model: {}\n  {}\n", load_model_name(a.model.model), a.model.evidence);
  const LittleFinding& l = a.little;
  out += fmt::format(
      "\nLittle's law: N = X·(R + Z) = {} × ({} + {}) = {:.1f} senders in the loop\n"
      "  X completions per second, R mean response time, Z mean think time ({}); requests in flight X·R = "
      "{:.1f}\n",
      format_rate(l.x_per_s), format_duration(l.r_mean), format_duration(l.z_mean), l.n, l.z_source,
      l.in_flight);
  out += fmt::format("\nFeedback: {}\n", a.feedback.sentence);
  const OmissionFinding& o = a.omission;
  out += "\nCoordinated omission:\n";
  if (o.uncorrected.count == 0) {
    out += "  no per-request times in this file\n";
  } else {
    out += row("as recorded", o.uncorrected);
  }
  if (o.applicable) {
    out += row("corrected", o.corrected);
    out += fmt::format("  expected interval {}: {}\n", format_duration(o.expected_interval), o.why);
    out += fmt::format(
        "  {} requests held their sender for 2 or more expected intervals; {} sends they kept from "
        "happening backfilled (HdrHistogram's recordValueWithExpectedInterval)\n",
        o.blocked, o.missing);
  } else {
    out += fmt::format("  no correction: {}\n", o.why);
  }
  if (a.lateness.applicable) {
    out += fmt::format("\nSend lateness ({}'s own, against its schedule):\n", a.tool);
    out += row("lateness", a.lateness.lateness);
    out += fmt::format("  {}\n  {}\n", a.lateness.sentence, a.lateness.why);
  }
  out += fmt::format("\nVerdict: {}\n", a.verdict);
  out += fmt::format("\nThe honest run (rate: {}):\n  {}\n", a.honest.rate_source, a.honest.command);
  if (!a.limits.empty()) {
    out += "\nLimits of this file:\n";
    for (const auto& s : a.limits) out += fmt::format("  - {}\n", s);
  }
  return out;
}

}  // namespace openloop::audit
