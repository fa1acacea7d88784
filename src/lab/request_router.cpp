// Routing of one parsed request: control plane, deadline header, model arrival.
#include "lab/request_router.h"

#include <functional>

#include "lab/deadline_header.h"

namespace openloop::lab {

Routing RequestRouter::route(const ParsedRequest& request, std::uint64_t tag) const {
  ServerCounters& counters = m_host.counters();
  ++counters.requests;
  Routing routing;
  if (request.target.starts_with("/_lab/")) {
    ++counters.control_requests;
    routing.kind = Routing::Kind::control;
    routing.control = m_host.control(request.method, request.target, request.body);
    return routing;
  }
  routing.now = m_host.now();
  routing.arrival.tag = tag;
  if (request.has_deadline && !m_host.config().deadline_header.empty()) {
    const auto budget = parse_budget(request.deadline);
    if (!budget) {
      ++counters.bad_deadline;
      routing.kind = Routing::Kind::reply;
      routing.reply = Reply::bad_request;
      return routing;
    }
    routing.arrival.deadline = routing.now + *budget;
  }
  routing.arrival.key = std::hash<std::string_view>{}(request.target);
  return routing;
}

}  // namespace openloop::lab
