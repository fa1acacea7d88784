// JSON rendering of stats and configuration, and parsing of configuration changes (control plane only).
#include "lab/control_endpoint.h"

#include <fmt/format.h>

#include "core/units.h"
#include "lab/config_fields.h"

namespace openloop::lab {
namespace {

using nlohmann::json;

json counters_json(const ModelCounters& c) {
  return json{{"arrivals", c.arrivals},
              {"completed", c.completed()},
              {"ok", c.ok},
              {"errors", c.errors},
              {"shed", c.shed},
              {"rejected", c.rejected},
              {"expired", c.expired},
              {"cancelled", c.cancelled},
              {"cache_hits", c.cache_hits},
              {"cache_misses", c.cache_misses}};
}

double ratio(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

json history_json(const std::vector<SecondStats>& history) {
  json out = json::array();
  for (const SecondStats& s : history) {
    json entry = counters_json(s.counts);
    entry["second"] = s.second;
    entry["max_queue_depth"] = s.max_queue_depth;
    out.push_back(std::move(entry));
  }
  return out;
}

// A JSON value as the text the flag parser takes.
Result<std::string> as_setting_text(const json& v, std::string_view what) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  if (v.is_null()) return std::string();
  return usage_error(fmt::format("{}: {} is not accepted; use a string, number or boolean", what, v.dump()));
}

Result<void> apply_field(ConfigChange& change, const std::string& name, const json& value) {
  const std::string what = fmt::format("config field \"{}\"", name);
  if (name == "cache-flush" || name == "restart") {
    const std::string text = OPENLOOP_TRY(as_setting_text(value, what));
    if (text != "true" && text != "false") {
      return usage_error(fmt::format("{}: {} is not accepted; use true or false", what, value.dump()));
    }
    (name == "restart" ? change.restart : change.flush_cache) = text == "true";
    return {};
  }
  const SettingInfo* info = find_setting(name);
  if (info == nullptr || !info->runtime) {
    return usage_error(fmt::format("{}: {}; fields accepted while running: {}, cache-flush, restart", what,
                                   info == nullptr ? "unknown field" : "can only be set at start",
                                   setting_names(true)));
  }
  if (name == "stall-at") {
    change.config.model.stalls.clear_once();
    json value_list;
    if (!value.is_array()) value_list = json::array({value});
    for (const json& item : value.is_array() ? value : value_list) {
      const std::string text = OPENLOOP_TRY(as_setting_text(item, what));
      if (auto r = apply_setting(change.config, name, text, what); !r) return r;
    }
    return {};
  }
  const std::string text = OPENLOOP_TRY(as_setting_text(value, what));
  return apply_setting(change.config, name, text, what);
}

}  // namespace

json config_to_json(const LabConfig& cfg) {
  const ModelConfig& m = cfg.model;
  return json{
      {"listen", cfg.listen},
      {"workers", m.workers},
      {"service", m.service.to_string()},
      {"queue", m.queue == QueueDiscipline::fifo ? "fifo" : "lifo"},
      {"queue-limit", m.queue_limit},
      {"shed-at", m.shed_at},
      {"deadline-header", cfg.deadline_header},
      {"stall", m.stalls.periodic_text()},
      {"stall-at", m.stalls.once_texts()},
      {"cache", m.cache},
      {"hit", m.hit.to_string()},
      {"miss", m.miss.to_string()},
      {"dependency", m.dependency ? m.dependency->to_string() : std::string()},
      {"dependency-pool", m.dependency_pool},
      {"error-rate", m.error_rate},
      {"body-size", cfg.body_size},
      {"cancel", m.cancel},
      {"burn", m.burn},
      {"header-timeout", format_duration(cfg.header_timeout)},
      {"seed", m.seed},
      {"http2", cfg.http2.enabled},
      {"max-streams", cfg.http2.max_streams},
      {"goaway-after", cfg.http2.goaway_after},
      {"refuse-streams-above", cfg.http2.refuse_streams_above},
      {"grpc", cfg.http2.grpc},
      {"auth", cfg.auth},
  };
}

std::string stats_json(const ModelSnapshot& model, const ServerCounters& server, const LabConfig& cfg,
                       const AuthCounters& auth) {
  const ModelCounters& t = model.totals;
  json out = counters_json(t);
  out["uptime_s"] = to_seconds(model.uptime);
  out["frozen"] = model.frozen;
  out["queue_depth"] = model.queue_depth;
  out["held"] = model.held;
  out["busy_workers"] = model.busy_workers;
  out["workers"] = cfg.model.workers;
  out["dependency_in_use"] = model.dependency_in_use;
  out["dependency_waiting"] = model.dependency_waiting;
  out["cache"] = json{{"hits", t.cache_hits},
                      {"misses", t.cache_misses},
                      {"ratio", ratio(t.cache_hits, t.cache_hits + t.cache_misses)},
                      {"size", model.cache_size},
                      {"capacity", cfg.model.cache}};
  out["bad_requests"] = server.bad_requests();
  out["server"] = json{
      {"connections_open", server.connections_open},   {"connections_accepted", server.connections_accepted},
      {"accept_errors", server.accept_errors},         {"requests", server.requests},
      {"control_requests", server.control_requests},   {"malformed", server.malformed},
      {"headers_too_large", server.headers_too_large}, {"body_too_large", server.body_too_large},
      {"bad_deadline", server.bad_deadline},           {"read_timeouts", server.read_timeouts}};
  if (cfg.http2.enabled) {
    const Http2Counters& h2 = server.http2;
    out["http2"] = json{{"connections", h2.connections},
                        {"http1_connections", h2.http1_connections},
                        {"bad_preface", h2.bad_preface},
                        {"streams", h2.streams},
                        {"refused", h2.refused},
                        {"goaways", h2.goaways},
                        {"resets", h2.resets}};
    if (cfg.http2.grpc)
      out["grpc"] = json{{"calls", h2.grpc_calls}, {"reflection_streams", h2.grpc_reflection_streams}};
  }
  out["auth"] = json{{"logins", auth.logins},
                     {"authorized", auth.authorized},
                     {"unauthorized", auth.unauthorized},
                     {"orders_created", auth.orders_created},
                     {"orders_found", auth.orders_found},
                     {"orders_missing", auth.orders_missing}};
  out["config"] = config_to_json(cfg);
  out["history"] = history_json(model.history);
  return out.dump();
}

Result<ConfigChange> apply_config_json(const LabConfig& current, std::string_view body) {
  const json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return usage_error(
        fmt::format("config: the body must be a JSON object of settings, e.g. "
                    "{{\"service\": \"exp:2ms\", \"workers\": 4}}; fields accepted: {}, cache-flush, restart",
                    setting_names(true)));
  }
  ConfigChange change{current, false};
  for (const auto& [name, value] : parsed.items()) {
    if (auto r = apply_field(change, name, value); !r) return tl::unexpected(r.error());
  }
  return change;
}

}  // namespace openloop::lab
