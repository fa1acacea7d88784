// JSONL trace lines (workload/jsonl_trace.h).
#include "workload/jsonl_trace.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/start_at.h"
#include "workload/jsonl_flat.h"
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
    // The numbers' bound too: a date written back as seconds (trace convert) must read again.
    const auto since_epoch = std::chrono::duration_cast<Nanos>(wall->time_since_epoch());
    if (std::fabs(to_seconds(since_epoch)) > 9e9) {
      return usage_error(fmt::format("\"t\": {} is more than 9e9 s from 1970 (before 1684 or after 2255): not a "
                                     "time a trace may hold",
                                     t.dump()));
    }
    return since_epoch;
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
  std::string out;
  OPENLOOP_TRY_VOID(trace_target_into(url, out));
  return out;
}

Result<void> trace_target_into(std::string_view url, std::string& out) {
  std::string_view target = url;
  for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
    // A scheme is case-insensitive (RFC 3986): HTTPS://host/x is an absolute URL too.
    if (url.size() >= scheme.size() &&
        std::equal(scheme.begin(), scheme.end(), url.begin(),
                   [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); })) {
      const auto rest = url.substr(scheme.size());
      const auto slash = rest.find_first_of("/?");
      target = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
    }
  }
  if (target.empty() || (target.front() != '/' && target.front() != '?'))
    return usage_error(fmt::format("url \"{}\": expected a path starting with '/' or an http(s):// URL", url));
  OPENLOOP_TRY_VOID(check_trace_target(target));
  out.clear();
  if (target.front() == '?') out.push_back('/');
  out.append(target);
  return {};
}

std::string encode_base64(std::string_view bytes) {
  constexpr std::string_view k_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 3; ++k)
      v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0U);
    for (std::size_t k = 0; k < 4; ++k)
      out.push_back(k <= n ? k_alphabet[(v >> (18 - 6 * k)) & 0x3F] : '=');
  }
  return out;
}

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1FU;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0FU;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07U;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= text.size()) return false;
      const auto d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3FU);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

namespace {

// A stamp as JSON: RFC 3339 with nanoseconds when it is a Unix-epoch time, else seconds of the trace's origin.
json stamp_json(Nanos t) {
  constexpr std::int64_t k_year_2000 = 946'684'800;
  const std::int64_t ns = t.count();
  if (ns < k_year_2000 * 1'000'000'000) {
    // Whole seconds and the fraction apart, so a stamp of a few seconds keeps every nanosecond.
    return json(static_cast<double>(ns / 1'000'000'000) + static_cast<double>(ns % 1'000'000'000) / 1e9);
  }
  const std::int64_t s = ns / 1'000'000'000;
  const std::int64_t days = s / 86400, rem = s % 86400;
  // civil_from_days (Howard Hinnant).
  const std::int64_t z = days + 719468;
  const std::int64_t era = z / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:09}Z", y, m, d, rem / 3600, rem % 3600 / 60, rem % 60,
                     ns % 1'000'000'000);
}

// The target as JSON text: bytes that are not UTF-8 percent-encoded (a target is ASCII on the wire anyway).
std::string target_text(const std::string& target) {
  if (is_utf8(target)) return target;
  std::string out;
  for (char c : target) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out.push_back(c);
    } else {
      out += fmt::format("%{:02X}", b);
    }
  }
  return out;
}

}  // namespace

Result<void> append_jsonl_record(const TraceRecord& r, std::string& out) {
  json j = json::object();
  j["t"] = stamp_json(r.t);
  j["method"] = r.method;
  j["url"] = target_text(r.target);
  if (!r.headers.empty()) {
    json h = json::object();
    for (const auto& header : r.headers) {
      if (!is_utf8(header.value))
        return usage_error(fmt::format("header {}: the value is not UTF-8 text; JSONL cannot hold it", header.name));
      auto& slot = h[header.name];
      slot = slot.is_string() ? json(slot.get<std::string>() + ", " + header.value) : json(header.value);
    }
    j["headers"] = std::move(h);
  }
  if (!r.body.empty()) {
    if (is_utf8(r.body)) {
      j["body"] = r.body;
    } else {
      j["body_b64"] = encode_base64(r.body);
    }
  }
  if (!r.session.empty() && is_utf8(r.session)) j["session"] = r.session;
  if (r.status > 0) j["status"] = r.status;
  if (r.response_bytes >= 0) j["response_bytes"] = r.response_bytes;
  out += j.dump();
  out.push_back('\n');
  return {};
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

Result<ParsedUnit> JsonlTraceParser::parse(std::string_view line, TraceRecord& out) {
  // The common line without a JSON document; any other (or a bad one) from the start with nlohmann, which
  // gives the same record or the line's error.
  if (parse_jsonl_flat(line, out, m_scratch)) return ParsedUnit::record;
  const std::uint64_t number = out.line;
  out.clear();
  out.line = number;
  return parse_jsonl_document(line, out);
}

Result<ParsedUnit> parse_jsonl_document(std::string_view line, TraceRecord& out) {
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
  if (const auto s = j.find("status"); s != j.end() && s->is_number_integer()) {
    const auto v = s->get<std::int64_t>();
    if (v < 100 || v > 999) return usage_error(fmt::format("\"status\": {} is not an HTTP status (100 to 999)", v));
    out.status = static_cast<int>(v);
  }
  if (const auto b = j.find("response_bytes"); b != j.end() && b->is_number_integer() && b->get<std::int64_t>() >= 0)
    out.response_bytes = b->get<std::int64_t>();
  return ParsedUnit::record;
}

}  // namespace openloop::workload
