// JSONL trace lines (workload/jsonl_trace.h).
#include "workload/jsonl_trace.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/start_at.h"
#include "workload/trace_checks.h"

namespace openloop::workload {
namespace {

using nlohmann::json;

Result<Nanos> stamp_of(const json& t) {
  if (t.is_number()) {
    const double s = t.get<double>();
    // Nanoseconds in an int64 reach ±292 years: enough for Unix-epoch stamps, refused beyond.
    if (!std::isfinite(s) || std::fabs(s) > 9e9)
      return usage_error(fmt::format("\"t\": {} is not a time in seconds (a finite number below 9e9)", t.dump()));
    return Nanos(std::llround(s * 1e9));
  }
  if (t.is_string()) {
    const auto wall = parse_rfc3339(t.get<std::string>(), "\"t\"");
    if (!wall) return tl::unexpected(wall.error());
    return std::chrono::duration_cast<Nanos>(wall->time_since_epoch());
  }
  return usage_error(
      fmt::format("\"t\": {} is neither seconds (a number) nor an RFC 3339 date-time (a string)", t.dump()));
}

Result<void> read_headers(const json& h, TraceRecord& out) {
  if (!h.is_object()) return usage_error("\"headers\": expected an object of \"Name\": \"value\" strings");
  for (const auto& [name, value] : h.items()) {
    if (!value.is_string())
      return usage_error(fmt::format("\"headers\": \"{}\" is {}, expected a string", name, value.type_name()));
    http::Header header{name, value.get<std::string>()};
    OPENLOOP_TRY_VOID(check_trace_header(header));
    out.headers.push_back(std::move(header));
  }
  return {};
}

}  // namespace

Result<std::string> trace_target(std::string_view url) {
  std::string_view target = url;
  for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
    if (url.size() >= scheme.size() && std::equal(scheme.begin(), scheme.end(), url.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == b;
        })) {
      const auto rest = url.substr(scheme.size());
      const auto slash = rest.find_first_of("/?");
      target = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
    }
  }
  if (target.empty() || (target.front() != '/' && target.front() != '?'))
    return usage_error(fmt::format("url \"{}\": expected a path starting with '/' or an http(s):// URL", url));
  OPENLOOP_TRY_VOID(check_trace_target(target));
  if (target.front() == '?') return "/" + std::string(target);
  return std::string(target);
}

Result<std::string> decode_base64(std::string_view text) {
  std::array<int, 256> value{};
  value.fill(-1);
  constexpr std::string_view k_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < k_alphabet.size(); ++i) value[static_cast<unsigned char>(k_alphabet[i])] = static_cast<int>(i);
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return usage_error("\"body_b64\": not base64 (a length that no encoding gives)");
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const int v = value[static_cast<unsigned char>(c)];
    if (v < 0) return usage_error(fmt::format("\"body_b64\": '{}' is not a base64 character (A-Z a-z 0-9 + /)", c));
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

Result<void> JsonlTraceParser::parse(std::string_view line, TraceRecord& out) {
  const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return usage_error("not a JSON object; expected one record a line: {\"t\": 1.5, \"url\": \"/path\", ...}");
  const auto t = j.find("t");
  if (t == j.end()) return usage_error("no \"t\": each record needs its time (seconds, or RFC 3339)");
  out.t = OPENLOOP_TRY(stamp_of(*t));
  const auto url = j.find("url");
  if (url == j.end() || !url->is_string()) return usage_error("no \"url\" string: each record needs its path or URL");
  out.target = OPENLOOP_TRY(trace_target(url->get_ref<const std::string&>()));
  if (const auto m = j.find("method"); m != j.end()) {
    if (!m->is_string() || !is_http_token(m->get_ref<const std::string&>()))
      return usage_error(fmt::format("\"method\": {} is not an HTTP method (a token, e.g. \"GET\")", m->dump()));
    out.method = m->get<std::string>();
  } else {
    out.method = "GET";
  }
  if (const auto h = j.find("headers"); h != j.end()) OPENLOOP_TRY_VOID(read_headers(*h, out));
  const auto body = j.find("body");
  const auto b64 = j.find("body_b64");
  if (body != j.end() && b64 != j.end()) return usage_error("\"body\" and \"body_b64\": give one, not both");
  if (body != j.end()) {
    if (!body->is_string()) return usage_error("\"body\": expected a string (binary bodies go in \"body_b64\")");
    out.body = body->get<std::string>();
  } else if (b64 != j.end()) {
    if (!b64->is_string()) return usage_error("\"body_b64\": expected a base64 string");
    out.body = OPENLOOP_TRY(decode_base64(b64->get_ref<const std::string&>()));
  }
  if (const auto s = j.find("session"); s != j.end()) {
    if (s->is_string()) {
      out.session = s->get<std::string>();
    } else if (s->is_number()) {
      out.session = s->dump();
    } else {
      return usage_error("\"session\": expected a string or a number");
    }
  }
  return {};
}

}  // namespace openloop::workload
