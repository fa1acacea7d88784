// Apache's LogFormat translated to nginx's variable syntax (workload/apache_log_format.h).
#include "workload/apache_log_format.h"

#include <cctype>

#include <fmt/format.h>

#include "workload/nginx_log_format.h"
#include "workload/nginx_trace.h"

namespace openloop::workload {
namespace {

// The nginx variable a %{arg}t reads, or "" when openloop cannot read it.
std::string_view time_variable(std::string_view arg) {
  bool end = false;
  if (arg.substr(0, 6) == "begin:") {
    arg.remove_prefix(6);
  } else if (arg.substr(0, 4) == "end:") {
    arg.remove_prefix(4);
    end = true;
  }
  if (arg == "msec") return end ? "apache_end_msec" : "apache_begin_msec";
  if (arg == "usec") return end ? "apache_end_usec" : "apache_begin_usec";
  if (arg == "sec") return end ? "apache_end_sec" : "apache_begin_sec";
  return {};
}

std::string header_variable(std::string_view name) {
  std::string v = "http_";
  for (char c : name)
    v.push_back(c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return v;
}

// Reads the line with `combined`, and a line that does not match it with `common` (Apache's two predefined
// formats, when the user names none).
class ApacheDefaultParser final : public TraceLineParser {
 public:
  ApacheDefaultParser(NginxTraceParser combined, NginxTraceParser common)
      : m_combined(std::move(combined)), m_common(std::move(common)) {}

  Result<ParsedUnit> parse(std::string_view line, TraceRecord& out) override {
    const std::uint64_t number = out.line;
    auto first = m_combined.parse(line, out);
    if (first) return first;
    out.clear();
    out.line = number;
    auto second = m_common.parse(line, out);
    if (second) return second;
    return first;  // combined's complaint: the format a full line is expected in
  }
  bool spreads_seconds() const override { return m_combined.spreads_seconds(); }

 private:
  NginxTraceParser m_combined, m_common;
};

Result<NginxTraceParser> compile(std::string_view apache_format, std::uint64_t seed, std::string_view what) {
  const std::string translated = OPENLOOP_TRY(apache_to_nginx_format(apache_format, what));
  auto format = OPENLOOP_TRY(NginxLogFormat::parse(translated, what));
  const auto has = [&](std::string_view name) { return format.find(name).has_value(); };
  if (!has("apache_time") && !has("apache_begin_msec") && !has("apache_begin_usec") &&
      !has("apache_end_msec") && !has("apache_end_usec") && !has("apache_begin_sec") &&
      !has("apache_end_sec")) {
    return usage_error(
        fmt::format("{}: the LogFormat has no time; log %{{msec}}t (best: milliseconds) or %t", what));
  }
  if (!has("request") && !(has("request_method") && (has("uri") || has("request_uri")))) {
    return usage_error(fmt::format("{}: the LogFormat has no request; log %r, or %m with %U%q", what));
  }
  return NginxTraceParser::create(std::move(format), seed, what);
}

}  // namespace

Result<std::string> apache_to_nginx_format(std::string_view format, std::string_view what) {
  std::string out;
  std::string previous;  // the directive just emitted when no literal text followed it yet ("" otherwise)
  for (std::size_t i = 0; i < format.size();) {
    const char c = format[i];
    if (c == '$') {
      return usage_error(
          fmt::format("{}: a literal '$' (column {}) cannot be read; openloop reads Apache's format through "
                      "nginx's syntax, "
                      "where '$' starts a variable",
                      what, i + 1));
    }
    if (c != '%') {
      out.push_back(c);
      previous.clear();
      ++i;
      continue;
    }
    const std::size_t at = i++;
    if (i < format.size() && format[i] == '%') {
      out.push_back('%');
      previous.clear();
      ++i;
      continue;
    }
    // Modifiers: a status condition (%400,501 or %!200) and Apache's original/final request (%< %>).
    while (i < format.size() &&
           (std::isdigit(static_cast<unsigned char>(format[i])) != 0 || format[i] == ',' ||
            format[i] == '!' || format[i] == '<' || format[i] == '>'))
      ++i;
    std::string_view arg;
    if (i < format.size() && format[i] == '{') {
      const auto close = format.find('}', i + 1);
      if (close == std::string_view::npos)
        return usage_error(fmt::format("{}: \"%{{\" at column {} is not closed by '}}'", what, at + 1));
      arg = format.substr(i + 1, close - i - 1);
      i = close + 1;
    }
    if (i >= format.size())
      return usage_error(
          fmt::format("{}: '%' at column {} is not followed by a directive (e.g. %h, %t, %r)", what, at + 1));
    const char d = format[i++];
    const std::string directive(format.substr(at, i - at));
    std::string variable;
    std::string before, after;
    switch (d) {
      case 'h':
      case 'a':
        variable = "remote_addr";
        break;
      case 'u':
        variable = "remote_user";
        break;
      case 'r':
        variable = "request";
        break;
      case 'm':
        variable = "request_method";
        break;
      case 'U':
        // %U%q (the path, then "?query" or nothing) is the request's target: one value.
        if (format.substr(i, 2) == "%q") {
          variable = "request_uri";
          i += 2;
        } else {
          variable = "uri";
        }
        break;
      case 's':
        variable = "status";
        break;
      case 'b':
      case 'B':
        variable = "body_bytes_sent";
        break;
      case 'D':
        variable = "apache_duration_us";
        break;
      case 'T':
        if (arg.empty() || arg == "s") {
          variable = "apache_duration_s";
        } else if (arg == "ms") {
          variable = "apache_duration_ms";
        } else if (arg == "us") {
          variable = "apache_duration_us";
        } else {
          return usage_error(
              fmt::format("{}: {} (column {}): expected %T, %{{ms}}T or %{{us}}T", what, directive, at + 1));
        }
        break;
      case 't':
        if (arg.empty()) {
          variable = "apache_time";
          before = "[";
          after = "]";
        } else {
          variable = time_variable(arg);
          if (variable.empty()) {
            return usage_error(
                fmt::format("{}: {} (column {}) cannot be read as a time; log %{{msec}}t, %{{usec}}t (or "
                            "with begin:/end:) or "
                            "%t",
                            what, directive, at + 1));
          }
        }
        break;
      case 'i':
        if (arg.empty())
          return usage_error(
              fmt::format("{}: %i at column {} names no header; e.g. %{{User-Agent}}i", what, at + 1));
        variable = header_variable(arg);
        break;
      default:
        if (std::string_view("lqHAefnopPRvVXIOSkLCxc^").find(d) == std::string_view::npos) {
          return usage_error(
              fmt::format("{}: {} (column {}) is not an Apache log directive openloop knows; e.g. %h %l %u "
                          "%t \"%r\" %>s %b",
                          what, directive, at + 1));
        }
        variable = fmt::format("apache_other_{}", static_cast<int>(at));
    }
    if (!previous.empty() && before.empty()) {
      return usage_error(
          fmt::format("{}: {} follows {} with nothing between them; a line could not be split between them",
                      what, directive, previous));
    }
    out += before;
    out += "${" + variable + "}";
    out += after;
    previous = after.empty() ? directive : std::string();
  }
  return out;
}

Result<std::unique_ptr<TraceLineParser>> apache_trace_parser(std::string_view format, std::uint64_t seed,
                                                             std::string_view what) {
  if (!format.empty()) return std::make_unique<NginxTraceParser>(OPENLOOP_TRY(compile(format, seed, what)));
  auto combined = OPENLOOP_TRY(compile(k_apache_combined, seed, what));
  auto common = OPENLOOP_TRY(compile(k_apache_common, seed, what));
  return std::make_unique<ApacheDefaultParser>(std::move(combined), std::move(common));
}

}  // namespace openloop::workload
