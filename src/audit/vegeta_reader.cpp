// Vegeta's encoded results read as records.
#include "audit/vegeta_reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "audit/fields.h"

namespace openloop::audit {

Result<std::unique_ptr<RecordReader>> VegetaReader::open(const std::string& path) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::unique_ptr<VegetaReader> r(new VegetaReader(std::move(lines)));
  // Results are written as they complete, not as they were sent.
  r->m_traits = ReaderTraits{"Vegeta", false, Nanos(1), false, ToolModel::open};
  return std::unique_ptr<RecordReader>(std::move(r));
}

bool VegetaReader::read_json(Record& out) {
  const nlohmann::json j = nlohmann::json::parse(m_line, nullptr, false);
  if (!j.is_object() || !j.contains("timestamp") || !j["timestamp"].is_string() || !j.contains("latency") ||
      !j["latency"].is_number_integer() || j["latency"].get<long long>() < 0) {
    m_lines.bad("expected a vegeta encode --to json object with timestamp (RFC 3339) and latency (ns)");
    return false;
  }
  const auto stamp = parse_rfc3339(j["timestamp"].get<std::string>());
  if (!stamp) {
    m_lines.bad(fmt::format("timestamp '{}' is not RFC 3339", j["timestamp"].get<std::string>()));
    return false;
  }
  const long long code = j.contains("code") && j["code"].is_number_integer() ? j["code"].get<long long>() : 0;
  const bool error = j.contains("error") && j["error"].is_string() && !j["error"].get<std::string>().empty();
  out.start = Nanos(*stamp);
  out.duration = Nanos(j["latency"].get<long long>());
  out.thread.clear();
  out.ok = !error && code >= 200 && code < 400;
  out.label = j.contains("url") && j["url"].is_string() ? j["url"].get<std::string>() : std::string();
  out.seq = j.contains("seq") && j["seq"].is_number_unsigned() ? j["seq"].get<std::int64_t>() : -1;
  return true;
}

bool VegetaReader::read_csv(Record& out) {
  if (!split_fields(m_line, ',', m_fields) || m_fields.size() < 3) {
    m_lines.bad("expected vegeta encode --to csv: timestamp (Unix ns), code, latency (ns), ...");
    return false;
  }
  const auto stamp = parse_integer(m_fields[0]);
  const auto code = parse_integer(m_fields[1]);
  const auto latency = parse_integer(m_fields[2]);
  if (!stamp || !code || !latency || *latency < 0) {
    m_lines.bad(
        fmt::format("'{}', '{}', '{}': expected timestamp (Unix ns), code and latency (ns) as integers",
                    m_fields[0], m_fields[1], m_fields[2]));
    return false;
  }
  out.start = Nanos(*stamp);
  out.duration = Nanos(*latency);
  out.thread.clear();
  out.ok = *code >= 200 && *code < 400 && (m_fields.size() < 6 || m_fields[5].empty());
  out.label = m_fields.size() > 10 ? m_fields[10] : std::string();
  const auto seq = m_fields.size() > 8 ? parse_integer(m_fields[8]) : std::nullopt;
  out.seq = seq && *seq >= 0 ? *seq : -1;
  return true;
}

Result<bool> VegetaReader::next(Record& out) {
  while (m_lines.next(m_line)) {
    if (m_line.empty()) continue;
    if (m_line.front() == '{' ? read_json(out) : read_csv(out)) return true;
  }
  return false;
}

}  // namespace openloop::audit
