// Format names, detection from a file's first line, and the reader for each.
#include "audit/format.h"

#include <fmt/format.h>

#include <fstream>

#include "audit/ab_reader.h"
#include "audit/gatling_reader.h"
#include "audit/hey_reader.h"
#include "audit/jmeter_reader.h"
#include "audit/jmeter_xml_reader.h"
#include "audit/k6_csv_reader.h"
#include "audit/k6_reader.h"
#include "audit/line_source.h"
#include "audit/vegeta_reader.h"

namespace openloop::audit {
namespace {

struct Named {
  Format format;
  std::string_view name;
};
constexpr Named k_names[] = {
    {Format::auto_detect, "auto"}, {Format::hey, "hey"},      {Format::ab, "ab"},
    {Format::jmeter, "jmeter"},    {Format::k6, "k6"},        {Format::gatling, "gatling"},
    {Format::vegeta, "vegeta"},    {Format::locust, "locust"}};

// The file's first bytes (at most `limit`); empty for an empty file.
Result<std::string> head_of(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return usage_error(fmt::format("{}: cannot be read (no such file, or no permission)", path));
  std::string head(limit, '\0');
  in.read(head.data(), static_cast<std::streamsize>(limit));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head;
}

// The first character that is not white space or a UTF-8 byte-order mark's.
char first_char(const std::string& head) {
  const std::size_t at = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  return at == std::string::npos ? '\0' : head[at];
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string_view format_names() {
  return "auto, hey, ab, jmeter, k6, gatling, vegeta, locust";
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
  const std::string head = OPENLOOP_TRY(head_of(path, 4096));
  if (head.empty()) return usage_error(fmt::format("{}: is empty; audit reads {}", path, format_names()));
  // Gatling 3.13+'s binary log starts with its RUN record's header byte, 0: the reader refuses it by name.
  if (head.front() == '\0') return Format::gatling;
  const std::string first = head.substr(0, head.find('\n'));
  if (first_char(head) == '<' && head.find("<testResults") != std::string::npos) return Format::jmeter;
  if (starts_with(first, "response-time,")) return Format::hey;
  if (starts_with(first, "starttime\tseconds\t")) return Format::ab;
  if (first.find("timeStamp") != std::string::npos && first.find("elapsed") != std::string::npos) {
    return Format::jmeter;
  }
  if (starts_with(first, "Timestamp,User Count,")) return Format::locust;
  if (starts_with(first, "metric_name,timestamp,metric_value")) return Format::k6;
  for (std::string_view record : {"RUN\t", "ASSERTION\t", "USER\t", "REQUEST\t"}) {
    if (starts_with(first, record)) return Format::gatling;
  }
  // k6 starts with a Metric or Point line; Vegeta's JSON with an object holding attack/seq/latency, its CSV
  // with a Unix-nanosecond timestamp (19 digits) and no header.
  if (starts_with(first, "{\"type\":") && first.find("\"metric\":") != std::string::npos) return Format::k6;
  if (starts_with(first, "{") && first.find("\"latency\":") != std::string::npos &&
      first.find("\"timestamp\":") != std::string::npos) {
    return Format::vegeta;
  }
  if (first.size() > 20 && first.find_first_not_of("0123456789") == 19 && first[19] == ',')
    return Format::vegeta;
  return usage_error(fmt::format(
      "{}:1: '{}' is not the start of a format audit recognises (hey -o csv: 'response-time,...'; ab -g: "
      "'starttime<TAB>seconds<TAB>...'; JMeter CSV JTL: a header with timeStamp and elapsed, XML JTL: "
      "<testResults>; k6 --out json: type/metric objects, --out csv: "
      "'metric_name,timestamp,metric_value,...'; "
      "Gatling simulation.log: RUN/USER/REQUEST records; Vegeta encode --to json: objects with timestamp and "
      "latency, --to csv: a Unix-nanosecond timestamp first; Locust --csv history: 'Timestamp,User "
      "Count,...'); name one with --format ({})",
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
      if (first_char(OPENLOOP_TRY(head_of(path, 64))) == '<') return JmeterXmlReader::open(path);
      return JmeterReader::open(path);
    case Format::k6:
      if (first_char(OPENLOOP_TRY(head_of(path, 64))) == '{') return K6Reader::open(path);
      return K6CsvReader::open(path);
    case Format::gatling:
      return GatlingReader::open(path);
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
