// Hand-encoded protobuf (metrics.proto of prometheus/client_model): varints, length-delimited fields,
// doubles.
#include "report/metrics_protobuf.h"

#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>

namespace openloop::report {

NativeBuckets native_buckets(const hdr::Histogram& h, int schema) {
  NativeBuckets nb;
  nb.schema = schema;
  std::map<std::int32_t, std::uint64_t> counts;
  const double scale = std::ldexp(1.0, schema);
  for (std::int32_t i = 0; i < h.counts_length(); ++i) {
    const std::int64_t c = h.count_at_index(i);
    if (c <= 0) continue;
    const std::int64_t mid = h.median_equivalent(h.value_from_index(i));
    if (mid <= 0) {
      nb.zero_count += static_cast<std::uint64_t>(c);
      continue;
    }
    const double seconds = static_cast<double>(mid) / 1e9;
    const auto index = static_cast<std::int32_t>(std::ceil(std::log2(seconds) * scale));
    counts[index] += static_cast<std::uint64_t>(c);
  }
  nb.buckets.assign(counts.begin(), counts.end());
  return nb;
}

namespace {

// Protobuf wire format.
void varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}
std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
void tag(std::string& out, int field, int wire) {
  varint(out, static_cast<std::uint64_t>(field) << 3 | static_cast<unsigned>(wire));
}
void field_varint(std::string& out, int field, std::uint64_t v) {
  tag(out, field, 0);
  varint(out, v);
}
void field_double(std::string& out, int field, double v) {
  tag(out, field, 1);
  char bytes[8];
  std::memcpy(bytes, &v, 8);  // little-endian on every target openloop builds for (x86-64, aarch64)
  out.append(bytes, 8);
}
void field_bytes(std::string& out, int field, const std::string& v) {
  tag(out, field, 2);
  varint(out, v.size());
  out += v;
}

// metrics.proto: MetricFamily{name 1, help 2, type 3, metric 4}; Metric{label 1, gauge 2, counter 3,
// histogram 7}; LabelPair{name 1, value 2}; Gauge/Counter{value 1}; Histogram{sample_count 1, sample_sum 2,
// bucket 3, schema 5, zero_threshold 6, zero_count 7, positive_span 12, positive_delta 13};
// Bucket{cumulative_count 1, upper_bound 2}; BucketSpan{offset 1 (sint32), length 2}.
enum Type : std::uint64_t { k_counter = 0, k_gauge = 1, k_histogram = 4 };

class Encoder {
 public:
  explicit Encoder(const MetricsContext& c) : m_context(c) {}

  std::string labels(const std::string& request,
                     const std::vector<std::pair<std::string, std::string>>& extra) {
    std::string out;
    const auto pair = [&out](const std::string& n, const std::string& v) {
      std::string p;
      field_bytes(p, 1, n);
      field_bytes(p, 2, v);
      field_bytes(out, 1, p);
    };
    pair("run_id", m_context.run_id);
    pair("scenario", m_context.scenario);
    pair("request", request);
    for (const auto& [n, v] : extra) pair(n, v);
    return out;
  }
  // One family of single-valued metrics (counter or gauge), each (extra labels, value).
  void simple(
      const std::string& name, Type type, const std::string& help,
      const std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, double>>& values) {
    std::string fam;
    field_bytes(fam, 1, name);
    field_bytes(fam, 2, help);
    field_varint(fam, 3, type);
    for (const auto& [extra, v] : values) {
      std::string metric = labels("", extra), value;
      field_double(value, 1, v);
      field_bytes(metric, type == k_counter ? 3 : 2, value);
      field_bytes(fam, 4, metric);
    }
    family(fam);
  }
  void histogram(const std::string& name, const std::string& help,
                 const std::vector<std::pair<std::string, const hdr::Histogram*>>& parts) {
    std::string fam;
    field_bytes(fam, 1, name);
    field_bytes(fam, 2, help);
    field_varint(fam, 3, k_histogram);
    for (const auto& [request, h] : parts) {
      std::string metric = labels(request, {}), hist;
      field_varint(hist, 1, static_cast<std::uint64_t>(h->total_count()));
      field_double(hist, 2, h->mean() * static_cast<double>(h->total_count()) / 1e9);
      for (double le : classic_bucket_bounds()) {
        const auto bound_ns = static_cast<std::int64_t>(le * 1e9);
        std::int64_t below = 0;
        for (std::int32_t i = 0;
             i < h->counts_length() && h->highest_equivalent(h->value_from_index(i)) <= bound_ns; ++i) {
          below += h->count_at_index(i);
        }
        std::string bucket;
        field_varint(bucket, 1, static_cast<std::uint64_t>(below));
        field_double(bucket, 2, le);
        field_bytes(hist, 3, bucket);
      }
      const NativeBuckets nb = native_buckets(*h);
      tag(hist, 5, 0);
      varint(hist, zigzag(nb.schema));
      field_double(hist, 6, 0.0);
      field_varint(hist, 7, nb.zero_count);
      // Spans of consecutive indices; deltas between successive counts, across spans.
      std::string deltas;
      std::int64_t previous = 0;
      std::int32_t next_index = 0;
      for (std::size_t k = 0; k < nb.buckets.size();) {
        std::size_t end = k + 1;
        while (end < nb.buckets.size() && nb.buckets[end].first == nb.buckets[end - 1].first + 1) ++end;
        std::string span;
        const std::int32_t offset = k == 0 ? nb.buckets[k].first : nb.buckets[k].first - next_index;
        tag(span, 1, 0);
        varint(span, zigzag(offset));
        field_varint(span, 2, end - k);
        field_bytes(hist, 12, span);
        for (std::size_t j = k; j < end; ++j) {
          const auto c = static_cast<std::int64_t>(nb.buckets[j].second);
          varint(deltas, zigzag(c - previous));
          previous = c;
        }
        next_index = nb.buckets[end - 1].first + 1;
        k = end;
      }
      if (!deltas.empty()) field_bytes(hist, 13, deltas);  // packed repeated sint64
      field_bytes(metric, 7, hist);
      field_bytes(fam, 4, metric);
    }
    family(fam);
  }
  std::string done() { return std::move(m_out); }

