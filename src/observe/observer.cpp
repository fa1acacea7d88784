// SPEC parsing and attaching the sampled signals to a run's intervals.
#include "observe/observer.h"

#include <charconv>

#include <fmt/format.h>

#include "net/url.h"
#include "observe/endpoint_sources.h"
#include "observe/host_source.h"
#include "observe/process_source.h"
#include "lab/control_client.h"

namespace openloop::observe {

const char* const k_accepted_specs =
    "pid:N, process:NAME, host, cgroup:PATH, lab, lab:URL, prometheus:URL[#metric,...], self";

namespace {

tl::unexpected<Error> bad_spec(std::string_view spec, std::string_view why) {
  return usage_error(fmt::format("--observe \"{}\": {}; accepted: {}", spec, why, k_accepted_specs));
}

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string_view::npos) end = text.size();
    if (end > at) out.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<Source>> make_source(std::string_view spec, std::string_view target_url,
                                            const ProcContext& ctx) {
  const std::string s(spec);
  if (spec == "host") return std::unique_ptr<Source>(std::make_unique<HostSource>(ctx));
  if (spec == "self") return std::unique_ptr<Source>(ProcessSource::self(ctx));
  if (spec.starts_with("pid:")) {
    const std::string_view n = spec.substr(4);
    int pid = 0;
    const auto r = std::from_chars(n.data(), n.data() + n.size(), pid);
    if (n.empty() || r.ec != std::errc() || r.ptr != n.data() + n.size() || pid <= 0)
      return bad_spec(spec, "the PID must be a positive integer, e.g. pid:1234");
    return std::unique_ptr<Source>(ProcessSource::by_pid(s, pid, ctx));
  }
  if (spec.starts_with("process:")) {
    if (spec.size() == 8) return bad_spec(spec, "name the process, e.g. process:nginx");
    return std::unique_ptr<Source>(ProcessSource::by_name(s, s.substr(8), ctx));
  }
  if (spec.starts_with("cgroup:")) {
    if (spec.size() == 7)
      return bad_spec(spec,
                      "give the cgroup's path under /sys/fs/cgroup, e.g. cgroup:system.slice/nginx.service");
    return std::unique_ptr<Source>(std::make_unique<CgroupSource>(s, s.substr(7), ctx));
  }
  if (spec == "lab" || spec.starts_with("lab:")) {
    std::string url;
    if (spec == "lab") {
      if (target_url.empty()) return bad_spec(spec, "no target to find the lab at; give lab:URL");
      // A grpc:// target's lab (`openloop lab --grpc`) answers its control endpoint over HTTP/1.1 there.
      const bool grpc = target_url.starts_with("grpc://");
      const auto target = net::parse_url(
          grpc ? "http://" + std::string(target_url.substr(7)) : std::string(target_url), "the target");
      if (!target) return bad_spec(spec, "the target is not a URL; give lab:URL");
      url = lab::default_control_url(*target);
    } else {
      url = s.substr(4);
    }
    auto lab = LabSource::create(s, url);
    if (!lab) return bad_spec(spec, lab.error().message);
    return std::unique_ptr<Source>(std::move(*lab));
  }
  if (spec.starts_with("prometheus:")) {
    std::string url = s.substr(11);
    std::vector<std::string> metrics;
    if (const std::size_t hash = url.rfind('#'); hash != std::string::npos) {
      metrics = split_commas(std::string_view(url).substr(hash + 1));
      url.erase(hash);
      if (metrics.empty()) return bad_spec(spec, "name at least one metric after '#', or leave '#' out");
    }
    if (url.empty())
      return bad_spec(spec, "give the endpoint's URL, e.g. prometheus:http://127.0.0.1:9100/metrics");
    auto prom = PrometheusSource::create(s, url, std::move(metrics));
    if (!prom) return bad_spec(spec, prom.error().message);
    return std::unique_ptr<Source>(std::move(*prom));
  }
  return bad_spec(spec, "unknown SPEC");
}

Result<std::unique_ptr<Observer>> Observer::create(const std::vector<std::string>& specs,
                                                   std::string_view target_url, const ProcContext& ctx) {
  if (specs.empty()) return std::unique_ptr<Observer>();
  std::vector<std::unique_ptr<Source>> sources;
  bool self = false;
  for (const auto& spec : specs) {
    for (const auto& s : sources) {
      if (s->spec() == spec) return bad_spec(spec, "given twice");
    }
    sources.push_back(OPENLOOP_TRY(make_source(spec, target_url, ctx)));
    self = self || spec == "self";
  }
  if (!self) sources.push_back(OPENLOOP_TRY(make_source("self", target_url, ctx)));
  return std::unique_ptr<Observer>(new Observer(std::move(sources)));
}

std::vector<Window> interval_windows(const results::RunResults& r) {
  std::vector<Window> out;
  if (r.info.start_unix_s <= 0) return out;
  for (const auto& i : r.intervals) {
    const double from = r.info.start_unix_s + i.start_s;
    out.push_back({from, from + i.length_s});
  }
  return out;
}

void attach_series(results::RunResults& r, const std::vector<std::string>& specs,
                   const std::vector<Series>& series, const results::SamplerStats& stats,
                   const std::vector<std::string>& warnings) {
  r.observed = results::Observed{};
  r.observed.sources = specs;
  r.observed.sampler = stats;
  for (const auto& w : warnings) r.warnings.push_back(w);
  if (r.info.start_unix_s <= 0) {
    r.warnings.push_back(
        "--observe: the run's wall-clock start is unknown, so its signals cannot be aligned "
        "with its intervals; none are recorded");
    return;
  }
  Aligned a = align(series, interval_windows(r));
  r.observed.signals = std::move(a.signals);
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    auto set = r.intervals.update(k, [&](results::IntervalResult& i) { i.observed = std::move(a.values[k]); });
    if (!set) {
      r.warnings.push_back("--observe: " + set.error().message + "; the intervals' signals are not recorded");
      break;
    }
  }
}

void Observer::attach(results::RunResults& r) const {
  attach_series(r, m_sampler.specs(), m_sampler.series(), m_sampler.stats(), m_sampler.warnings());
}

}  // namespace openloop::observe
