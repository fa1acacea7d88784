// The plan of one `run`: target, request, workload model, client policy and run length, fully validated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "http/request.h"
#include "net/resolver.h"
#include "net/url.h"
#include "workload/arrival_schedule.h"
#include "workload/rate_profile.h"

namespace openloop::engine {

/// Open: arrivals follow the schedule whatever the target does. Closed: `users` each send, wait, repeat.
enum class Model : std::uint8_t { open, closed };
/// What an arrival does when every connection is busy and the pool is at its cap.
enum class OnSaturation : std::uint8_t { drop, queue };

struct RunPlan {
  // Target and request.
  std::string url_text;
  net::Url url;
  std::vector<net::Endpoint> endpoints;  ///< resolved once at start
  std::string method = "GET";
  std::vector<http::Header> headers;
  std::string body;
  std::string request_bytes;  ///< rendered once; identical for every request
  bool insecure = false;      ///< skip TLS verification
  std::string ca_file;

  // Workload.
  Model model = Model::open;
  workload::RateProfile profile = workload::RateProfile::constant(0, Nanos(0));  ///< covers warm-up + duration
  workload::ArrivalKind arrival = workload::ArrivalKind::constant;
  std::uint64_t seed = 1;
  std::uint64_t users = 0;  ///< closed model

  // Client policy and rig.
  unsigned threads = 1;
  std::uint64_t max_connections = 0;  ///< total across threads (open); = users (closed)
  OnSaturation on_saturation = OnSaturation::drop;
  Nanos timeout = std::chrono::seconds(5);
  int success_min = 100;  ///< a completed response is ok when success_min ≤ status ≤ success_max
  int success_max = 399;

  // Run length.
  Nanos warmup{0};
  Nanos duration{0};
  Nanos interval = std::chrono::seconds(1);

  bool is_head() const { return method == "HEAD"; }
  /// Every option, for the results file.
  nlohmann::json describe() const;
};

/// Default connection cap by Little's law: rate × timeout (the most requests that can be outstanding when every
/// one runs to its deadline) plus headroom, at least 2 per thread, capped by `fd_limit` minus a reserve.
std::uint64_t default_max_connections(double peak_rate, Nanos timeout, unsigned threads, std::uint64_t fd_limit);

}  // namespace openloop::engine
