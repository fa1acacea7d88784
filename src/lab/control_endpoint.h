// The lab's control plane: the JSON of GET /_lab/stats and GET/POST /_lab/config.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "lab/auth_store.h"
#include "lab/model_config.h"
#include "lab/server_counters.h"
#include "lab/service_model.h"

namespace openloop::lab {

/// The configuration as JSON, with every value in the syntax that the flags and POST /_lab/config accept.
nlohmann::json config_to_json(const LabConfig& cfg);

/// The body of GET /_lab/stats: model state and counters, cache ratio, HTTP-layer counters, the current
/// configuration and the per-second history (oldest first; the last entry is the current partial second).
std::string stats_json(const ModelSnapshot& model, const ServerCounters& server, const LabConfig& cfg,
                       const AuthCounters& auth = {});

/// A change requested through POST /_lab/config.
struct ConfigChange {
  LabConfig config;          ///< the current configuration with the request's fields applied
  bool flush_cache = false;  ///< {"cache-flush": true}: empty the cache
  bool restart = false;      ///< {"restart": true}: ServiceModel::restart (cache emptied, stall clock at zero)
};

/// Applies a JSON object of settings ({"service": "exp:2ms", "workers": 4, "stall-at": ["1s+1s"]}) to a
/// copy of `current`. Values may be strings in flag syntax, numbers or booleans; "stall-at" takes a string
/// or an array and replaces the one-off stalls. All or nothing: any bad field is an error whose message
/// names the field and what it accepts.
Result<ConfigChange> apply_config_json(const LabConfig& current, std::string_view body);

}  // namespace openloop::lab
