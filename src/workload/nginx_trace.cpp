// nginx access log lines as trace records (workload/nginx_trace.h).
#include "workload/nginx_trace.h"

#include <array>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "core/rng.h"
#include "core/start_at.h"
#include "workload/jsonl_trace.h"
#include "workload/trace_checks.h"

namespace openloop::workload {
namespace {

constexpr std::string_view k_http_prefix = "http_";

using TimeUnit = NginxTraceParser::TimeUnit;
// The stamps a log may hold, best first: nginx's (stamped at the request's end) and the names Apache's %t forms
// are translated to (workload/apache_log_format.h; stamped at its start unless "end:").
constexpr NginxTraceParser::TimeVariable k_stamps[] = {
    {"msec", TimeUnit::seconds, false, false},
    {"apache_begin_usec", TimeUnit::micros, true, false},
    {"apache_begin_msec", TimeUnit::millis, true, false},
    {"apache_end_usec", TimeUnit::micros, false, false},
    {"apache_end_msec", TimeUnit::millis, false, false},
    {"time_iso8601", TimeUnit::iso8601, false, true},
    {"time_local", TimeUnit::time_local, false, true},
    {"apache_time", TimeUnit::time_local, true, true},
    {"apache_begin_sec", TimeUnit::seconds, true, true},
    {"apache_end_sec", TimeUnit::seconds, false, true},
};
// How long the request took: nginx's $request_time, Apache's %D, %{ms}T, %T.
constexpr NginxTraceParser::TimeVariable k_durations[] = {
    {"request_time", TimeUnit::seconds, false, false},
    {"apache_duration_us", TimeUnit::micros, false, false},
    {"apache_duration_ms", TimeUnit::millis, false, false},
    {"apache_duration_s", TimeUnit::seconds, false, false},
};

// "user_agent" → "User-Agent".
std::string header_name(std::string_view variable) {
  std::string name(variable);
  bool start = true;
  for (char& c : name) {
    if (c == '_') {
      c = '-';
      start = true;
      continue;
    }
    c = static_cast<char>(start ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
    start = false;
  }
  return name;
}

bool absent(std::string_view v) { return v.empty() || v == "-"; }

// How messages call a time variable: nginx's by its name, Apache's by its directive.
std::string display_name(std::string_view variable) {
  static constexpr std::pair<std::string_view, std::string_view> k_apache[] = {
      {"apache_begin_usec", "%{usec}t"},  {"apache_begin_msec", "%{msec}t"}, {"apache_end_usec", "%{end:usec}t"},
      {"apache_end_msec", "%{end:msec}t"}, {"apache_time", "%t"},          {"apache_begin_sec", "%{sec}t"},
      {"apache_end_sec", "%{end:sec}t"},   {"apache_duration_us", "%D"},   {"apache_duration_ms", "%{ms}T"},
      {"apache_duration_s", "%T"}};
  for (const auto& [name, directive] : k_apache)
    if (name == variable) return std::string(directive);
  return fmt::format("${}", variable);
}

// Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool number(std::string_view text, int& out) {
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

}  // namespace

std::optional<Nanos> parse_decimal_seconds(std::string_view text) {
  const auto dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() || frac.size() > 9 || (dot != std::string_view::npos && frac.empty())) return std::nullopt;
  std::int64_t s = 0, f = 0;
  auto r = std::from_chars(whole.data(), whole.data() + whole.size(), s);
  if (r.ec != std::errc() || r.ptr != whole.data() + whole.size() || s < 0 || s > 9'000'000'000) return std::nullopt;
  if (!frac.empty()) {
    r = std::from_chars(frac.data(), frac.data() + frac.size(), f);
    if (r.ec != std::errc() || r.ptr != frac.data() + frac.size() || f < 0) return std::nullopt;
    for (std::size_t i = frac.size(); i < 9; ++i) f *= 10;
  }
  return Nanos(s * 1'000'000'000 + f);
}

std::optional<Nanos> parse_time_local(std::string_view t) {
  // 10/Oct/2000:13:55:36 -0700
  static constexpr std::array<std::string_view, 12> k_months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                                "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (t.size() != 26 || t[2] != '/' || t[6] != '/' || t[11] != ':' || t[14] != ':' || t[17] != ':' ||
      t[20] != ' ' || (t[21] != '+' && t[21] != '-'))
    return std::nullopt;
  int day = 0, year = 0, hour = 0, minute = 0, second = 0, oh = 0, om = 0;
  unsigned month = 0;
  for (unsigned m = 0; m < 12; ++m)
    if (t.substr(3, 3) == k_months[m]) month = m + 1;
  if (month == 0 || !number(t.substr(0, 2), day) || !number(t.substr(7, 4), year) ||
      !number(t.substr(12, 2), hour) || !number(t.substr(15, 2), minute) || !number(t.substr(18, 2), second) ||
      !number(t.substr(22, 2), oh) || !number(t.substr(24, 2), om))
    return std::nullopt;
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || oh > 23 || om > 59) return std::nullopt;
  const std::int64_t offset = (t[21] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
  const std::int64_t s = days_from_civil(year, month, static_cast<unsigned>(day)) * 86400 + hour * 3600 +
                         minute * 60 + second - offset;
  // Nanoseconds since 1970 in 64 bits reach 1677 to 2262: a year beyond would overflow.
  if (s > 9'200'000'000 || s < -9'200'000'000) return std::nullopt;
  return Nanos(s * 1'000'000'000);
}

std::string unescape_nginx(std::string_view text) {
  std::string out;
  unescape_nginx_into(text, out);
  return out;
}

void unescape_nginx_into(std::string_view text, std::string& out) {
  out.clear();
  // Most values hold no backslash: copied at once.
  const std::size_t first = text.find('\\');
  if (first == std::string_view::npos) {
    out.assign(text);
    return;
  }
  out.reserve(text.size());
  out.append(text.substr(0, first));
  for (std::size_t i = first; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x' && std::isxdigit(static_cast<unsigned char>(text[i + 2])) != 0 &&
        std::isxdigit(static_cast<unsigned char>(text[i + 3])) != 0) {
      int v = 0;
      std::from_chars(text.data() + i + 2, text.data() + i + 4, v, 16);
      out.push_back(static_cast<char>(v));
      i += 3;
      continue;
    }
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
      out.push_back(text[++i]);  // escape=json's and Apache's \" and \\ (nginx's default never writes them)
      continue;
    }
    out.push_back(text[i]);
  }
}

Result<NginxTraceParser> NginxTraceParser::create(NginxLogFormat format, std::uint64_t seed,
                                                  std::string_view what) {
  NginxTraceParser p;
  p.m_seed = seed;
  for (const auto& v : k_stamps) {
    if (const auto i = format.find(v.name)) {
      p.m_stamp = Stamp{*i, v, v.whole};
      break;
    }
  }
  for (const auto& v : k_durations) {
    if (const auto i = format.find(v.name)) {
      p.m_duration = Stamp{*i, v, false};
      break;
    }
  }
  p.m_request = format.find("request");
  p.m_method = format.find("request_method");
  p.m_uri = format.find("request_uri");
  p.m_uri_is_request_uri = p.m_uri.has_value();
  if (!p.m_uri) p.m_uri = format.find("uri");
  p.m_args = format.find("args");
  if (!p.m_args) p.m_args = format.find("query_string");
  p.m_body = format.find("request_body");
  p.m_remote_addr = format.find("remote_addr");
  p.m_status = format.find("status");
  p.m_bytes = format.find("body_bytes_sent");
  if (p.m_stamp.variable.name.empty()) {
    return usage_error(fmt::format(
        "{}: the log_format has no time; log $msec (best: milliseconds), $time_iso8601 or $time_local", what));
  }
  if (!p.m_request && !(p.m_method && p.m_uri)) {
    return usage_error(fmt::format(
        "{}: the log_format has no request; log $request, or $request_method with $request_uri", what));
  }
  for (std::size_t i = 0; i < format.variables().size(); ++i) {
    const std::string& v = format.variables()[i];
    if (v.size() > k_http_prefix.size() && v.compare(0, k_http_prefix.size(), k_http_prefix) == 0)
      p.m_headers.push_back({i, header_name(std::string_view(v).substr(k_http_prefix.size()))});
  }
  p.m_format = std::move(format);
  return p;
}

Result<Nanos> NginxTraceParser::read_time(std::size_t index, const TimeVariable& v) const {
  const std::string_view text = m_values[index];
  const auto bad = [&](std::string_view expected) {
    return usage_error(fmt::format("{} \"{}\": expected {}", display_name(v.name), text.substr(0, 40), expected));
  };
  switch (v.unit) {
    case TimeUnit::seconds: {
      const auto t = parse_decimal_seconds(text);
      if (!t) return bad(v.at_start || v.name == "msec" ? "seconds such as 1700000000.123" : "seconds such as 0.004");
      return *t;
    }
    case TimeUnit::millis:
    case TimeUnit::micros: {
      std::int64_t n = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      // Nanoseconds in an int64 reach ±292 years: Unix-epoch stamps fit, larger values are refused.
      const std::int64_t most = v.unit == TimeUnit::millis ? 9'000'000'000'000 : 9'000'000'000'000'000;
      if (ec != std::errc() || ptr != text.data() + text.size() || n < 0 || n > most)
        return bad(v.unit == TimeUnit::millis ? "whole milliseconds" : "whole microseconds");
      return v.unit == TimeUnit::millis ? Nanos(std::chrono::milliseconds(n)) : Nanos(std::chrono::microseconds(n));
    }
    case TimeUnit::time_local: {
      const auto t = parse_time_local(text);
      if (!t) return bad("such as 10/Oct/2000:13:55:36 -0700");
      return *t;
    }
    case TimeUnit::iso8601: {
      const auto wall = parse_rfc3339(text, display_name(v.name));
      if (!wall) return tl::unexpected(wall.error());
      return std::chrono::duration_cast<Nanos>(wall->time_since_epoch());
    }
  }
  return bad("a time");
}

Result<ParsedUnit> NginxTraceParser::parse(std::string_view line, TraceRecord& out) {
  OPENLOOP_TRY_VOID(m_format.match(line, m_values));
  // A connection that closed before sending a request is logged with an empty request (nginx: "" 400; Apache:
  // "-" 408): no record.
  if (absent(m_values[m_request ? *m_request : *m_method]))
    return ParsedUnit::no_request;
  // The start of the request.
  out.t = OPENLOOP_TRY(read_time(m_stamp.index, m_stamp.variable));
  if (m_stamp.whole) {
    // Whole seconds: spread within the second, the same way for the same seed and line.
    Rng rng(m_seed, out.line);
    out.t += Nanos(static_cast<std::int64_t>(rng.uniform01() * 1e9));
  }
  if (!m_stamp.variable.at_start && m_duration && !absent(m_values[m_duration->index]))
    out.t -= OPENLOOP_TRY(read_time(m_duration->index, m_duration->variable));
  // The request, read from the line itself unless it holds an escape (then from m_scratch, decoded): no
  // string is built but the record's own, whose capacity the reader keeps.
  std::string_view target;
  if (m_request) {
    std::string_view request = m_values[*m_request];
    if (request.find('\\') != std::string_view::npos) {
      unescape_nginx_into(request, m_scratch);
      request = m_scratch;
    }
    const auto first = request.find(' ');
    const auto last = request.rfind(' ');
    if (first == std::string_view::npos || last == first)
      return usage_error(fmt::format("$request \"{}\": expected METHOD TARGET PROTOCOL, e.g. \"GET / HTTP/1.1\"",
                                     request.substr(0, 80)));
    out.method.assign(request.substr(0, first));
    target = request.substr(first + 1, last - first - 1);
  } else {
    out.method.assign(m_values[*m_method]);
    unescape_nginx_into(m_values[*m_uri], m_scratch);
    if (!m_uri_is_request_uri && m_args && !absent(m_values[*m_args])) {
      std::string args;
      unescape_nginx_into(m_values[*m_args], args);
      m_scratch.append("?").append(args);
    }
    target = m_scratch;
  }
  if (!is_http_token(out.method))
    return usage_error(fmt::format("method \"{}\" is not an HTTP method (a token, e.g. GET)", out.method.substr(0, 40)));
  OPENLOOP_TRY_VOID(trace_target_into(target, out.target));
  for (const auto& h : m_headers) {
    const std::string_view v = m_values[h.index];
    if (absent(v)) continue;
    http::Header& header = out.headers.emplace_back();
    header.name = h.name;
    unescape_nginx_into(v, header.value);
    OPENLOOP_TRY_VOID(check_trace_header(header));
  }
  if (m_body && !absent(m_values[*m_body])) unescape_nginx_into(m_values[*m_body], out.body);
  if (m_remote_addr) out.session.assign(m_values[*m_remote_addr]);
  if (m_status) {
    int status = 0;
    if (number(m_values[*m_status], status) && status >= 100 && status <= 999) out.status = status;
  }
  if (m_bytes) {
    const std::string_view b = m_values[*m_bytes];
    std::int64_t n = 0;
    const auto [ptr, ec] = std::from_chars(b.data(), b.data() + b.size(), n);
    if (ec == std::errc() && ptr == b.data() + b.size() && n >= 0) out.response_bytes = n;
  }
  return ParsedUnit::record;
}

}  // namespace openloop::workload
