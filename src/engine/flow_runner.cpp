// Captures and checks on a flow step's response, and the sessions' captured values.
#include "engine/flow_runner.h"

#include <algorithm>
#include <cctype>
#include <chrono>

#include <fmt/format.h>

namespace openloop::engine {
namespace {

using workload::Capture;
using workload::CaptureSource;
using workload::Check;
using workload::CheckKind;
using workload::CheckTest;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void add_name(std::vector<std::string>& names, std::string_view name) {
  const std::string l = lower(name);
  if (std::find(names.begin(), names.end(), l) == names.end()) names.push_back(l);
}

// A value fit to go into a request line, a header or a body: no control characters but tab.
bool printable(std::string_view v) {
  return std::none_of(v.begin(), v.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && u != '\t') || u == 0x7f;
  });
}

// Set-Cookie: NAME=VALUE; attributes... → VALUE when the cookie is `name`.
std::optional<std::string_view> one_cookie_value(std::string_view set_cookie, std::string_view name) {
  const auto eq = set_cookie.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  std::string_view n = set_cookie.substr(0, eq);
  while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
  while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
  if (n != name) return std::nullopt;
  std::string_view v = set_cookie.substr(eq + 1);
  v = v.substr(0, v.find(';'));
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

// The sink keeps every Set-Cookie, one per line: the first that sets `name`.
std::optional<std::string_view> cookie_value(std::string_view set_cookies, std::string_view name) {
  while (!set_cookies.empty()) {
    const std::size_t nl = set_cookies.find('\n');
    if (auto v = one_cookie_value(set_cookies.substr(0, nl), name)) return v;
    set_cookies = nl == std::string_view::npos ? std::string_view() : set_cookies.substr(nl + 1);
  }
  return std::nullopt;
}

// Wall-clock seconds since the Unix epoch: cookies expire by the server's dates.
std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::uint32_t max_groups(const workload::ScenarioPlan& s) {
  std::uint32_t most = 0;
  for (const workload::Step& step : s.steps) {
    for (const Capture& c : step.flow.captures)
      if (c.regex) most = std::max(most, c.regex->groups());
    for (const Check& c : step.flow.checks)
      if (c.regex) most = std::max(most, c.regex->groups());
  }
  return most;
}

}  // namespace

std::optional<ResponseCapture> flow_response_capture(const workload::ScenarioPlan& scenario, bool data_rows) {
  ResponseCapture capture;
  capture.value_cap = k_flow_value_cap;
  bool any = false, body = false;
  for (const workload::Step& step : scenario.steps) {
    for (const Capture& c : step.flow.captures) {
      any = true;
      if (c.source == CaptureSource::header) add_name(capture.headers, c.name);
      if (c.source == CaptureSource::cookie) add_name(capture.headers, "set-cookie");
      body |= c.source == CaptureSource::json || c.source == CaptureSource::regex ||
              c.source == CaptureSource::body;
    }
    for (const Check& c : step.flow.checks) {
      any = true;
      if (c.kind == CheckKind::header) add_name(capture.headers, c.text);
      body |= c.kind == CheckKind::json || c.kind == CheckKind::body_contains;
    }
  }
  if (scenario.cookies && !scenario.steps.empty()) {
    any = true;
    add_name(capture.headers, "set-cookie");  // the cookie jar
  }
  any |= data_rows;  // the FlowRunner hands out the rows
  if (!any) return std::nullopt;
  capture.body_cap = body ? k_flow_body_cap : 0;
  return capture;
}

FlowRunner::FlowRunner(const workload::ScenarioPlan& scenario, const workload::VariableSet& variables,
                       const ResponseCapture& capture, std::size_t users, const net::Url& target,
                       std::optional<workload::RowDealer> rows)
    : m_scenario(scenario),
      m_header_names(capture.headers),
      m_slot_of(variables.size(), std::string::npos),
      m_match(max_groups(scenario)) {
  for (const workload::Step& step : scenario.steps) {
    for (const Capture& c : step.flow.captures) {
      if (m_slot_of[c.variable] != std::string::npos) continue;
      m_slot_of[c.variable] = m_captured.size();
      m_captured.push_back(c.variable);
    }
  }
  m_values.resize(users * m_captured.size());
  m_scratch.reserve(k_flow_value_cap);
  for (std::size_t i = 0; i < m_header_names.size(); ++i)
    if (m_header_names[i] == "set-cookie") m_set_cookie = i;
  if (scenario.cookies && m_set_cookie) m_jars.resize(users);
  m_host = lower(target.host);
  m_tls = target.tls;
  m_examples.resize(scenario.steps.size());
  if (rows) {
    m_rows = std::move(rows);
    m_row.resize(users);
  }
}

