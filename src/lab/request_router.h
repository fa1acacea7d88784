// Where one parsed request goes (the model, the control plane, or an error answer): the same for HTTP/1.1
// and HTTP/2, so both protocols see exactly the same service model.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/time.h"
#include "lab/responses.h"
#include "lab/served_connection.h"
#include "lab/service_model.h"

namespace openloop::http {
class RequestParser;
}

namespace openloop::lab {

/// A request as either protocol parsed it. Views valid for the duration of RequestRouter::route.
struct ParsedRequest {
  std::string_view method;
  std::string_view target;  ///< path and query
  std::string_view body;
  bool has_deadline = false;       ///< the configured deadline header was present
  std::string_view deadline;       ///< its value
  std::string_view authorization;  ///< the Authorization header ("" when absent)
  std::string_view cookie;         ///< the Cookie header ("" when absent)
  std::string_view cache_key;      ///< what the cache keys the request by ("": the target); a gRPC call's key
  std::optional<Nanos> budget;  ///< a budget already read (a gRPC call's grpc-timeout), whatever the header
};

/// The request an HTTP/1.1 parser holds complete, as the router reads it (the lab's connections and the
/// simulator's sockets); views into the parser.
ParsedRequest parsed_request(const http::RequestParser& parser);

/// What to do with one request.
struct Routing {
  enum class Kind : std::uint8_t {
    model,    ///< hand `arrival` to the model at `now` (RequestRouter::submit), answer with its outcome
    control,  ///< answer `control` at once (/_lab/*, and 401 under --auth: never queued, never frozen)
    reply,    ///< answer `reply` at once (an unreadable deadline header: 400)
  };
  Kind kind = Kind::model;
  SteadyTime now{};
  Arrival arrival;
  Reply reply = Reply::ok;
  ControlResponse control;
};

/// Routes parsed requests for one server and counts them (requests, control_requests, bad_deadline, and the
/// auth flow's counters). The auth flow's paths are answered here, since they read the request's headers:
/// POST /_lab/login (a fresh token as JSON and as the lab_session cookie), POST /_lab/orders ({"id": N}) and
/// GET /_lab/orders/N (200 for an id it issued, else 404). Under --auth, model paths and the order paths need
/// a token it issued (Authorization: Bearer, or the cookie): without one, 401 with a JSON error.
/// Not thread-safe: the server's loop thread (or the simulator's).
class RequestRouter {
 public:
  explicit RequestRouter(RouterHost& host) : m_host(host) {}

  /// Decides where `request` goes; a model request's arrival carries `tag` (the connection's answer address),
  /// its deadline (now + the deadline header's budget) and its cache key (a hash of the target). Does not
  /// submit: the connection records the request first, since the model may answer inside submit.
  Routing route(const ParsedRequest& request, std::uint64_t tag) const;
  /// Hands a model routing's arrival to the model (which may call back on_outcome before returning).
  void submit(const Routing& routing) const { m_host.submit(routing.now, routing.arrival); }

 private:
  ControlResponse auth_endpoint(const ParsedRequest& request, std::string_view path) const;

  RouterHost& m_host;
};

}  // namespace openloop::lab
