// Gatling's text simulation.log read as records.
#include "audit/gatling_reader.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "audit/fields.h"

namespace openloop::audit {
namespace {

// A REQUEST record's fields, by layout (Gatling's LogFileDataWriter: ResponseMessageSerializer).
constexpr std::array<std::string_view, 9> k_v2_fields = {"REQUEST", "scenario", "user id", "groups", "name",
                                                         "start",   "end",      "status",  "message"};
constexpr std::array<std::string_view, 8> k_v30_fields = {"REQUEST", "user id", "groups", "name",
                                                          "start",   "end",     "status", "message"};
constexpr std::array<std::string_view, 7> k_v34_fields = {"REQUEST", "groups", "name",   "start",
                                                          "end",     "status", "message"};

template <std::size_t N>
std::string missing_of(const std::array<std::string_view, N>& names, std::size_t have) {
  std::string out;
  for (std::size_t i = have; i < N; ++i) out += (out.empty() ? "" : ", ") + std::string(names[i]);
  return out;
}

std::string missing_fields(GatlingLayout layout, std::size_t have) {
  switch (layout) {
    case GatlingLayout::v2:
      return missing_of(k_v2_fields, have);
    case GatlingLayout::v30:
      return missing_of(k_v30_fields, have);
    case GatlingLayout::v34:
      break;
  }
  return missing_of(k_v34_fields, have);
}

std::size_t width_of(GatlingLayout layout) {
  switch (layout) {
    case GatlingLayout::v2:
      return k_v2_fields.size();
    case GatlingLayout::v30:
      return k_v30_fields.size();
    case GatlingLayout::v34:
      break;
  }
  return k_v34_fields.size();
}

// Gatling 3.13 and later write a binary log whose first byte is the RUN record's header, 0.
bool looks_binary(const std::string& line) {
  return line.find('\0') != std::string::npos;
}

// How far ahead open() looks for the first complete REQUEST record (a log starts with RUN and USER records).
constexpr std::int64_t k_lookahead_lines = 100'000;

}  // namespace

std::optional<GatlingLayout> gatling_layout_of(std::size_t fields) {
  if (fields == k_v34_fields.size()) return GatlingLayout::v34;
  if (fields == k_v30_fields.size()) return GatlingLayout::v30;
  if (fields >= k_v2_fields.size()) return GatlingLayout::v2;
  return std::nullopt;
}

std::string_view gatling_versions_of(GatlingLayout layout) {
  switch (layout) {
    case GatlingLayout::v2:
      return "2.3";
    case GatlingLayout::v30:
      return "3.0 to 3.3";
    case GatlingLayout::v34:
      break;
  }
  return "3.4 to 3.12";
}

Result<std::unique_ptr<RecordReader>> GatlingReader::open(const std::string& path) {
  // Read ahead for the layout and the version, then read the file from its start.
  LineSource ahead = OPENLOOP_TRY(LineSource::open(path));
  std::optional<GatlingLayout> layout;
  std::string version, line;
  while (!layout && ahead.line_number() < k_lookahead_lines && ahead.next(line)) {
    if (ahead.line_number() == 1 && looks_binary(line)) {
      return usage_error(
          fmt::format("{}: is a binary simulation.log (Gatling 3.13 and later write one); audit reads the "
                      "text log of Gatling 2.3 to 3.12 (tab-separated RUN, USER and REQUEST records)",
                      path));
    }
    // Fields are counted as read_request() splits them: at every tab (Gatling does not quote).
    if (line.rfind("RUN\t", 0) == 0) {
      version = line.substr(line.rfind('\t') + 1);
    } else if (line.rfind("REQUEST\t", 0) == 0) {
      layout = gatling_layout_of(static_cast<std::size_t>(std::count(line.begin(), line.end(), '\t')) + 1);
    }
  }
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::unique_ptr<GatlingReader> r(new GatlingReader(std::move(lines)));
  r->m_layout = layout.value_or(GatlingLayout::v34);
  r->m_version = version;
  // Written as responses complete; stamped in milliseconds. Gatling injects users open (arrival rates) or
  // closed (concurrent users), each running its scenario request after request: the model is the file's.
  r->m_traits =
      ReaderTraits{"Gatling", r->m_layout != GatlingLayout::v34, Nanos(1'000'000), false, ToolModel::unknown};
  return std::unique_ptr<RecordReader>(std::move(r));
}

bool GatlingReader::read_request(Record& out) {
  // Not split_fields: Gatling does not quote, and a '"' in a name or message is a character like any other.
  m_fields.clear();
  std::size_t from = 0;
  while (true) {
    const std::size_t tab = m_line.find('\t', from);
    m_fields.emplace_back(m_line, from, tab == std::string::npos ? std::string::npos : tab - from);
    if (tab == std::string::npos) break;
    from = tab + 1;
  }
  const std::size_t width = width_of(m_layout);
  const bool wide_ok = m_layout == GatlingLayout::v2 && m_fields.size() > width;
  if (m_fields.size() != width && !wide_ok) {
    if (m_fields.size() < width) {
      m_lines.bad(fmt::format(
          "a REQUEST record with {} of the {} tab-separated fields of Gatling {}'s layout "
          "(truncated?); missing: {}",
          m_fields.size(), width, gatling_versions_of(m_layout), missing_fields(m_layout, m_fields.size())));
    } else {
      m_lines.bad(
          fmt::format("a REQUEST record with {} tab-separated fields; this file's first has {} "
                      "(Gatling {}'s layout)",
                      m_fields.size(), width, gatling_versions_of(m_layout)));
    }
    return false;
  }
  const std::size_t base = m_layout == GatlingLayout::v2 ? 3 : m_layout == GatlingLayout::v30 ? 2 : 1;
  const std::string& groups = m_fields[base];
  const std::string& name = m_fields[base + 1];
  const auto start = parse_integer(m_fields[base + 2]);
  const auto end = parse_integer(m_fields[base + 3]);
  const std::string& status = m_fields[base + 4];
  Nanos start_ns{0}, end_ns{0};
  if (!start || !end || !scaled_time(*start, 1'000'000, start_ns) || !scaled_time(*end, 1'000'000, end_ns) ||
      end_ns < start_ns || end_ns - start_ns > std::chrono::hours(1000)) {
    m_lines.bad(fmt::format("start '{}' and end '{}': expected milliseconds since the epoch, end ≥ start",
                            m_fields[base + 2], m_fields[base + 3]));
    return false;
  }
  if (status != "OK" && status != "KO") {
    m_lines.bad(fmt::format("status '{}': expected OK or KO", status));
    return false;
  }
  std::string user;
  if (m_layout != GatlingLayout::v34) {
    const std::string& id = m_fields[m_layout == GatlingLayout::v2 ? 2 : 1];
    if (!parse_integer(id)) {
      m_lines.bad(fmt::format("user id '{}': expected an integer", id));
      return false;
    }
    user = m_layout == GatlingLayout::v2 ? fmt::format("{} user {}", m_fields[1], id) : "user " + id;
  }
  out.start = start_ns;
  out.duration = end_ns - start_ns;
  out.thread = std::move(user);
  out.ok = status == "OK";
  out.label = groups.empty() ? name : groups + "/" + name;
  return true;
}

void GatlingReader::read_user() {
  // 3.4+: USER scenario START|END timestamp; 2.3 and 3.0-3.3: USER scenario userId START|END start end.
  split_fields(m_line, '\t', m_fields);
  std::optional<long long> at;
  bool start = false;
  if (m_fields.size() >= 4 && (m_fields[2] == "START" || m_fields[2] == "END")) {
    start = m_fields[2] == "START";
    at = parse_integer(m_fields[3]);
  } else if (m_fields.size() >= 6 && (m_fields[3] == "START" || m_fields[3] == "END")) {
    start = m_fields[3] == "START";
    at = parse_integer(m_fields[start ? 4 : 5]);
  }
  if (!at) {
    m_lines.bad("a USER record without START/END and a timestamp (ms)");
    return;
  }
  if (start) {
    ++m_users_started;
    m_users_most = std::max(m_users_most, ++m_users_active);
    if (m_first_user_ms < 0) m_first_user_ms = *at;
    m_last_user_ms = std::max(m_last_user_ms, *at);
  } else {
    ++m_users_ended;
    m_users_active = std::max<std::int64_t>(0, m_users_active - 1);
  }
}

Result<bool> GatlingReader::next(Record& out) {
  while (m_lines.next(m_line)) {
    if (m_line.empty()) continue;
    if (m_line.rfind("REQUEST\t", 0) == 0) {
      if (read_request(out)) return true;
    } else if (m_line.rfind("USER\t", 0) == 0) {
      read_user();
    } else if (m_line.rfind("RUN\t", 0) != 0 && m_line.rfind("GROUP\t", 0) != 0 &&
               m_line.rfind("ERROR\t", 0) != 0 && m_line.rfind("ASSERTION\t", 0) != 0) {
      m_lines.bad(
          fmt::format("'{}' is not a simulation.log record (RUN, USER, REQUEST, GROUP, ERROR, ASSERTION)",
                      m_line.substr(0, 40)));
    }
  }
  return false;
}

std::vector<std::string> GatlingReader::notes() const {
  std::vector<std::string> out;
  out.push_back(fmt::format("read as Gatling {}'s layout{}", gatling_versions_of(m_layout),
                            m_version.empty() ? std::string(" (the file has no RUN record)")
                                              : fmt::format(" (its RUN record says {})", m_version)));
  if (m_layout == GatlingLayout::v34) {
    out.push_back(
        "Gatling 3.4 to 3.12 write no user id on a REQUEST record: requests cannot be given to their virtual "
        "users, so the model is not measured and nothing is corrected");
  }
  if (m_users_started > 0) {
    const double span_s = (static_cast<double>(m_last_user_ms) - static_cast<double>(m_first_user_ms)) / 1e3;
    out.push_back(fmt::format(
        "{} virtual users started{}, {} ended, at most {} active at once: an open injection starts users on "
        "its "
        "schedule whatever the latency, each running its scenario one request after another",
        m_users_started,
        span_s > 0
            ? fmt::format(" ({:.1f}/s over {:.0f} s)", static_cast<double>(m_users_started) / span_s, span_s)
            : std::string(),
        m_users_ended, m_users_most));
  }
  return out;
}

}  // namespace openloop::audit