 private:
  void family(const std::string& fam) {
    varint(m_out, fam.size());
    m_out += fam;
  }
  const MetricsContext& m_context;
  std::string m_out;
};

}  // namespace

std::string render_metrics_protobuf(const MetricsState& s, const MetricsContext& c) {
  Encoder e(c);
  const results::Counters& t = s.totals;
  const auto one = [](std::uint64_t v) {
    return std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, double>>{
        {{}, static_cast<double>(v)}};
  };
  e.simple("openloop_requests_intended_total", k_counter, "Arrivals the schedule issued.", one(t.intended));
  e.simple("openloop_requests_sent_total", k_counter, "Requests handed to the transport.", one(t.sent));
  e.simple("openloop_requests_completed_total", k_counter, "Full responses by the deadline.",
           one(t.completed));
  e.simple("openloop_requests_ok_total", k_counter, "Completed with a status in --success.", one(t.ok));
  e.simple("openloop_requests_timeouts_total", k_counter, "Deadline passed first.", one(t.timeouts));
  e.simple("openloop_requests_dropped_total", k_counter, "Never sent: no connection free.", one(t.dropped));
  e.simple("openloop_requests_unfinished_total", k_counter, "In flight when the run ended.",
           one(t.unfinished));
  e.simple("openloop_retries_total", k_counter, "Attempts after the first.", one(t.retries));
  e.simple("openloop_retry_budget_denied_total", k_counter, "Retries the budget refused.",
           one(t.retry_budget_denied));
  std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, double>> classes, kinds;
  static constexpr const char* k_classes[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < t.status_class.size(); ++i) {
    classes.push_back({{{"class", k_classes[i]}}, static_cast<double>(t.status_class[i])});
  }
  for (std::size_t k = 0; k < results::k_error_kinds; ++k) {
    kinds.push_back({{{"kind", std::string(results::to_string(static_cast<results::ErrorKind>(k)))}},
                     static_cast<double>(t.errors[k])});
  }
  e.simple("openloop_responses_total", k_counter, "Completed requests by status class.", classes);
  e.simple("openloop_errors_total", k_counter, "Failures without a usable response, by kind.", kinds);
  e.simple("openloop_in_flight", k_gauge, "Requests in flight or queued.", one(s.in_flight));
  e.simple("openloop_target_rate", k_gauge, "The plan's peak offered rate, requests/s.",
           {{{}, c.target_rps}});
  e.simple("openloop_progress_reports", k_gauge, "Progress reports received.", one(s.updates));
  const auto parts = [&](const hdr::Histogram& total, bool service) {
    std::vector<std::pair<std::string, const hdr::Histogram*>> p{{"", &total}};
    for (const auto& r : s.by_request) p.emplace_back(r.name, service ? &r.service_time : &r.response_time);
    return p;
  };
  e.histogram("openloop_response_time_seconds", "Completion (or censoring) minus the intended time.",
              parts(s.response_time, false));
  e.histogram("openloop_service_time_seconds", "Completion minus the actual send.",
              parts(s.service_time, true));
  e.histogram("openloop_send_lateness_seconds", "Actual send minus the intended time.",
              {{"", &s.send_lateness}});
  return e.done();
}

}  // namespace openloop::report
