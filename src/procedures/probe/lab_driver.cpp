// The lab requests behind a stall or dependency trigger, and their undoing.
#include "procedures/probe/lab_driver.h"

#include <cstdio>

#include <fmt/format.h>

namespace openloop::procedures {

LabDriver::LabDriver(lab::ControlClient client, Trigger trigger, Nanos length, std::FILE* report)
    : m_client(std::move(client)), m_trigger(std::move(trigger)), m_length(length), m_report(report) {}

LabDriver::~LabDriver() {
  // The owner's end() reports a failure where it can; one left to the destructor must not pass silently,
  // since the lab keeps the trigger's settings (a stall list, a slow dependency) for whoever uses it next.
  if (auto restored = end(); !restored) {
    std::fputs(restore_failure(restored.error()).c_str(), m_report);
    std::fflush(m_report);
  }
}

std::string LabDriver::restore_failure(const Error& e) const {
  return fmt::format("openloop: could not restore the lab's settings after the trigger ({}); the lab at {} may "
                     "still run with them: {}\n",
                     m_trigger.text, m_client.config_url(), e.message);
}

Result<void> LabDriver::post(const nlohmann::json& change) {
  m_actions.push_back("POST " + m_client.config_url() + " " + change.dump());
  OPENLOOP_TRY(m_client.post_config(change));
  return {};
}

Result<void> LabDriver::begin() {
  switch (m_trigger.kind) {
    case Trigger::Kind::load:
      return {};
    case Trigger::Kind::stall: {
      const nlohmann::json stats = OPENLOOP_TRY(m_client.stats());
      if (!stats.contains("uptime_s") || !stats["uptime_s"].is_number()) {
        return runtime_error(fmt::format("{}: the lab's stats have no uptime_s", m_client.config_url()));
      }
      const nlohmann::json current = stats.contains("config")
                                         ? stats["config"].value("stall-at", nlohmann::json::array())
                                         : nlohmann::json::array();
      const Nanos uptime = from_seconds(stats["uptime_s"].get<double>());
      m_restore = nlohmann::json{{"stall-at", current}};
      return post({{"stall-at", stall_list_with(current, uptime, m_length)}});
    }
    case Trigger::Kind::dependency: {
      const nlohmann::json config = OPENLOOP_TRY(m_client.config());
      const std::string current = config.value("dependency", std::string());
      const std::string during = OPENLOOP_TRY(dependency_during(current, m_trigger));
      m_restore = nlohmann::json{{"dependency", current.empty() ? std::string("none") : current}};
      return post({{"dependency", during}});
    }
  }
  return {};
}

Result<void> LabDriver::end() {
  if (!m_restore) return {};
  const nlohmann::json restore = std::move(*m_restore);
  m_restore.reset();
  return post(restore);
}

}  // namespace openloop::procedures
