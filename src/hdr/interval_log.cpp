// .hlog writing (Java HistogramLogWriter's exact text) and parsing with line-numbered errors.
#include "hdr/interval_log.h"

#include <charconv>
#include <ctime>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "hdr/java_format.h"

namespace openloop::hdr {

namespace {

constexpr std::string_view k_version_prefix = "#[Histogram log format version ";
constexpr std::string_view k_start_prefix = "#[StartTime: ";
constexpr std::string_view k_base_prefix = "#[BaseTime: ";
constexpr std::string_view k_legend =
    "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"";
constexpr std::string_view k_line_shape = "`[Tag=NAME,]start,length,max,compressed-histogram`";

std::int64_t epoch_millis(std::chrono::system_clock::time_point t) {
  return std::chrono::floor<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

// Java's Date.toString() in UTC: "Wed Sep 09 15:24:39 UTC 2015".
std::string java_date_utc(std::int64_t millis) {
  static constexpr const char* k_days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* k_months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                             "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t seconds = static_cast<std::time_t>(millis >= 0 ? millis / 1000 : (millis - 999) / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{} {} {:02} {:02}:{:02}:{:02} UTC {}", k_days[tm.tm_wday], k_months[tm.tm_mon],
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year + 1900);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<double> parse_double(std::string_view s) {
  s = trim(s);
  double value = 0.0;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), value);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

// The number that follows a "#[StartTime: " style prefix, up to the next space or ']'.
std::optional<double> leading_double(std::string_view rest) {
  const std::size_t end = rest.find_first_of(" ]");
  return parse_double(rest.substr(0, end));
}

std::vector<std::string_view> split_commas(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = line.find(',', begin);
    fields.push_back(
        trim(line.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin)));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  return fields;
}

}  // namespace

IntervalLogWriter::IntervalLogWriter(std::ostream& out, double max_value_unit_ratio)
    : m_out(out), m_max_value_unit_ratio(max_value_unit_ratio) {}

void IntervalLogWriter::write_header(std::chrono::system_clock::time_point start) {
  write_format_version();
  write_start_time(start);
  write_base_time(start);
  write_legend();
}

void IntervalLogWriter::write_format_version() {
  m_out << k_version_prefix << "1.3]\n";
}

void IntervalLogWriter::write_start_time(std::chrono::system_clock::time_point start) {
  const std::int64_t ms = epoch_millis(start);
  m_out << k_start_prefix << java_fixed(static_cast<double>(ms) / 1000.0, 3) << " (seconds since epoch), "
        << java_date_utc(ms) << "]\n";
}

void IntervalLogWriter::write_base_time(std::chrono::system_clock::time_point base) {
  m_out << k_base_prefix << java_fixed(static_cast<double>(epoch_millis(base)) / 1000.0, 3)
        << " (seconds since epoch)]\n";
}

void IntervalLogWriter::write_comment(std::string_view text) {
  std::string line(text);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  m_out << '#' << line << '\n';
}

void IntervalLogWriter::write_legend() {
  m_out << k_legend << '\n';
}

Result<void> IntervalLogWriter::write_interval(std::chrono::nanoseconds start_offset,
                                               std::chrono::nanoseconds length, const Histogram& histogram,
                                               std::string_view tag) {
  if (tag.find_first_of(", \t\r\n") != std::string_view::npos) {
    return usage_error(
        fmt::format("hlog tag \"{}\" holds a comma, whitespace or line break (not allowed in tags)", tag));
  }
  std::string line;
  if (!tag.empty()) line = fmt::format("Tag={},", tag);
  line += java_fixed(LogSeconds(start_offset).count(), 3) + "," + java_fixed(LogSeconds(length).count(), 3) +
          "," + java_fixed(static_cast<double>(histogram.max()) / m_max_value_unit_ratio, 3) + "," +
          to_compressed_base64(histogram) + "\n";
  m_out << line;
  return {};
}

double IntervalLog::absolute_start_seconds(const IntervalLogEntry& entry) const {
  if (base_time_seconds) return entry.start.count() + *base_time_seconds;
  const double first = intervals.empty() ? entry.start.count() : intervals.front().start.count();
  const double start_time = start_time_seconds.value_or(first);
  const double base = first < start_time - 365.0 * 24 * 3600 ? start_time : 0.0;
  return entry.start.count() + base;
}

namespace {

// A '#' line: the version, StartTime and BaseTime notes, or any other comment (kept). Returns what was
// wrong when a StartTime/BaseTime note has no number.
std::optional<std::string> parse_comment(std::string_view line, IntervalLog& log) {
  if (line.starts_with(k_version_prefix)) {
    const std::string_view version = line.substr(k_version_prefix.size());
    log.format_version = std::string(version.substr(0, version.find(']')));
  } else if (line.starts_with(k_start_prefix)) {
    const auto v = leading_double(line.substr(k_start_prefix.size()));
    if (!v) return "expected seconds since the epoch after \"#[StartTime: \"";
    log.start_time_seconds = *v;
  } else if (line.starts_with(k_base_prefix)) {
    const auto v = leading_double(line.substr(k_base_prefix.size()));
    if (!v) return "expected seconds since the epoch after \"#[BaseTime: \"";
    log.base_time_seconds = *v;
  } else {
    log.comments.emplace_back(line.substr(1));
  }
  return std::nullopt;
}

// A data line `[Tag=NAME,]start,length,max,base64`; the error text says what was expected.
tl::expected<IntervalLogEntry, std::string> parse_data_line(std::string_view line, std::size_t line_number) {
  std::vector<std::string_view> fields = split_commas(line);
  std::string tag;
  if (fields.front().starts_with("Tag=")) {
    tag = std::string(fields.front().substr(4));
    fields.erase(fields.begin());
  }
  if (fields.size() != 4) {
    return tl::unexpected(fmt::format("expected {} (4 fields after an optional tag), got {} fields",
                                      k_line_shape, fields.size()));
  }
  const auto start = parse_double(fields[0]);
  const auto length = parse_double(fields[1]);
  const auto max = parse_double(fields[2]);
  if (!start || !length || !max) {
    const char* which = !start ? "start" : (!length ? "length" : "max");
    return tl::unexpected(fmt::format("expected a number for {} in {}", which, k_line_shape));
  }
  auto histogram = from_compressed_base64(fields[3]);
  if (!histogram) return tl::unexpected("bad compressed histogram: " + histogram.error().message);
  return IntervalLogEntry{std::move(tag), LogSeconds(*start),    LogSeconds(*length),
                          *max,           std::move(*histogram), line_number};
}

}  // namespace

Result<IntervalLog> parse_interval_log(std::string_view text, std::string_view source) {
  IntervalLog log;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = trim(text.substr(0, newline));
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '"') continue;  // blank, or the legend
    std::optional<std::string> problem;
    if (line.front() == '#') {
      problem = parse_comment(line, log);
    } else if (auto entry = parse_data_line(line, line_number)) {
      log.intervals.push_back(std::move(*entry));
    } else {
      problem = std::move(entry.error());
    }
    if (problem) return usage_error(fmt::format("{}:{}: {}", source, line_number, *problem));
  }
  return log;
}

Result<IntervalLog> read_interval_log(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return usage_error(fmt::format("cannot open hlog file {} (expected a readable .hlog file)", path));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return runtime_error(fmt::format("cannot read hlog file {}", path));
  return parse_interval_log(content.str(), path);
}

}  // namespace openloop::hdr
