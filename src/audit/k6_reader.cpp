// k6's JSON output read as records.
#include "audit/k6_reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "audit/fields.h"

namespace openloop::audit {
namespace {

std::string tag(const nlohmann::json& tags, const char* name) {
  if (!tags.is_object() || !tags.contains(name)) return {};
  const auto& v = tags[name];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return {};
}

}  // namespace

Result<std::unique_ptr<RecordReader>> K6Reader::open(const std::string& path) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::unique_ptr<K6Reader> r(new K6Reader(std::move(lines)));
  r->m_traits = ReaderTraits{"k6", true, Nanos(1), false, ToolModel::unknown};
  return std::unique_ptr<RecordReader>(std::move(r));
}

namespace {

// The string at `key`, or "" when it is absent or not a string (json::value throws for a key of another type).
std::string string_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Result<bool> K6Reader::next(Record& out) {
  while (m_lines.next(m_line)) {
    if (m_line.empty()) continue;
    // Only the lines that matter are parsed: a k6 file holds a dozen metrics' points per request.
    const bool duration = m_line.find("\"http_req_duration\"") != std::string::npos;
    const bool dropped = m_line.find("\"dropped_iterations\"") != std::string::npos;
    if (!duration && !dropped) continue;
    const nlohmann::json j = nlohmann::json::parse(m_line, nullptr, false);
    if (!j.is_object() || string_at(j, "type") != "Point") continue;
    const auto& data = j.contains("data") ? j["data"] : nlohmann::json();
    if (!data.is_object() || !data.contains("value") || !data["value"].is_number() ||
        !data.contains("time") || !data["time"].is_string()) {
      m_lines.bad("expected a k6 Point with data.time (RFC 3339) and data.value");
      continue;
    }
    if (string_at(j, "metric") == "dropped_iterations") {
      m_dropped += data["value"].get<double>();
      continue;
    }
    if (string_at(j, "metric") != "http_req_duration") continue;
    const auto end = parse_rfc3339(data["time"].get<std::string>());
    const double ms = data["value"].get<double>();
    Nanos response{0};
    if (!end || !duration_of(ms / 1e3, response)) {
      m_lines.bad(fmt::format("data.time '{}' must be RFC 3339 and data.value milliseconds ≥ 0",
                              data["time"].get<std::string>()));
      continue;
    }
    const nlohmann::json tags = data.contains("tags") ? data["tags"] : nlohmann::json();
    out.duration = response;
    out.start = Nanos(*end) - out.duration;
    // k6 0.41 and later keep vu and iter as metadata (not tags) when --system-tags names them.
    std::string vu = tag(tags, "vu");
    if (vu.empty() && data.contains("metadata")) vu = tag(data["metadata"], "vu");
    const std::string scenario = tag(tags, "scenario");
    out.thread = vu.empty() ? std::string() : (scenario.empty() ? "vu " + vu : scenario + " vu " + vu);
    const std::string status = tag(tags, "status");
    const std::string expected = tag(tags, "expected_response");
    out.ok =
        expected.empty() ? (!status.empty() && status[0] >= '2' && status[0] <= '3') : expected == "true";
    out.label = tag(tags, "name");
    ++m_points;
    return true;
  }
  return false;
}

std::vector<std::string> K6Reader::notes() const {
  std::vector<std::string> out;
  if (m_dropped > 0) {
    out.push_back(
        fmt::format("k6 counted {:.0f} dropped iterations: an arrival-rate executor (an open model) "
                    "could not start them on time for lack of VUs",
                    m_dropped));
  }
  return out;
}

}  // namespace openloop::audit
