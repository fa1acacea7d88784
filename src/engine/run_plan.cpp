// Plan description and derived defaults.
#include "engine/run_plan.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace openloop::engine {

nlohmann::json RunPlan::describe() const {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : profile.stages()) {
    stages.push_back({{"duration_s", to_seconds(s.duration)}, {"target_rps", s.target_rate}});
  }
  nlohmann::json headers_json = nlohmann::json::array();
  for (const auto& h : headers) headers_json.push_back(h.name + ": " + h.value);
  nlohmann::json j = {{"target", url_text},
                      {"method", method},
                      {"headers", headers_json},
                      {"body_bytes", body.size()},
                      {"model", model == Model::open ? "open" : "closed"},
                      {"threads", threads},
                      {"max_connections", max_connections},
                      {"on_saturation", on_saturation == OnSaturation::drop ? "drop" : "queue"},
                      {"timeout_s", to_seconds(timeout)},
                      {"success_statuses", std::to_string(success_min) + "-" + std::to_string(success_max)},
                      {"warmup_s", to_seconds(warmup)},
                      {"duration_s", to_seconds(duration)},
                      {"interval_s", to_seconds(interval)},
                      {"insecure", insecure}};
  if (model == Model::open) {
    j["arrival"] = arrival == workload::ArrivalKind::constant ? "constant" : "poisson";
    j["seed"] = seed;
    j["stages"] = stages;
  } else {
    j["users"] = users;
  }
  return j;
}

std::uint64_t default_max_connections(double peak_rate, Nanos timeout, unsigned threads, std::uint64_t fd_limit) {
  const double outstanding = peak_rate * to_seconds(timeout) * 1.1 + 16.0 * threads;
  const std::uint64_t reserve = 64;
  const std::uint64_t cap = fd_limit > reserve * 2 ? fd_limit - reserve : fd_limit / 2;
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::ceil(outstanding)), 2ULL * threads, cap);
}

}  // namespace openloop::engine
