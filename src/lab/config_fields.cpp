// Parsing of each lab setting from text, with errors that name the setting, the value and what is accepted.
#include "lab/config_fields.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::lab {
namespace {

using Setter = Result<void> (*)(LabConfig&, std::string_view, std::string_view);

struct Setting {
  SettingInfo info;
  Setter set;
};

Result<std::uint64_t> count(std::string_view text, std::string_view what, std::uint64_t lo,
                            std::uint64_t hi) {
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi) {
    return usage_error(
        fmt::format("{}: \"{}\" is not accepted; use an integer from {} to {}", what, text, lo, hi));
  }
  return v;
}

Result<double> probability(std::string_view text, std::string_view what) {
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !(v >= 0 && v <= 1)) {
    return usage_error(
        fmt::format("{}: \"{}\" is not accepted; use a probability from 0 to 1, e.g. 0.01", what, text));
  }
  return v;
}

Result<bool> boolean(std::string_view text, std::string_view what) {
  if (text == "true" || text == "1" || text == "on" || text == "yes") return true;
  if (text == "false" || text == "0" || text == "off" || text == "no") return false;
  return usage_error(fmt::format("{}: \"{}\" is not accepted; use true or false", what, text));
}

Result<void> set_workers(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.workers = static_cast<std::uint32_t>(OPENLOOP_TRY(count(v, what, 1, 1'000'000)));
  return {};
}
Result<void> set_service(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.service = OPENLOOP_TRY(ServiceTime::parse(v, what));
  return {};
}
Result<void> set_queue(LabConfig& c, std::string_view v, std::string_view what) {
  if (v == "fifo") {
    c.model.queue = QueueDiscipline::fifo;
  } else if (v == "lifo") {
    c.model.queue = QueueDiscipline::lifo;
  } else {
    return usage_error(fmt::format("{}: \"{}\" is not accepted; use fifo or lifo", what, v));
  }
  return {};
}
Result<void> set_queue_limit(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.queue_limit = OPENLOOP_TRY(count(v, what, 0, 1'000'000'000));
  return {};
}
Result<void> set_shed_at(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.shed_at = OPENLOOP_TRY(count(v, what, 0, 1'000'000'000));
  return {};
}
Result<void> set_stall(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.stalls.set_periodic(OPENLOOP_TRY(StallSchedule::parse_periodic(v, what)));
  return {};
}
Result<void> set_stall_at(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.stalls.add_once(OPENLOOP_TRY(StallSchedule::parse_once(v, what)));
  return {};
}
Result<void> set_cache(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.cache = OPENLOOP_TRY(count(v, what, 0, 100'000'000));
  return {};
}
Result<void> set_hit(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.hit = OPENLOOP_TRY(ServiceTime::parse(v, what));
  return {};
}
Result<void> set_miss(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.miss = OPENLOOP_TRY(ServiceTime::parse(v, what));
  return {};
}
Result<void> set_dependency(LabConfig& c, std::string_view v, std::string_view what) {
  if (v == "none" || v.empty()) {
    c.model.dependency.reset();
  } else {
    c.model.dependency = OPENLOOP_TRY(ServiceTime::parse(v, what));
  }
  return {};
}
Result<void> set_dependency_pool(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.dependency_pool = OPENLOOP_TRY(count(v, what, 0, 1'000'000));
  return {};
}
Result<void> set_error_rate(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.error_rate = OPENLOOP_TRY(probability(v, what));
  return {};
}
Result<void> set_cancel(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.cancel = OPENLOOP_TRY(boolean(v, what));
  return {};
}
Result<void> set_burn(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.burn = OPENLOOP_TRY(boolean(v, what));
  return {};
}
Result<void> set_seed(LabConfig& c, std::string_view v, std::string_view what) {
  c.model.seed = OPENLOOP_TRY(count(v, what, 0, UINT64_MAX));
  return {};
}
Result<void> set_body_size(LabConfig& c, std::string_view v, std::string_view what) {
  c.body_size = OPENLOOP_TRY(count(v, what, 0, 64ULL << 20));
  return {};
}
Result<void> set_deadline_header(LabConfig& c, std::string_view v, std::string_view what) {
  for (char ch : v) {
    if (ch <= ' ' || ch == ':' || ch >= 127) {
      return usage_error(fmt::format("{}: \"{}\" is not a header name; use e.g. X-Deadline", what, v));
    }
  }
  c.deadline_header.assign(v);
  return {};
}
Result<void> set_header_timeout(LabConfig& c, std::string_view v, std::string_view what) {
  const Nanos d = OPENLOOP_TRY(parse_duration(v, what));
  if (d <= Nanos(0))
    return usage_error(fmt::format("{}: \"{}\" is not accepted; use a positive duration", what, v));
  c.header_timeout = d;
  return {};
}
Result<void> set_listen(LabConfig& c, std::string_view v, std::string_view /*what*/) {
  c.listen.assign(v);  // resolved (and refused if bad) when the server binds
  return {};
}
Result<void> set_duration(LabConfig& c, std::string_view v, std::string_view what) {
  c.duration = OPENLOOP_TRY(parse_duration(v, what));
  return {};
}
Result<void> set_http2(LabConfig& c, std::string_view v, std::string_view what) {
  c.http2.enabled = OPENLOOP_TRY(boolean(v, what));
  return {};
}
Result<void> set_grpc(LabConfig& c, std::string_view v, std::string_view what) {
  c.http2.grpc = OPENLOOP_TRY(boolean(v, what));
  if (c.http2.grpc) c.http2.enabled = true;
  return {};
}
Result<void> set_auth(LabConfig& c, std::string_view v, std::string_view what) {
  c.auth = OPENLOOP_TRY(boolean(v, what));
  return {};
}
Result<void> set_max_streams(LabConfig& c, std::string_view v, std::string_view what) {
  c.http2.max_streams = static_cast<std::uint32_t>(OPENLOOP_TRY(count(v, what, 1, 65535)));
  return {};
}
Result<void> set_goaway_after(LabConfig& c, std::string_view v, std::string_view what) {
  c.http2.goaway_after = static_cast<std::uint32_t>(OPENLOOP_TRY(count(v, what, 0, 1'000'000'000)));
  return {};
}
Result<void> set_refuse_streams_above(LabConfig& c, std::string_view v, std::string_view what) {
  c.http2.refuse_streams_above = static_cast<std::uint32_t>(OPENLOOP_TRY(count(v, what, 0, 65535)));
  return {};
}

// clang-format off
const Setting k_settings[] = {
  {{"listen", "HOST:PORT", "address to serve on; port 0 picks a free port (default 127.0.0.1:8080)", false, false}, set_listen},
  {{"workers", "N", "virtual workers: requests served at once (default 1)", true, false}, set_workers},
  {{"service", "DIST", "service time: 1ms, exp:1ms, lognormal:1ms,0.5 (mean, sigma), uniform:1ms..3ms, 0 (default 1ms)", true, false}, set_service},
  {{"queue", "fifo|lifo", "which waiting request a free worker takes (default fifo)", true, false}, set_queue},
  {{"queue-limit", "N", "waiting requests at most; more are refused with 503 (default 0: unbounded)", true, false}, set_queue_limit},
  {{"shed-at", "N", "queue depth at which arrivals are answered 429 at once (default 0: never)", true, false}, set_shed_at},
  {{"deadline-header", "NAME", "request header with the client's remaining budget (250ms, or bare ms); expired at dequeue: 504", true, false}, set_deadline_header},
  {{"stall", "LEN/PERIOD", "freeze everything for LEN every PERIOD, e.g. 500ms/2s (0: none)", true, false}, set_stall},
  {{"stall-at", "AT+LEN", "freeze from AT (since start) for LEN, e.g. 10s+3s; repeatable", true, false}, set_stall_at},
  {{"cache", "N", "LRU cache of N keys (path+query); hit/miss times replace --service (default 0: off)", true, false}, set_cache},
  {{"hit", "DIST", "service time of a cache hit (default 0)", true, false}, set_hit},
  {{"miss", "DIST", "service time of a cache miss (default 1ms)", true, false}, set_miss},
  {{"dependency", "DIST", "after service, hold a dependency connection this long (default none)", true, false}, set_dependency},
  {{"dependency-pool", "N", "dependency connections; waiting for one is queueing (default 0: unlimited)", true, false}, set_dependency_pool},
  {{"error-rate", "PROBABILITY", "probability that a served request answers 500 (default 0)", true, false}, set_error_rate},
  {{"body-size", "N", "bytes of body in a 200 response (default 0)", true, false}, set_body_size},
  {{"cancel", "", "drop queued requests whose client closed the connection (default: serve them anyway)", true, true}, set_cancel},
  {{"burn", "", "spend real CPU for the service time, on the lab's thread, instead of timers", true, true}, set_burn},
  {{"auth", "", "model paths and /_lab/orders need a token from POST /_lab/login (Authorization: Bearer TOKEN, or the lab_session cookie): 401 without", true, true}, set_auth},
  {{"header-timeout", "DURATION", "time a client may take to send a whole request once started (default 10s)", true, false}, set_header_timeout},
  {{"seed", "N", "seed of the model's random numbers (default 1)", false, false}, set_seed},
  {{"http2", "", "serve HTTP/2 over cleartext with prior knowledge (h2c, as h2load and nghttp -- no Upgrade) and HTTP/1.1 on the same port, chosen by each connection's first bytes; other first bytes (TLS, noise) get GOAWAY PROTOCOL_ERROR and a close", false, true}, set_http2},
  {{"grpc", "", "serve the built-in gRPC service openloop.lab.v1.Lab/Call (proto/openloop/lab/v1/lab.proto) and server reflection over h2c (implies --http2): each call goes through the model; shed and a full queue answer RESOURCE_EXHAUSTED, an expired grpc-timeout DEADLINE_EXCEEDED, an injected error UNAVAILABLE", false, true}, set_grpc},
  {{"max-streams", "N", "with --http2: SETTINGS_MAX_CONCURRENT_STREAMS advertised, 1 to 65535 (default 100)", false, false}, set_max_streams},
  {{"goaway-after", "N", "with --http2: GOAWAY after N streams on a connection, to test clients' recovery (default 0: never)", false, false}, set_goaway_after},
  {{"refuse-streams-above", "N", "with --http2: RST_STREAM REFUSED_STREAM for a stream past N open on its connection (default 0: never)", false, false}, set_refuse_streams_above},
  {{"duration", "DURATION", "stop by itself after DURATION (default: run until SIGINT/SIGTERM)", false, false}, set_duration},
};
// clang-format on

}  // namespace

std::span<const SettingInfo> settings() {
  static const auto infos = [] {
    std::vector<SettingInfo> v;
    for (const Setting& s : k_settings) v.push_back(s.info);
    return v;
  }();
  return infos;
}

const SettingInfo* find_setting(std::string_view name) {
  for (const Setting& s : k_settings) {
    if (s.info.name == name) return &s.info;
  }
  return nullptr;
}

std::string setting_names(bool runtime_only) {
  std::string out;
  for (const Setting& s : k_settings) {
    if (runtime_only && !s.info.runtime) continue;
    if (!out.empty()) out += ", ";
    out += s.info.name;
  }
  return out;
}

Result<void> apply_setting(LabConfig& cfg, std::string_view name, std::string_view value,
                           std::string_view what) {
  for (const Setting& s : k_settings) {
    if (s.info.name == name) return s.set(cfg, value, what);
  }
  return usage_error(
      fmt::format("{}: unknown setting \"{}\"; accepted: {}", what, name, setting_names(false)));
}

}  // namespace openloop::lab
