// When the lab freezes: a periodic stall ("500ms/2s") and one-off stalls ("10s+3s"), on time since the lab
// started.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"

namespace openloop::lab {

/// A half-open window [start, end) of time since the model started.
struct StallWindow {
  Nanos start{0};
  Nanos end{0};
  bool operator==(const StallWindow&) const = default;
};

/// The union of a periodic stall (windows [n·period, n·period + length) for n = 1, 2, ...; the first one
/// after one full period, so a lab starts healthy) and any number of one-off windows. Overlapping or
/// touching windows merge into one stall. A value type: queries are pure.
class StallSchedule {
 public:
  /// Parses "LEN/PERIOD" (e.g. "500ms/2s"); LEN < PERIOD, PERIOD > 0. "0" or "" means no periodic stall.
  static Result<std::optional<StallWindow>> parse_periodic(std::string_view text, std::string_view what);
  /// Parses "AT+LEN" (e.g. "10s+3s"), LEN > 0, into the window [AT, AT+LEN).
  static Result<StallWindow> parse_once(std::string_view text, std::string_view what);

  /// Sets the periodic stall as {length, period}, or none.
  void set_periodic(std::optional<StallWindow> length_period) { m_periodic = length_period; }
  void add_once(StallWindow w) { m_once.push_back(w); }
  void clear_once() { m_once.clear(); }

  bool empty() const { return !m_periodic && m_once.empty(); }
  bool operator==(const StallSchedule&) const = default;
  /// The merged stall containing t, if any: its end is when the model may run again.
  std::optional<StallWindow> stall_at(Nanos t) const;
  /// Start of the first stall beginning strictly after t, or nullopt when there is none.
  std::optional<Nanos> next_start_after(Nanos t) const;

  /// Canonical texts that the parsers accept back ("" for no periodic stall).
  std::string periodic_text() const;
  std::vector<std::string> once_texts() const;

 private:
  std::optional<StallWindow> raw_at(Nanos t) const;

  std::optional<StallWindow> m_periodic;  // start = length, end = period
  std::vector<StallWindow> m_once;
};

}  // namespace openloop::lab
