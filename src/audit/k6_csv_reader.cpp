// k6's CSV output read as records.
#include "audit/k6_csv_reader.h"

#include <fmt/format.h>

#include "audit/fields.h"

namespace openloop::audit {
namespace {

// `key=value&key=value` (k6's extra_tags and metadata columns): the value of `key`, or empty.
std::string pair_value(std::string_view pairs, std::string_view key) {
  while (!pairs.empty()) {
    const std::size_t amp = pairs.find('&');
    const std::string_view pair = pairs.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == key) return std::string(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    pairs.remove_prefix(amp + 1);
  }
  return {};
}

// How far ahead open() looks for a row whose timestamp shows the stamps' resolution.
constexpr std::int64_t k_lookahead_lines = 1000;

}  // namespace

std::optional<K6Stamp> parse_k6_stamp(std::string_view text) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos) {
    const auto v = parse_integer(text);
    if (!v) return std::nullopt;
    // unix, unix_milli, unix_micro, unix_nano: 10, 13, 16 and 19 digits for any date since 2001.
    const auto [unit, resolution] =
        text.size() <= 11   ? std::pair{1'000'000'000LL, Nanos(std::chrono::seconds(1))}
        : text.size() <= 14 ? std::pair{1'000'000LL, Nanos(std::chrono::milliseconds(1))}
        : text.size() <= 17 ? std::pair{1'000LL, Nanos(std::chrono::microseconds(1))}
                            : std::pair{1LL, Nanos(1)};
    Nanos ns{0};
    if (!scaled_time(*v, unit, ns)) return std::nullopt;
    return K6Stamp{ns.count(), resolution};
  }
  const auto ns = parse_rfc3339(text);
  if (!ns) return std::nullopt;
  // time.RFC3339 writes whole seconds; RFC3339Nano up to 9 fraction digits (trailing zeros dropped, so the
  // digits written are a lower bound on the resolution: taken as 1 ns).
  const bool fraction = text.find('.') != std::string_view::npos;
  return K6Stamp{*ns, fraction ? Nanos(1) : Nanos(std::chrono::seconds(1))};
}

Result<std::unique_ptr<RecordReader>> K6CsvReader::open(const std::string& path) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::unique_ptr<K6CsvReader> r(new K6CsvReader(std::move(lines)));
  std::string header;
  if (!r->m_lines.next(header))
    return usage_error(fmt::format("{}: is empty; expected a k6 --out csv file", path));
  std::vector<std::string> names;
  split_fields(header, ',', names);
  const Columns columns(std::move(names));
  const auto at = OPENLOOP_TRY(
      columns.require({"metric_name", "timestamp", "metric_value"}, path, "a k6 --out csv file"));
  r->m_metric = at[0];
  r->m_stamp = at[1];
  r->m_value = at[2];
  r->m_vu = columns.find("vu");
  r->m_scenario = columns.find("scenario");
  r->m_status = columns.find("status");
  r->m_expected = columns.find("expected_response");
  r->m_name = columns.find("name");
  r->m_metadata = columns.find("metadata");
  r->m_extra = columns.find("extra_tags");
  r->m_width = columns.size();
  // The stamps' resolution, from the first row that has a timestamp.
  Nanos resolution{1};
  LineSource ahead = OPENLOOP_TRY(LineSource::open(path));
  std::string line;
  std::vector<std::string> fields;
  ahead.next(line);
  while (ahead.line_number() < k_lookahead_lines && ahead.next(line)) {
    if (!split_fields(line, ',', fields) || fields.size() != r->m_width) continue;
    if (const auto stamp = parse_k6_stamp(fields[r->m_stamp])) {
      resolution = stamp->resolution;
      break;
    }
  }
  r->m_pool = resolution >= std::chrono::seconds(1);
  r->m_traits = ReaderTraits{"k6", !r->m_pool, resolution, false, ToolModel::unknown};
  return std::unique_ptr<RecordReader>(std::move(r));
}

std::string K6CsvReader::tag(std::string_view name) const {
  if (name == "vu" && m_vu) return m_fields[*m_vu];
  if (m_metadata) {
    std::string v = pair_value(m_fields[*m_metadata], name);
    if (!v.empty()) return v;
  }
  if (m_extra) return pair_value(m_fields[*m_extra], name);
  return {};
}

Result<bool> K6CsvReader::next(Record& out) {
  while (m_lines.next(m_line)) {
    if (m_line.empty()) continue;
    // Only the rows that matter are split: a k6 file holds a dozen metrics' rows per request.
    const bool duration = m_line.rfind("http_req_duration,", 0) == 0;
    const bool dropped = m_line.rfind("dropped_iterations,", 0) == 0;
    if (!duration && !dropped) continue;
    if (!split_fields(m_line, ',', m_fields) || m_fields.size() != m_width) {
      m_lines.bad(
          fmt::format("{} fields; expected {} as the header names (truncated?)", m_fields.size(), m_width));
      continue;
    }
    const auto stamp = parse_k6_stamp(m_fields[m_stamp]);
    const auto value = parse_number(m_fields[m_value]);
    Nanos response{0};
    if (!stamp || !value || !duration_of(*value / 1e3, response)) {
      m_lines.bad(
          fmt::format("timestamp '{}' and metric_value '{}': expected a k6 timeFormat (unix[_milli|"
                      "_micro|_nano] or rfc3339[_nano]) and a number ≥ 0",
                      m_fields[m_stamp], m_fields[m_value]));
      continue;
    }
    if (dropped) {
      m_dropped += *value;
      continue;
    }
    out.duration = response;
    out.start = Nanos(stamp->ns) - out.duration;
    const std::string vu = tag("vu");
    if (!vu.empty()) m_saw_vu = true;
    const std::string scenario = m_scenario ? m_fields[*m_scenario] : std::string();
    out.thread =
        vu.empty() || m_pool ? std::string() : (scenario.empty() ? "vu " + vu : scenario + " vu " + vu);
    const std::string status = m_status ? m_fields[*m_status] : std::string();
    const std::string expected = m_expected ? m_fields[*m_expected] : std::string();
    out.ok =
        expected.empty() ? (!status.empty() && status[0] >= '2' && status[0] <= '3') : expected == "true";
    out.label = m_name ? m_fields[*m_name] : std::string();
    return true;
  }
  return false;
}

std::vector<std::string> K6CsvReader::notes() const {
  std::vector<std::string> out;
  if (m_pool) {
    out.push_back(fmt::format(
        "k6 stamped this CSV to the second (timeFormat unix or rfc3339): a VU's sends cannot be ordered, so "
        "the records are pooled{}; K6_CSV_TIME_FORMAT=unix_milli (or rfc3339_nano) keeps what the audit "
        "needs",
        m_saw_vu ? " although they name their VU" : ""));
  } else if (!m_saw_vu) {
    out.push_back(
        "no row names its VU (k6 keeps vu in the metadata column only when --system-tags names it): the "
        "records have no sender");
  }
  if (m_dropped > 0) {
    out.push_back(fmt::format(
        "k6 counted {:.0f} dropped iterations: an arrival-rate executor (an open model) could not start them "
        "on time for lack of VUs",
        m_dropped));
  }
  return out;
}

}  // namespace openloop::audit
