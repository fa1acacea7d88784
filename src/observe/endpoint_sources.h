// `lab[:URL]` and `prometheus:URL[#metric,...]`: sources read over HTTP (the lab's /_lab/stats, a metrics
// endpoint), once a second so that being watched does not load the target.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "observe/prometheus_text.h"
#include "observe/source.h"
#include "lab/control_client.h"

namespace openloop::observe {

/// The `lab` source's readings from one /_lab/stats document: what LabSource::sample takes from the lab, and
/// `openloop simulate --observe lab` from its simulated service's document.
void lab_readings(const nlohmann::json& stats, std::vector<Reading>& out);

/// Signals: queue (requests queued, mean), busy_workers, busy_of_workers (share of its workers busy), and
/// per second: arrivals, shed, rejected, expired.
class LabSource : public Source {
 public:
  /// `config_url`: the lab's control endpoint (…/_lab/config). Errors (usage): a URL that is not plain http.
  static Result<std::unique_ptr<LabSource>> create(std::string spec, const std::string& config_url);
  Result<void> sample(std::vector<Reading>& out) override;
  std::chrono::milliseconds period() const override { return std::chrono::milliseconds(1000); }

 private:
  LabSource(std::string spec, lab::ControlClient client)
      : Source(std::move(spec)), m_client(std::move(client)) {}
  lab::ControlClient m_client;
};

/// Every series of a Prometheus or OpenMetrics endpoint (or those of the families named after '#'):
/// counters as rates, gauges kept, histograms as " p50" and " p99" per interval (from the buckets' increase
/// in that interval), summaries' quantiles as gauges. At most k_max_series series are kept (a note says
/// how many were left out): name the metrics wanted after '#'.
class PrometheusSource : public Source {
 public:
  static constexpr std::size_t k_max_series = 200;
  /// `url`: http://HOST:PORT/PATH; `metrics`: family or sample names to keep (empty: all). Errors (usage):
  /// a URL that is not plain http.
  static Result<std::unique_ptr<PrometheusSource>> create(std::string spec, const std::string& url,
                                                          std::vector<std::string> metrics);
  Result<void> sample(std::vector<Reading>& out) override;
  std::chrono::milliseconds period() const override { return std::chrono::milliseconds(1000); }
  /// Turns parsed samples into readings (the part of sample() after the scrape; public for tests).
  void readings(const std::vector<MetricSample>& samples, std::vector<Reading>& out);
  /// Series left out past k_max_series.
  std::size_t left_out() const { return m_left_out.size(); }

 private:
  PrometheusSource(std::string spec, lab::ControlClient client, std::string target,
                   std::vector<std::string> metrics)
      : Source(std::move(spec)),
        m_client(std::move(client)),
        m_target(std::move(target)),
        m_metrics(std::move(metrics)) {}
  const SignalMeta* meta_for(const std::string& key, const MetricSample& s);

  lab::ControlClient m_client;
  std::string m_target;
  std::vector<std::string> m_metrics;
  std::map<std::string, SignalMeta> m_meta;  ///< node-based: readings point into it
  std::set<std::string> m_left_out;
};

}  // namespace openloop::observe
