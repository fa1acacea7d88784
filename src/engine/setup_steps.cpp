// Setup and teardown steps: one blocking exchange per step, its captures and checks run as a session's are.
#include "engine/setup_steps.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "engine/flow_runner.h"
#include "http/ascii_text.h"
#include "http/request_buffer.h"
#include "http/request_http1.h"
#include "http/response_parser.h"
#include "net/fd_wait.h"
#include "net/transport.h"

namespace openloop::engine {
namespace {

// Waits for what a transport call asked for (want_read or want_write): false on timeout.
bool wait_io(const net::Transport& t, net::IoStatus want, SteadyTime deadline) {
  return net::wait_fd(t.fd(), want == net::IoStatus::want_write ? POLLOUT : POLLIN, deadline);
}

// Sends `bytes` and reads the response into `parser` (and its sink), all by the deadline.
Result<void> exchange(const RunPlan& plan, const net::TlsContext* tls, std::string_view bytes,
                      http::ResponseParser& parser, SteadyTime deadline) {
  net::Transport t;
  OPENLOOP_TRY_VOID(net::connect_blocking(plan.endpoints, plan.url.host, tls, t, deadline));
  while (!bytes.empty()) {
    const net::IoResult r = t.write(bytes.data(), bytes.size());
    if (r.status == net::IoStatus::ok) {
      bytes.remove_prefix(r.bytes);
    } else if (r.status == net::IoStatus::error || r.status == net::IoStatus::closed) {
      return runtime_error("write failed: " + t.error_string());
    } else if (!wait_io(t, r.status, deadline)) {
      return runtime_error("timed out writing the request");
    }
  }
  std::array<char, 16384> buf;
  for (;;) {
    const net::IoResult r = t.read(buf.data(), buf.size());
    http::ResponseParser::State state = http::ResponseParser::State::incomplete;
    if (r.status == net::IoStatus::ok) {
      state = parser.feed(buf.data(), r.bytes);
    } else if (r.status == net::IoStatus::closed) {
      state = parser.finish();
      if (state == http::ResponseParser::State::incomplete) state = http::ResponseParser::State::error;
    } else if (r.status == net::IoStatus::error) {
      return runtime_error("read failed: " + t.error_string());
    } else if (!wait_io(t, r.status, deadline)) {
      return runtime_error(
          fmt::format("no whole response within the timeout ({} ms)",
                      std::chrono::duration_cast<std::chrono::milliseconds>(plan.timeout).count()));
    }
    if (state == http::ResponseParser::State::complete) return {};
    if (state == http::ResponseParser::State::error)
      return runtime_error(fmt::format("a malformed response: {}", parser.error_reason()));
  }
}

// The session's cookies as one more header, unless the request gives its own Cookie header.
void add_cookie_header(http::RequestBuffer& request, std::string_view cookies) {
  const http::RequestParts& p = request.parts();
  const auto own = [](const http::HeaderView& h) { return http::iequals(h.name, "cookie"); };
  if (cookies.empty() || std::any_of(p.headers.begin(), p.headers.end(), own)) return;
  const http::RequestFlags flags = p.flags;
  request.append("Cookie");
  request.end(http::RequestBuffer::Field::header_name);
  request.append(cookies);
  request.end(http::RequestBuffer::Field::header_value);
  request.finish(flags);
}

}  // namespace

Result<SetupValues> run_once_steps(const RunPlan& plan, const std::vector<workload::Step>& steps,
                                   std::string_view phase, const SetupValues& given) {
  if (steps.empty()) return SetupValues{};
  if (!plan.workload) return usage_error(fmt::format("{} steps need a plan file's requests", phase));
  if (plan.endpoints.empty()) {
    return usage_error(
        fmt::format("{}: the target {} was not resolved; resolve it (net::resolve) before the {} steps",
                    phase, plan.url_text, phase));
  }
  const workload::WorkloadPlan& w = *plan.workload;
  // The steps as one session of their own: its captures, checks and cookie jar are a session's.
  workload::ScenarioPlan once;
  once.name = std::string(phase);
  once.model = workload::ModelKind::sessions;
  once.steps = steps;
  const ResponseCapture capture = flow_response_capture(once).value_or(ResponseCapture{});
  FlowRunner flow(once, w.variables, capture, 1, plan.url);
  flow.begin(0);
  workload::RenderContext render(w.variables, w.requests.size(), w.seed, 0, 1);
  for (const auto& [variable, value] : given) render.variables().set(variable, value);
  std::optional<net::TlsContext> tls;
  if (plan.url.tls) {
    const std::array<std::string_view, 1> alpn{"http/1.1"};
    tls.emplace(OPENLOOP_TRY(net::TlsContext::create_client(!plan.insecure, plan.ca_file, alpn)));
  }
  http::ResponseSink sink = capture.make_sink();
  http::ResponseParser parser;
  parser.set_sink(&sink);
  http::RequestBuffer request;
  std::string bytes;
  results::FlowCounters counters;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const workload::Step& step = steps[i];
    const workload::RequestTemplate& t = w.requests[step.request];
    const std::string what =
        fmt::format("{}: {} step {} (request \"{}\")", step.where, phase, i + 1, t.name());
    flow.before_step(0, render.variables());
    t.render(render, request);
    const std::string target(request.parts().target);
    add_cookie_header(request, flow.cookie_header(0, target));
    http::write_http1(request.parts(), {}, bytes);
    sink.clear();
    parser.reset(t.method() == "HEAD", true);
    const auto sent = exchange(plan, tls ? &*tls : nullptr, bytes, parser, SteadyClock::now() + plan.timeout);
    if (!sent) return runtime_error(fmt::format("{}: {}: {}", what, plan.url_text, sent.error().message));
    flow.take_cookies(0, sink, target);
    if (!t.success().contains(parser.status())) {
      return usage_error(fmt::format("{}: status {} is outside the request's success range {}", what,
                                     parser.status(), t.success().to_string()));
    }
    const FlowRunner::StepResult r = flow.after_response(0, i, sink, counters);
    if (r.captures_failed + r.checks_failed > 0)
      return usage_error(fmt::format("{}: {}", what, flow.describe_failures(0, i, sink, t.name())));
  }
  flow.before_step(0, render.variables());
  SetupValues values;
  for (const workload::Step& step : steps) {
    for (const workload::Capture& c : step.flow.captures) {
      const bool seen =
          std::any_of(values.begin(), values.end(), [&](const auto& v) { return v.first == c.variable; });
      if (!seen) values.emplace_back(c.variable, std::string(render.variables().value(c.variable)));
    }
  }
  return values;
}

}  // namespace openloop::engine
