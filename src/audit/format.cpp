// Format names, detection from a file's first line, and the reader for each.
#include "audit/format.h"

#include <fmt/format.h>

#include "audit/ab_reader.h"
#include "audit/hey_reader.h"
#include "audit/jmeter_reader.h"
#include "audit/k6_reader.h"
#include "audit/line_source.h"
#include "audit/vegeta_reader.h"

namespace openloop::audit {
namespace {

struct Named {
  Format format;
  std::string_view name;
};
constexpr Named k_names[] = {{Format::auto_detect, "auto"}, {Format::hey, "hey"}, {Format::ab, "ab"},
                             {Format::jmeter, "jmeter"},    {Format::k6, "k6"},   {Format::vegeta, "vegeta"},
                             {Format::locust, "locust"}};

}  // namespace

std::string_view format_names() {
  return "auto, hey, ab, jmeter, k6, vegeta, locust";
}

Result<Format> parse_format(std::string_view text) {
  for (const auto& n : k_names) {
    if (n.name == text) return n.format;
  }
  return usage_error(
      fmt::format("--format '{}': not a format audit reads; use one of {}", text, format_names()));
}

std::string_view format_name(Format f) {
  for (const auto& n : k_names) {
    if (n.format == f) return n.name;
  }
  return "?";
}

Result<Format> detect_format(const std::string& path) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::string first;
  if (!lines.next(first))
    return usage_error(fmt::format("{}: is empty; audit reads {}", path, format_names()));
  if (first.rfind("response-time,", 0) == 0) return Format::hey;
  if (first.rfind("starttime\tseconds\t", 0) == 0) return Format::ab;
  if (first.find("timeStamp") != std::string::npos && first.find("elapsed") != std::string::npos) {
    return Format::jmeter;
  }
  if (first.rfind("Timestamp,User Count,", 0) == 0) return Format::locust;
  // k6 starts with a Metric or Point line; Vegeta's JSON with an object holding attack/seq/latency, its CSV
  // with a Unix-nanosecond timestamp (19 digits) and no header.
  if (first.rfind("{\"type\":", 0) == 0 && first.find("\"metric\":") != std::string::npos) return Format::k6;
  if (first.front() == '{' && first.find("\"latency\":") != std::string::npos &&
      first.find("\"timestamp\":") != std::string::npos) {
    return Format::vegeta;
  }
  if (first.size() > 20 && first.find_first_not_of("0123456789") == 19 && first[19] == ',')
    return Format::vegeta;
  return usage_error(fmt::format(
      "{}:1: '{}' is not the start of a format audit recognises (hey -o csv: 'response-time,...'; ab -g: "
      "'starttime<TAB>seconds<TAB>...'; JMeter CSV JTL: a header with timeStamp and elapsed; k6 --out json: "
      "type/metric objects; Vegeta encode --to json: objects with timestamp and latency, --to csv: a "
      "Unix-nanosecond timestamp first; Locust --csv history: 'Timestamp,User Count,...'); name one with "
      "--format ({})",
      path, first.size() > 80 ? first.substr(0, 80) + "…" : first, format_names()));
}

Result<std::unique_ptr<RecordReader>> open_reader(const std::string& path, Format format) {
  if (format == Format::auto_detect) format = OPENLOOP_TRY(detect_format(path));
  switch (format) {
    case Format::hey:
      return HeyReader::open(path);
    case Format::ab:
      return AbReader::open(path);
    case Format::jmeter:
      return JmeterReader::open(path);
    case Format::k6:
      return K6Reader::open(path);
    case Format::vegeta:
      return VegetaReader::open(path);
    case Format::locust:
      return usage_error(
          fmt::format("{}: a Locust stats history holds aggregates, not request records", path));
    case Format::auto_detect:
      break;
  }
  return usage_error(fmt::format("{}: no reader for this format", path));
}

}  // namespace openloop::audit
