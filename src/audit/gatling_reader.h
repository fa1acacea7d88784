// Gatling's `simulation.log`, the tab-separated text log Gatling 2.3 to 3.12 write (docs/audit.md#gatling).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

/// The REQUEST record's layout, which changed between versions (read from Gatling's LogFileDataWriter):
enum class GatlingLayout {
  v2,   ///< 2.3: REQUEST scenario userId groups name start end status message [extra info...]
  v30,  ///< 3.0 to 3.3: REQUEST userId groups name start end status message
  v34,  ///< 3.4 to 3.12: REQUEST groups name start end status message (no user id)
};

/// The layout of a REQUEST record with `fields` tab-separated fields (the record's name first): 7 → v34,
/// 8 → v30, 9 or more → v2; nullopt for fewer than 7. Gatling replaces tabs in a message with spaces and
/// writes a space for an empty one, so the count is the layout's.
std::optional<GatlingLayout> gatling_layout_of(std::size_t fields);
/// "3.4 to 3.12", ... for messages.
std::string_view gatling_versions_of(GatlingLayout layout);

/// Reads the REQUEST records: start and end (milliseconds since the epoch), status OK/KO, the name (with its
/// groups), and the user id where the layout has one (the sender: "user ID", with the scenario in 2.3).
/// USER records are counted (started, ended, most active at once) and said in notes(); the RUN record's
/// version is noted. The layout is the first complete REQUEST record's (read ahead at open); a REQUEST of
/// another width is a bad line. Records come in completion order.
/// A binary log (Gatling 3.13+) is refused at open with a message saying so.
class GatlingReader : public RecordReader {
 public:
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_lines.bad_lines(); }
  std::vector<std::string> notes() const override;
  GatlingLayout layout() const { return m_layout; }

 private:
  explicit GatlingReader(LineSource lines) : m_lines(std::move(lines)) {}
  bool read_request(Record& out);
  void read_user();

  LineSource m_lines;
  ReaderTraits m_traits;
  GatlingLayout m_layout = GatlingLayout::v34;
  std::string m_version;  ///< from the RUN record; empty when the file has none
  std::string m_line;
  std::vector<std::string> m_fields;
  std::int64_t m_users_started = 0, m_users_ended = 0, m_users_active = 0, m_users_most = 0;
  long long m_first_user_ms = -1, m_last_user_ms = -1;
};

}  // namespace openloop::audit
