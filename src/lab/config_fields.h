// The lab's settings by name: one table used by the command line (--NAME VALUE) and by POST /_lab/config.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/error.h"
#include "lab/model_config.h"

namespace openloop::lab {

/// One setting. Every one has the same syntax on the command line and in /_lab/config.
struct SettingInfo {
  std::string_view name;   ///< flag name without "--", also the JSON key
  std::string_view value;  ///< placeholder for help ("DIST", "N", ...)
  std::string_view help;   ///< one line
  bool runtime;            ///< may be changed while running through /_lab/config
  bool flag;               ///< a switch (true/false) rather than a value
};

/// Every setting, in help order.
std::span<const SettingInfo> settings();
/// The setting called `name`, or nullptr.
const SettingInfo* find_setting(std::string_view name);
/// Comma-separated names of settings (all, or only those changeable at run time), for error messages.
std::string setting_names(bool runtime_only);

/// Parses `value` for setting `name` into cfg. `what` names the input in errors (e.g. "--service" or
/// "config field \"service\""). Errors (exit code usage) name it, the value and what is accepted.
/// "stall-at" adds one stall per call. Unknown names are an error listing the accepted ones.
Result<void> apply_setting(LabConfig& cfg, std::string_view name, std::string_view value,
                           std::string_view what);

}  // namespace openloop::lab