bool FlowRunner::begin(std::uint32_t user) {
  if (m_rows) {
    const std::optional<std::size_t> row = m_rows->next();
    if (!row) return false;
    m_row[user] = *row;
  }
  const std::size_t n = m_captured.size();
  for (std::size_t i = 0; i < n; ++i) m_values[user * n + i].clear();
  if (!m_jars.empty()) m_jars[user].clear();
  return true;
}

void FlowRunner::take_cookies(std::uint32_t user, const http::ResponseSink& sink,
                              std::string_view request_target) {
  if (m_jars.empty()) return;
  const auto headers = sink.header(*m_set_cookie);
  if (!headers) return;
  const std::int64_t now = unix_now();
  std::string_view rest = *headers;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    // A cookie with a control character would break the requests it goes into: it is not kept.
    const auto cookie = http::parse_set_cookie(rest.substr(0, nl));
    if (cookie && printable(cookie->name) && printable(cookie->value))
      (void)m_jars[user].store(*cookie, m_host, request_target, now);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  }
}

std::string_view FlowRunner::cookie_header(std::uint32_t user, std::string_view request_target) {
  if (m_jars.empty() || m_jars[user].size() == 0) return {};
  m_jars[user].header(m_host, request_target, m_tls, unix_now(), m_cookie_header);
  return m_cookie_header;
}

void FlowRunner::before_step(std::uint32_t user, workload::VariableState& variables) const {
  const std::size_t n = m_captured.size();
  for (std::size_t i = 0; i < n; ++i) variables.set(m_captured[i], m_values[user * n + i]);
  if (!m_rows) return;
  const workload::SessionData& data = m_rows->data();
  for (std::size_t c = 0; c < data.variables.size(); ++c)
    if (data.variables[c] != std::string::npos) variables.set(data.variables[c], data.cell(m_row[user], c));
}

bool FlowRunner::store(std::uint32_t user, std::size_t variable, std::string_view value) {
  if (!printable(value)) return false;
  m_values[user * m_captured.size() + m_slot_of[variable]].assign(value);
  return true;
}

std::optional<std::string_view> FlowRunner::header(const http::ResponseSink& sink,
                                                   const std::string& name) const {
  for (std::size_t i = 0; i < m_header_names.size(); ++i) {
    const std::string& h = m_header_names[i];
    const bool same =
        h.size() == name.size() && std::equal(h.begin(), h.end(), name.begin(), [](char a, char b) {
          return a == std::tolower(static_cast<unsigned char>(b));
        });
    if (same) return sink.header(i);
  }
  return std::nullopt;
}

bool FlowRunner::run_capture(const Capture& c, std::uint32_t user, const http::ResponseSink& sink) {
  std::optional<std::string_view> value;
  char status[4];
  switch (c.source) {
    case CaptureSource::status: {
      const int s = std::clamp(sink.status(), 0, 999);
      status[0] = static_cast<char>('0' + s / 100);
      status[1] = static_cast<char>('0' + s / 10 % 10);
      status[2] = static_cast<char>('0' + s % 10);
      value = std::string_view(status, 3);
      break;
    }
    case CaptureSource::body:
      value = sink.body();
      break;
    case CaptureSource::header:
      value = header(sink, c.name);
      break;
    case CaptureSource::cookie:
      if (auto set_cookie = header(sink, "set-cookie")) value = cookie_value(*set_cookie, c.name);
      break;
    case CaptureSource::json:
      if (auto v = workload::json_find(sink.body(), *c.json); v && workload::json_text(*v, m_scratch))
        value = m_scratch;
      break;
    case CaptureSource::regex: {
      // match: N takes the Nth match, last the last one: each search starts where the previous match ended.
      const std::string_view body = sink.body();
      std::size_t from = 0;
      for (std::uint32_t k = 1; c.regex->find(body, from, m_match); ++k) {
        from = m_match.end();
        if (c.match == Capture::k_last) {
          value = m_match.group(c.group);
          continue;
        }
        if (k == c.match) {
          value = m_match.group(c.group);
          break;
        }
      }
      break;
    }
  }
  if (value && store(user, c.variable, *value)) return true;
  if (c.fallback) return store(user, c.variable, *c.fallback);
  return false;
}

