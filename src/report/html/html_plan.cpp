// The plan table of the HTML report: every option of a run as people read it.
#include "report/html/html_plan.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "report/text_format.h"

namespace openloop::report::html {
namespace {

using nlohmann::json;

// {"name": "a", "weight": 1} as "name a, weight 1"; strings bare; anything else as JSON.
std::string compact(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_object()) return v.dump();
  std::string out;
  for (const auto& [key, value] : v.items())
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", key, compact(value));
  return out;
}

// A plan value as people read it: durations for *_s fields, stages as "30s → 100/s", lists joined.
std::string plan_value(const std::string& key, const json& v) {
  if (key == "stages" && v.is_array()) {
    std::string out;
    for (const auto& s : v) {
      if (!s.is_object() || !s.contains("duration_s") || !s.contains("target_rps")) return v.dump();
      out += fmt::format("{}{} → {}", out.empty() ? "" : ", ", format_seconds(s["duration_s"].get<double>()),
                         format_per_second(s["target_rps"].get<double>()));
    }
    return out.empty() ? "–" : out;
  }
  if (key.ends_with("_s") && v.is_number()) return format_seconds(v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const auto& e : v) out += (out.empty() ? "" : "; ") + compact(e);
    return out.empty() ? "none" : out;
  }
  return v.dump();
}

std::string plan_label(const std::string& key) {
  static const std::pair<const char*, const char*> k_labels[] = {{"target", "Target"},
                                                                 {"method", "Method"},
                                                                 {"model", "Model"},
                                                                 {"arrival", "Arrival process"},
                                                                 {"stages", "Rate stages"},
                                                                 {"rate_rps", "Rate"},
                                                                 {"deadline_s", "Goodput deadline"},
                                                                 {"max_lateness_ms", "Max send lateness"},
                                                                 {"retry", "Retries"},
                                                                 {"retry_on", "on"},
                                                                 {"backoff_base_s", "base"},
                                                                 {"backoff_max_s", "cap"},
                                                                 {"per_try_timeout_s", "per-try timeout"},
                                                                 {"seed", "Seed"},
                                                                 {"users", "Users (closed)"},
                                                                 {"threads", "Threads"},
                                                                 {"max_connections", "Connection cap"},
                                                                 {"on_saturation", "When saturated"},
                                                                 {"timeout_s", "Timeout"},
                                                                 {"success_statuses", "Success statuses"},
                                                                 {"warmup_s", "Warm-up"},
                                                                 {"duration_s", "Duration"},
                                                                 {"interval_s", "Interval"},
                                                                 {"headers", "Headers"},
                                                                 {"body_bytes", "Body bytes"},
                                                                 {"insecure", "Skip TLS verification"}};
  for (const auto& [k, label] : k_labels) {
    if (key == k) return label;
  }
  // Fields added later: "think_mean_s" reads as "Think mean".
  std::string label = key.ends_with("_s") ? key.substr(0, key.size() - 2) : key;
  for (char& c : label) c = c == '_' ? ' ' : c;
  if (!label.empty()) label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
  return label;
}

// Plan keys in reading order: what was hit, how hard, for how long, with which client policy; others follow.
std::vector<std::string> plan_keys(const json& plan) {
  static const char* k_order[] = {"target",        "method",           "model",      "rate_rps",
                                  "arrival",       "stages",           "users",      "duration_s",
                                  "warmup_s",      "timeout_s",        "threads",    "max_connections",
                                  "on_saturation", "success_statuses", "interval_s", "seed"};
  std::vector<std::string> keys;
  for (const char* k : k_order) {
    if (plan.contains(k)) keys.emplace_back(k);
  }
  for (const auto& [key, value] : plan.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end() && key != "differs") keys.push_back(key);
  }
  if (plan.contains("differs")) keys.emplace_back("differs");
  return keys;
}

// False for rows that only restate a default or an internal (no retries, no coalescing, the report interval,
// a seed a constant schedule never draws, one request that the target and method already name), so the table
// shows what the user set.
bool plan_row_shown(const std::string& key, const json& value, const json& plan) {
  const auto zero = [&value] { return value.is_number() && value.get<double>() == 0; };
  if (key == "interval_s" || key == "spin_below_us") return false;
  if (key == "coalesce_us" || key == "body_bytes" || key == "think_mean_s") return !zero();
  if (key == "insecure") return value.is_boolean() && value.get<bool>();
  if (key == "headers") return value.is_array() && !value.empty();
  if (key == "stages") return !plan.contains("rate_rps");
  if (key == "seed") return plan.value("arrival", "") == "poisson";
  if (key == "retry")
    return value.is_object() && value.size() > 1;  // {"attempts":1}: one attempt, no retries
  if (key == "requests") return value.is_array() && value.size() > 1;
  return true;
}

// Rows whose value reads better in the words of the flag that set it than as the results file stores it.
std::string plan_row_value(const std::string& key, const json& value) {
  if (key == "rate_rps" && value.is_number()) return format_per_second(value.get<double>()) + " (constant)";
  if (key == "coalesce_us" && value.is_number()) return format_seconds(value.get<double>() / 1e6);
  if (key == "max_lateness_ms" && value.is_number()) return format_seconds(value.get<double>() / 1e3);
  if (key == "retry" && value.is_object()) {
    std::string out = fmt::format("{} attempts", value.value("attempts", 1));
    for (const auto& [k, v] : value.items()) {
      if (k == "attempts") continue;
      out += fmt::format(", {} {}", plan_label(k), plan_value(k, v.is_object() ? json(compact(v)) : v));
    }
    return out;
  }
  return plan_value(key, value);
}

}  // namespace

std::string plan_rows(const json& plan) {
  if (!plan.is_object() || plan.empty()) return "<tr><td colspan=\"2\">not recorded</td></tr>\n";
  std::string out;
  for (const std::string& key : plan_keys(plan)) {
    const json& value = plan[key];
    if (!plan_row_shown(key, value, plan)) continue;
    if (key == "differs" && value.is_object()) {
      for (const auto& [k, values] : value.items()) {
        out += fmt::format("<tr><th>{}</th><td>differs per merged run: {}</td></tr>\n", escape(plan_label(k)),
                           escape(plan_value(k, values)));
      }
      continue;
    }
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(plan_label(key)),
                       escape(plan_row_value(key, value)));
  }
  return out;
}

}  // namespace openloop::report::html
