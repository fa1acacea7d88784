// Routing of one parsed request: control plane, the auth flow, deadline header, model arrival.
#include "lab/request_router.h"

#include <charconv>
#include <functional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "http/request_parser.h"
#include "lab/deadline_header.h"

namespace openloop::lab {

ParsedRequest parsed_request(const http::RequestParser& parser) {
  ParsedRequest request;
  request.method = parser.method();
  request.target = parser.target();
  request.body = parser.body();
  request.has_deadline = parser.has_watched();
  request.deadline = parser.watched_value();
  request.authorization = parser.authorization();
  request.cookie = parser.cookie();
  return request;
}

namespace {

constexpr std::string_view k_login = "/_lab/login";
constexpr std::string_view k_orders = "/_lab/orders";

ControlResponse json_answer(int status, nlohmann::json body) {
  return {status, "application/json", body.dump() + "\n", {}};
}

ControlResponse json_error(int status, std::string message) {
  return json_answer(status, nlohmann::json{{"error", std::move(message)}});
}

ControlResponse unauthorized() {
  return json_error(
      401,
      "no token this lab issued: POST /_lab/login, then send Authorization: Bearer TOKEN or the "
      "lab_session cookie");
}

bool is_auth_path(std::string_view path) {
  return path == k_login || path == k_orders || path.starts_with("/_lab/orders/");
}

}  // namespace

Routing RequestRouter::route(const ParsedRequest& request, std::uint64_t tag) const {
  ServerCounters& counters = m_host.counters();
  ++counters.requests;
  Routing routing;
  if (request.target.starts_with("/_lab/")) {
    ++counters.control_requests;
    routing.kind = Routing::Kind::control;
    const std::string_view path = request.target.substr(0, request.target.find('?'));
    routing.control = is_auth_path(path) ? auth_endpoint(request, path)
                                         : m_host.control(request.method, request.target, request.body);
    return routing;
  }
  if (m_host.config().auth) {
    AuthStore& auth = m_host.auth();
    if (!auth.authorizes(request.authorization, request.cookie)) {
      ++auth.counters().unauthorized;
      routing.kind = Routing::Kind::control;
      routing.control = unauthorized();
      return routing;
    }
    ++auth.counters().authorized;
  }
  routing.now = m_host.now();
  routing.arrival.tag = tag;
  if (request.budget) {
    routing.arrival.deadline = routing.now + *request.budget;
  } else if (request.has_deadline && !m_host.config().deadline_header.empty()) {
    const auto budget = parse_budget(request.deadline);
    if (!budget) {
      ++counters.bad_deadline;
      routing.kind = Routing::Kind::reply;
      routing.reply = Reply::bad_request;
      return routing;
    }
    routing.arrival.deadline = routing.now + *budget;
  }
  routing.arrival.key =
      std::hash<std::string_view>{}(request.cache_key.empty() ? request.target : request.cache_key);
  return routing;
}

ControlResponse RequestRouter::auth_endpoint(const ParsedRequest& request, std::string_view path) const {
  AuthStore& auth = m_host.auth();
  const bool get = request.method == "GET" || request.method == "HEAD";
  if (path == k_login) {
    if (request.method != "POST") return json_error(405, "use POST /_lab/login");
    const std::string token = auth.issue_token();
    ControlResponse out = json_answer(200, nlohmann::json{{"token", token}, {"ok", true}});
    out.set_cookie = fmt::format("{}={}; Path=/", k_session_cookie, token);
    return out;
  }
  const bool post_orders = path == k_orders && request.method == "POST";
  const bool get_order = path.starts_with("/_lab/orders/") && get;
  if (!post_orders && !get_order) return json_error(405, "use POST /_lab/orders or GET /_lab/orders/ID");
  if (m_host.config().auth) {
    if (!auth.authorizes(request.authorization, request.cookie)) {
      ++auth.counters().unauthorized;
      return unauthorized();
    }
    ++auth.counters().authorized;
  }
  if (post_orders) {
    ++auth.counters().orders_created;
    return json_answer(200, nlohmann::json{{"id", auth.create_order()}});
  }
  const std::string_view id_text = path.substr(k_orders.size() + 1);
  std::uint64_t id = 0;
  const auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
  if (ec != std::errc() || end != id_text.data() + id_text.size() || !auth.order_exists(id)) {
    ++auth.counters().orders_missing;
    return json_error(404,
                      fmt::format("no order \"{}\": use an id that POST /_lab/orders returned", id_text));
  }
  ++auth.counters().orders_found;
  return json_answer(200, nlohmann::json{{"id", id}, {"ok", true}});
}

}  // namespace openloop::lab