bool FlowRunner::run_check(const Check& c, const http::ResponseSink& sink) {
  switch (c.kind) {
    case CheckKind::status:
      return c.status.contains(sink.status());
    case CheckKind::body_contains:
      return sink.body().find(c.text) != std::string_view::npos;
    case CheckKind::json: {
      const auto v = workload::json_find(sink.body(), *c.json);
      if (c.test == CheckTest::exists) return v.has_value() == c.exists;
      if (!v || !workload::json_text(*v, m_scratch)) return false;
      if (c.test == CheckTest::equals) return m_scratch == c.text;
      return c.regex->find(m_scratch, 0, m_match);
    }
    case CheckKind::header: {
      const auto v = header(sink, c.text);
      if (c.test == CheckTest::exists) return v.has_value() == c.exists;
      return v && c.regex->find(*v, 0, m_match);
    }
  }
  return false;
}

FlowRunner::StepResult FlowRunner::after_response(std::uint32_t user, std::size_t step,
                                                  const http::ResponseSink& sink,
                                                  results::FlowCounters& flows) {
  const workload::StepFlow& flow = m_scenario.steps[step].flow;
  StepResult r;
  std::uint32_t bit = 0;
  const auto fail = [&](bool failed) {
    if (failed) r.failed |= 1U << std::min<std::uint32_t>(bit, 31);
    ++bit;
    return failed ? 1U : 0U;
  };
  for (const Capture& c : flow.captures) r.captures_failed += fail(!run_capture(c, user, sink));
  for (const Check& c : flow.checks) r.checks_failed += fail(!run_check(c, sink));
  results::StepFlowCounts& counts = flows.steps[std::min(step, flows.steps.size() - 1)];
  counts.captures_failed += r.captures_failed;
  counts.checks_failed += r.checks_failed;
  flows.captures_failed += r.captures_failed;
  flows.checks_failed += r.checks_failed;
  r.stop = (r.captures_failed + r.checks_failed) > 0 && flow.on_fail == workload::OnFail::stop;
  return r;
}

std::string FlowRunner::describe_failures(std::uint32_t user, std::size_t step, const http::ResponseSink& sink,
                                          std::string_view request) {
  const workload::StepFlow& flow = m_scenario.steps[step].flow;
  const std::string response =
      fmt::format("in {}'s response, status {}, {} bytes{}", request, sink.status(), sink.body().size(),
                  sink.truncated() ? " (cut at the cap)" : "");
  std::string out;
  const auto add = [&](const std::string& clause) { out += (out.empty() ? "" : "; ") + clause; };
  for (const Capture& c : flow.captures) {
    if (run_capture(c, user, sink)) continue;
    // What was missing; a source present but refused held a control character (it would break a request).
    std::string what = "the value has a control character";
    if (c.source == CaptureSource::json && !workload::json_find(sink.body(), *c.json)) {
      what = "nothing at " + c.json->text();
    } else if (c.source == CaptureSource::header && !header(sink, c.name)) {
      what = "no header " + c.name;
    } else if (c.source == CaptureSource::cookie) {
      const auto set_cookie = header(sink, "set-cookie");
      if (!set_cookie || !cookie_value(*set_cookie, c.name)) what = "no Set-Cookie sets " + c.name;
    } else if (c.source == CaptureSource::regex) {
      const bool nth = c.match != 1 && c.match != Capture::k_last;
      what = fmt::format("no match{} of '{}' (or a control character in it)",
                         nth ? fmt::format(" {}", c.match) : "", c.regex->pattern());
    }
    add(fmt::format("capture {}: {} {}", c.as, what, response));
  }
  for (const Check& c : flow.checks) {
    if (run_check(c, sink)) continue;
    add(fmt::format("check {} failed {}", c.label, response));
  }
  return out;
}

std::optional<std::pair<std::string, std::string>> FlowRunner::example(std::uint32_t user, std::size_t step,
                                                                       std::uint32_t failed,
                                                                       const http::ResponseSink& sink,
                                                                       std::string_view request) {
  if (failed == 0) return std::nullopt;
  std::array<std::uint32_t, k_flow_examples>& seen = m_examples[step];
  std::size_t place = 0;
  while (place < seen.size() && seen[place] != 0 && seen[place] != failed) ++place;
  if (place == seen.size() || seen[place] == failed) return std::nullopt;
  seen[place] = failed;
  std::string key = fmt::format("step {} {}", step + 1, request);
  if (place > 0) key += fmt::format(" ({})", place + 1);
  return std::pair{std::move(key), describe_failures(user, step, sink, request)};
}

void FlowRunner::count_stopped(std::size_t step, results::FlowCounters& flows) {
  ++flows.stopped;
  ++flows.steps[std::min(step, flows.steps.size() - 1)].stopped;
}

}  // namespace openloop::engine
