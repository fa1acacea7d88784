// Applies a lab trigger (stall, dependency slowdown) through the control endpoint and restores what it
// changed.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "lab/control_client.h"
#include "procedures/probe/probe_trigger.h"

namespace openloop::procedures {

/// One lab trigger for one probe run. begin() at the trigger phase's start, end() at its end (and on any
/// early exit: the destructor restores too, and when that fails writes restore_failure() to `report`). Not
/// thread-safe: one thread drives it.
class LabDriver {
 public:
  /// `length`: how long the trigger lasts (the stall's length; the dependency change is undone by end()).
  /// `report`: where the destructor says that restoring failed.
  LabDriver(lab::ControlClient client, Trigger trigger, Nanos length, std::FILE* report = stderr);
  ~LabDriver();
  LabDriver(const LabDriver&) = delete;
  LabDriver& operator=(const LabDriver&) = delete;

  /// Stall: reads the lab's uptime and one-off stalls, adds a stall [uptime, uptime + length). Dependency:
  /// reads the current dependency setting and raises (or sets) it. Remembers what to restore. Errors
  /// (runtime) name the URL and the lab's answer. A load trigger does nothing.
  Result<void> begin();
  /// Restores the settings begin() changed (the stall list, the dependency); idempotent.
  Result<void> end();
  /// One line saying that restoring the lab failed with `e`: which trigger, which lab, the lab's answer.
  std::string restore_failure(const Error& e) const;
  /// What was done, one line per request ("POST {"dependency":"501ms"}"), for the report.
  const std::vector<std::string>& actions() const { return m_actions; }

 private:
  Result<void> post(const nlohmann::json& change);

  lab::ControlClient m_client;
  Trigger m_trigger;
  Nanos m_length;
  std::FILE* m_report;
  std::optional<nlohmann::json> m_restore;  ///< the fields to post back at end()
  std::vector<std::string> m_actions;
};

}  // namespace openloop::procedures
