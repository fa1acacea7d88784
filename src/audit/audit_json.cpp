// The audit as JSON.
#include "audit/audit_json.h"

namespace openloop::audit {
namespace {

nlohmann::json percentiles_json(const PercentileSet& p) {
  return {{"count", p.count},           {"p50_s", to_seconds(p.p50)},    {"p90_s", to_seconds(p.p90)},
          {"p99_s", to_seconds(p.p99)}, {"p99_9_s", to_seconds(p.p999)}, {"max_s", to_seconds(p.max)}};
}

}  // namespace

nlohmann::json to_json(const AuditResult& a) {
  nlohmann::json bins = nlohmann::json::array();
  for (const FeedbackBin& b : a.feedback.bins) {
    bins.push_back({{"offset_s", to_seconds(b.offset)},
                    {"sent", b.sent},
                    {"sent_per_s", b.sent_per_s},
                    {"p99_s", b.sent > 0 ? nlohmann::json(to_seconds(b.p99)) : nlohmann::json()}});
  }
  const ModelFinding& m = a.model;
  const LittleFinding& l = a.little;
  const FeedbackFinding& f = a.feedback;
  const OmissionFinding& o = a.omission;
  nlohmann::json omission = {{"applicable", o.applicable},
                             {"why", o.why},
                             {"expected_interval_s", to_seconds(o.expected_interval)},
                             {"blocked", o.blocked},
                             {"missing", o.missing},
                             {"uncorrected", percentiles_json(o.uncorrected)}};
  if (o.applicable) omission["corrected"] = percentiles_json(o.corrected);
  const SendLatenessFinding& sl = a.lateness;
  nlohmann::json lateness = {{"applicable", sl.applicable}, {"why", sl.why}};
  if (sl.applicable) {
    lateness["interval_s"] = to_seconds(sl.interval);
    lateness["rate_per_s"] = sl.rate;
    lateness["late_over_interval"] = sl.late_over_interval;
    lateness["lateness"] = percentiles_json(sl.lateness);
    lateness["sentence"] = sl.sentence;
  }
  return {
      {"schema", k_audit_schema},
      {"file", a.path},
      {"tool", a.tool},
      {"records", a.records},
      {"failures", a.failures},
      {"bad_lines", {{"count", a.bad.count}, {"first", a.bad.first}}},
      {"out_of_order", a.out_of_order},
      {"span_s", to_seconds(a.span)},
      {"model",
       {{"model", load_model_name(m.model)},
        {"evidence", m.evidence},
        {"senders", m.senders},
        {"pairs", m.pairs},
        {"back_to_back_share", m.back_to_back_share},
        {"overlap_share", m.overlap_share},
        {"think_response_slope", m.think_response_slope}}},
      {"little",
       {{"n", l.n},
        {"x_per_s", l.x_per_s},
        {"r_s", to_seconds(l.r_mean)},
        {"z_s", to_seconds(l.z_mean)},
        {"z_source", l.z_source},
        {"in_flight", l.in_flight}}},
      {"feedback",
       {{"seen", f.seen},
        {"sentence", f.sentence},
        {"bin_width_s", to_seconds(f.bin_width)},
        {"healthy_rate_per_s", f.healthy_rate},
        {"slow_rate_per_s", f.worst_rate},
        {"healthy_p99_s", to_seconds(f.healthy_p99)},
        {"slow_p99_s", to_seconds(f.worst_p99)},
        {"bins", bins}}},
      {"omission", omission},
      {"send_lateness", lateness},
      {"honest_run",
       {{"rate_per_s", a.honest.rate},
        {"rate_source", a.honest.rate_source},
        {"duration_s", to_seconds(a.honest.duration)},
        {"command", a.honest.command}}},
      {"verdict", a.verdict},
      {"limits", a.limits},
  };
}

}  // namespace openloop::audit
