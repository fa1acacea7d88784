// Hand-encoded protobuf (metrics.proto of prometheus/client_model): varints, length-delimited fields,
// doubles.
#include "report/metrics/metrics_protobuf.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace openloop::report {

NativeBuckets native_buckets(const hdr::Histogram& h, int schema) {
  NativeBuckets nb;
  nb.schema = schema;
  const double scale = std::ldexp(1.0, schema);
  // A native bucket's index grows with the value, and the counts are walked in value order: a bucket's counts
  // are neighbours, added to the last bucket or opening the next. Bucket `index` holds (2^((index-1)/scale),
  // 2^(index/scale)] seconds; the logarithm is taken only when a value passes the current bucket's top (a few
  // hundred times a scrape, not once per counted index: it was most of a scrape's cost).
  std::int32_t index = 0;
  double top_ns = -1;  // the current bucket's upper bound; below any value before the first
  for (std::int32_t i = 0, used = h.used_length(); i < used; ++i) {
    const std::int64_t c = h.count_at_index(i);
    if (c <= 0) continue;
    const std::int64_t mid = h.median_equivalent(h.value_from_index(i));
    if (mid <= 0) {
      nb.zero_count += static_cast<std::uint64_t>(c);
      continue;
    }
    if (static_cast<double>(mid) > top_ns) {
      index = static_cast<std::int32_t>(std::ceil(std::log2(static_cast<double>(mid) / 1e9) * scale));
      top_ns = std::exp2(index / scale) * 1e9;
    }
    if (!nb.buckets.empty() && nb.buckets.back().first == index) {
      nb.buckets.back().second += static_cast<std::uint64_t>(c);
    } else {
      nb.buckets.emplace_back(index, static_cast<std::uint64_t>(c));
    }
  }
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

// One Metric's labels.
std::string label_pairs(const MetricLabels& labels) {
  std::string out;
  for (const auto& [n, v] : labels) {
    std::string p;
    field_bytes(p, 1, n);
    field_bytes(p, 2, v);
    field_bytes(out, 1, p);
  }
  return out;
}

std::string histogram_message(const hdr::Histogram& h) {
  std::string hist;
  field_varint(hist, 1, static_cast<std::uint64_t>(h.total_count()));
  field_double(hist, 2, h.mean() * static_cast<double>(h.total_count()) / 1e9);
  const std::vector<std::uint64_t> counts = classic_bucket_counts(h);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    std::string bucket;
    field_varint(bucket, 1, counts[k]);
    field_double(bucket, 2, classic_bucket_bounds()[k]);
    field_bytes(hist, 3, bucket);
  }
  const NativeBuckets nb = native_buckets(h);
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
  return hist;
}

// metrics.proto's MetricType: COUNTER 0, GAUGE 1, HISTOGRAM 4.
std::uint64_t type_code(MetricType t) {
  switch (t) {
    case MetricType::counter:
      return 0;
    case MetricType::gauge:
      return 1;
    case MetricType::histogram:
      return 4;
  }
  return 3;  // UNTYPED
}

}  // namespace

std::string render_families_protobuf(const std::vector<MetricFamily>& families) {
  std::string out;
  for (const MetricFamily& f : families) {
    std::string fam;
    field_bytes(fam, 1, f.name);
    field_bytes(fam, 2, f.help);
    field_varint(fam, 3, type_code(f.type));
    for (const MetricSeries& s : f.series) {
      std::string metric = label_pairs(s.labels);
      if (s.histogram != nullptr) {
        field_bytes(metric, 7, histogram_message(*s.histogram));
      } else {
        std::string value;
        field_double(value, 1, s.value);
        field_bytes(metric, f.type == MetricType::counter ? 3 : 2, value);
      }
      field_bytes(fam, 4, metric);
    }
    varint(out, fam.size());
    out += fam;
  }
  return out;
}

std::string render_metrics_protobuf(const MetricsState& s, const MetricsContext& c) {
  return render_families_protobuf(run_metric_families(s, c));
}

}  // namespace openloop::report
