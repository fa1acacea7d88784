// The lab's model statistics and a Prometheus endpoint's series, read over HTTP by the sampler's thread.
#include "observe/endpoint_sources.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "net/url.h"
#include "observe/series_role.h"

namespace openloop::observe {
namespace {

using results::SignalRole;

constexpr auto k_timeout = std::chrono::milliseconds(800);

const SignalMeta k_queue{Kind::gauge, "count", SignalRole::saturation, "lab queue length", "", 0};
const SignalMeta k_busy{Kind::gauge, "count", SignalRole::other, "lab busy workers", "", 0};
const SignalMeta k_busy_share{Kind::gauge, "share", SignalRole::utilization, "lab workers busy", "", 0};
const SignalMeta k_arrivals{Kind::counter, "/s", SignalRole::other, "lab arrivals", "", 0};
const SignalMeta k_shed{Kind::counter, "/s", SignalRole::errors, "lab shed", "", 0};
const SignalMeta k_rejected{Kind::counter, "/s", SignalRole::errors, "lab rejected", "", 0};
const SignalMeta k_expired{Kind::counter, "/s", SignalRole::errors, "lab expired", "", 0};

double number_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

Result<std::unique_ptr<LabSource>> LabSource::create(std::string spec, const std::string& config_url) {
  auto client = OPENLOOP_TRY(lab::ControlClient::create(config_url, k_timeout, "--observe " + spec));
  return std::unique_ptr<LabSource>(new LabSource(std::move(spec), std::move(client)));
}

Result<void> LabSource::sample(std::vector<Reading>& out) {
  lab_readings(OPENLOOP_TRY(m_client.stats()), out);
  return {};
}

void lab_readings(const nlohmann::json& stats, std::vector<Reading>& out) {
  const double workers = number_at(stats, "workers");
  const double busy = number_at(stats, "busy_workers");
  out.push_back({"queue", number_at(stats, "queue_depth"), &k_queue});
  out.push_back({"busy_workers", busy, &k_busy});
  if (workers > 0) out.push_back({"busy_of_workers", busy / workers, &k_busy_share});
  out.push_back({"arrivals", number_at(stats, "arrivals"), &k_arrivals});
  out.push_back({"shed", number_at(stats, "shed"), &k_shed});
  out.push_back({"rejected", number_at(stats, "rejected"), &k_rejected});
  out.push_back({"expired", number_at(stats, "expired"), &k_expired});
}

Result<std::unique_ptr<PrometheusSource>> PrometheusSource::create(std::string spec, const std::string& url,
                                                                   std::vector<std::string> metrics) {
  const net::Url u = OPENLOOP_TRY(net::parse_url(url, "--observe " + spec));
  auto client = OPENLOOP_TRY(lab::ControlClient::create(url, k_timeout, "--observe " + spec));
  return std::unique_ptr<PrometheusSource>(
      new PrometheusSource(std::move(spec), std::move(client), u.target, std::move(metrics)));
}

Result<void> PrometheusSource::sample(std::vector<Reading>& out) {
  const auto reply = OPENLOOP_TRY(m_client.request("GET", m_target, ""));
  if (reply.status != 200) {
    return runtime_error(fmt::format("{}: answered {}: {}", spec(), reply.status, reply.body.substr(0, 120)));
  }
  auto samples = parse_metrics(reply.body);
  if (!samples)
    return runtime_error(fmt::format("{}: not Prometheus text: {}", spec(), samples.error().message));
  readings(*samples, out);
  return {};
}

const SignalMeta* PrometheusSource::meta_for(const std::string& key, const MetricSample& s) {
  if (auto it = m_meta.find(key); it != m_meta.end()) return &it->second;
  if (m_meta.size() >= k_max_series) {
    m_left_out.insert(key);
    return nullptr;
  }
  SignalMeta m;
  m.label = key;
  m.unit = s.family.ends_with("_seconds") ? "s" : "";
  if (s.has_le) {
    m.kind = Kind::bucket;
    m.group = s.family + s.labels;
    m.le = s.le;
  } else if (s.type == MetricType::counter ||
             (s.type == MetricType::histogram && s.name.ends_with("_count")) ||
             (s.type == MetricType::summary && s.name.ends_with("_count"))) {
    m.kind = Kind::counter;
    m.unit = "/s";
  } else {
    m.kind = Kind::gauge;
  }
  // Buckets feed their family's quantiles (latencies: not a resource's state); other series by their names.
  if (!s.has_le) m.role = signal_role(series_role(s.name, s.labels, s.type));
  return &m_meta.emplace(key, std::move(m)).first->second;
}

void PrometheusSource::readings(const std::vector<MetricSample>& samples, std::vector<Reading>& out) {
  for (const auto& s : samples) {
    if (!m_metrics.empty() && std::find_if(m_metrics.begin(), m_metrics.end(), [&s](const std::string& m) {
                                return m == s.family || m == s.name;
                              }) == m_metrics.end()) {
      continue;
    }
    // A histogram's or a summary's sum says nothing its quantiles and count do not.
    if ((s.type == MetricType::histogram || s.type == MetricType::summary) && s.name.ends_with("_sum"))
      continue;
    if (s.type == MetricType::histogram && !s.has_le && !s.name.ends_with("_count")) continue;
    std::string key = s.name + s.labels;
    if (s.has_le) key += fmt::format("|le={}", s.le);
    const SignalMeta* meta = meta_for(key, s);
    if (meta != nullptr && !std::isnan(s.value)) out.push_back({std::move(key), s.value, meta});
  }
}

}  // namespace openloop::observe
