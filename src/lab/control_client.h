// A small blocking HTTP/1.1 client for the lab's control plane (GET /_lab/stats, GET/POST /_lab/config).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/time.h"
#include "net/resolver.h"
#include "net/url.h"

namespace openloop::lab {

/// One answer: the status and the whole body.
struct HttpReply {
  int status = 0;
  std::string body;
};

/// Talks to one lab's control endpoint over plain TCP, one short connection per request ("Connection:
/// close"), each bounded by the timeout as a whole (connect, write, read). Never used on a hot path: it
/// blocks the calling thread. Copyable; const methods may be called from any thread (they share nothing but
/// immutable state).
class ControlClient {
 public:
  /// `config_url` is the lab's config endpoint (http://HOST:PORT/_lab/config); its stats endpoint is the same
  /// path with "config" replaced by "stats" (or /_lab/stats when the path does not end in /config). The host
  /// is resolved once, now. Errors: usage for a bad URL or https (the lab serves plain HTTP), runtime for
  /// DNS; both name `what`.
  static Result<ControlClient> create(std::string_view config_url, Nanos timeout,
                                      std::string_view what = "--lab-control");

  /// GET the config endpoint: the lab's settings in flag syntax. Errors (runtime) name the URL, the status
  /// and the lab's message, or say that the answer is not a JSON object.
  Result<nlohmann::json> config() const;
  /// GET the stats endpoint: counters, queue depth, uptime_s, the config and per-second history.
  Result<nlohmann::json> stats() const;
  /// POST `change` (a JSON object of settings, e.g. {"dependency": "500ms"}) to the config endpoint; returns
  /// the configuration now in force. A refused change (400) is an error quoting the lab's reason.
  Result<nlohmann::json> post_config(const nlohmann::json& change) const;

  /// The config endpoint as given.
  const std::string& config_url() const { return m_config_url; }

  /// One exchange: METHOD target with `body` (Content-Type application/json when not empty). Errors
  /// (runtime): connect, write or read failure, timeout, or a malformed answer, each naming the URL.
  Result<HttpReply> request(std::string_view method, std::string_view target, std::string_view body) const;

 private:
  ControlClient() = default;
  Result<nlohmann::json> json_of(std::string_view method, std::string_view target,
                                 std::string_view body) const;

  std::string m_config_url;
  net::Url m_url;
  std::string m_stats_target;
  std::vector<net::Endpoint> m_endpoints;
  Nanos m_timeout{0};
};

/// The default control endpoint of a target: its origin + /_lab/config (http://h:p/x?y →
/// http://h:p/_lab/config).
std::string default_control_url(const net::Url& target);

}  // namespace openloop::lab
