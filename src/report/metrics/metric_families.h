// The live metrics as data: every family a scrape shows (name, type, help, labelled series), built once per
// scrape and read by both encoders (text / OpenMetrics and protobuf), so a new metric is one edit.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "hdr/histogram.h"

namespace openloop::report {

enum class MetricType : unsigned char { counter, gauge, histogram };

/// Label name → value, in the order rendered.
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

/// One series of a family: its labels and its value (counter, gauge) or histogram (nanoseconds, rendered in
/// seconds; not owned: it must outlive the rendering).
struct MetricSeries {
  MetricLabels labels;
  double value = 0;
  const hdr::Histogram* histogram = nullptr;
};

struct MetricFamily {
  std::string name;  ///< a counter's name ends in "_total" (dropped from the family name in OpenMetrics)
  MetricType type = MetricType::gauge;
  std::string help;
  std::vector<MetricSeries> series;
};

/// A family of series that all carry `base` labels first, added to as metrics are known.
class MetricTable {
 public:
  explicit MetricTable(MetricLabels base) : m_base(std::move(base)) {}

  /// Starts a family; the series added next belong to it.
  void family(std::string name, MetricType type, std::string help);
  /// A series of the current family: the base labels, then `extra`.
  void value(double v, const MetricLabels& extra = {});
  void histogram(const hdr::Histogram& h, const MetricLabels& extra = {});
  /// A family of one unlabelled series.
  void single(std::string name, MetricType type, std::string help, double v);

  std::vector<MetricFamily> take() { return std::move(m_families); }

 private:
  MetricLabels with_base(const MetricLabels& extra) const;
  MetricLabels m_base;
  std::vector<MetricFamily> m_families;
};

/// The families of several parts (a plan file's scenarios) as one list: a family's series from every part, in
/// part order; families in the order they first appear.
std::vector<MetricFamily> merge_families(std::vector<std::vector<MetricFamily>> parts);

/// The upper bounds (seconds) of the classic histogram buckets: 100 µs to 10 s, 1-2-5 steps, then +Inf.
const std::vector<double>& classic_bucket_bounds();

/// How many of `h`'s values (nanoseconds) are at most `bound_s` seconds: HdrHistogram buckets whose highest
/// equivalent value is within the bound count whole (3-digit resolution).
std::uint64_t count_at_most(const hdr::Histogram& h, double bound_s);

/// count_at_most() of every classic_bucket_bounds() bound, in one pass over `h`'s counts (a scrape renders a
/// histogram's buckets with this: one count_at_most() per bound walked the counts sixteen times).
std::vector<std::uint64_t> classic_bucket_counts(const hdr::Histogram& h);

/// Prometheus text 0.0.4, or OpenMetrics 1.0 text (`openmetrics`: counter families named without `_total`,
/// `# EOF` at the end). Histograms as classic buckets (classic_bucket_bounds()), _sum and _count, in seconds.
/// Label values are escaped (\\, \", \n).
std::string render_families_text(const std::vector<MetricFamily>& families, bool openmetrics);

/// The same families as protobuf MetricFamily messages (io.prometheus.client), each prefixed by its length
/// (varint); histograms as native histograms (metrics_protobuf.h) with their classic buckets beside them.
std::string render_families_protobuf(const std::vector<MetricFamily>& families);

}  // namespace openloop::report
