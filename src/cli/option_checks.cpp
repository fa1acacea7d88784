// The checks of single flags (cli/option_checks.h): each value as typed, checked and converted.
#include "cli/option_checks.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "results/flow_steps.h"

namespace openloop::cli {

Result<void> resolve_output_paths(RunOptions& o) {
  if (!o.report_dir.empty()) {
    std::filesystem::path dir(o.report_dir);
    if (!dir.has_filename() && dir.has_relative_path()) dir = dir.parent_path();  // "results/" is "results"
    const std::pair<std::string*, const char*> files[] = {
        {&o.json, "results.json"}, {&o.hlog, "results.hlog"}, {&o.html, "report.html"}};
    for (const auto& [path, name] : files) {
      if (!path->empty()) {
        return usage_error(fmt::format(
            "--report-dir: writes {} itself; give either --report-dir or the single output flags", name));
      }
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      const std::filesystem::path parent = dir.parent_path();
      if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
        return usage_error(
            fmt::format("--report-dir: the parent directory of \"{}\" does not exist", o.report_dir));
      }
      if (!std::filesystem::create_directory(dir, ec) && ec) {
        return usage_error(fmt::format("--report-dir: cannot create \"{}\": {}", o.report_dir, ec.message()));
      }
    }
    for (const auto& [path, name] : files) *path = (dir / name).string();
  } else if (!o.json.empty() && o.html.empty()) {
    std::filesystem::path html(o.json);
    html.replace_extension(".html");
    if (html.string() == o.json) html = o.json + ".html";
    o.html = html.string();
  }
  if (o.no_html) o.html.clear();
  return {};
}

Result<std::optional<Nanos>> parse_spin_below(const std::string& text) {
  if (text == "auto") return std::optional<Nanos>();
  const Nanos d = OPENLOOP_TRY(parse_duration(text, "--spin-below"));
  if (d > std::chrono::milliseconds(10)) {
    return usage_error(
        fmt::format("--spin-below: \"{}\" is more than 10ms; use auto, 0 or a wait such as 20us", text));
  }
  return std::optional<Nanos>(d);
}

Result<double> parse_spin_budget(const std::string& text, const std::string& spin_below,
                                 const std::string& coalesce) {
  if (text.empty()) return engine::k_default_spin_budget;
  if (spin_below != "auto") {
    return usage_error(fmt::format("--spin-budget: caps --spin-below auto's spinning; --spin-below {} spins "
                                   "through every wait under it without a budget: drop one of them",
                                   spin_below));
  }
  if (coalesce != "0")
    return usage_error(
        "--spin-budget: a run with --coalesce never spins (it sleeps a window at a time): drop one");
  const bool percent = text.back() == '%';
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  char* end = nullptr;
  const double v = number.empty() ? -1 : std::strtod(number.c_str(), &end) / (percent ? 100.0 : 1.0);
  if (number.empty() || end == nullptr || *end != '\0' || !(v > 0) || v > 1) {
    return usage_error(fmt::format("--spin-budget: \"{}\" is not a share of one core; use more than 0 and at "
                                   "most 1 (a full core), e.g. 0.25 or 25% (--spin-below 0 never spins)",
                                   text));
  }
  return v;
}

Result<Nanos> parse_coalesce(const std::string& text) {
  if (text == "auto") return engine::k_coalesce_auto;
  const Nanos d = OPENLOOP_TRY(parse_duration(text, "--coalesce"));
  if (d > std::chrono::milliseconds(100)) {
    return usage_error(fmt::format(
        "--coalesce: \"{}\" is more than 100ms; use 0 (off), auto or a window such as 100us", text));
  }
  return d;
}

Result<engine::ProtocolChoice> parse_protocol(const std::string& text, bool http2, bool http1_1) {
  const auto choice = engine::parse_protocol_choice(text);
  if (!choice)
    return usage_error(fmt::format("--protocol: \"{}\" is not accepted; use {}", text, engine::k_protocol_values));
  if (http2 && http1_1) return usage_error("--http2 and --http1.1: give one of them (or --protocol h2|h1)");
  const auto flag = http2 ? std::optional(engine::ProtocolChoice::http2)
                    : http1_1 ? std::optional(engine::ProtocolChoice::http1)
                              : std::nullopt;
  if (!flag) return *choice;
  if (*choice != engine::ProtocolChoice::automatic && *choice != *flag) {
    return usage_error(fmt::format("{} contradicts --protocol {}: give one of them", http2 ? "--http2" : "--http1.1",
                                   text));
  }
  return *flag;
}

Result<engine::OnSaturation> parse_on_saturation(const std::string& text) {
  if (text == "drop") return engine::OnSaturation::drop;
  if (text == "queue") return engine::OnSaturation::queue;
  return usage_error(fmt::format("--on-saturation: \"{}\" is not accepted; use drop or queue", text));
}

Result<std::pair<int, int>> parse_success(const std::string& text) {
  int lo = 0, hi = 0;
  char dash = 0;
  if (std::sscanf(text.c_str(), "%d%c%d", &lo, &dash, &hi) == 3 && dash == '-' && 100 <= lo && lo <= hi &&
      hi <= 599) {
    return std::pair{lo, hi};
  }
  if (std::sscanf(text.c_str(), "%d", &lo) == 1 && text.find('-') == std::string::npos && 100 <= lo &&
      lo <= 599 && std::to_string(lo) == text) {
    return std::pair{lo, lo};
  }
  return usage_error(fmt::format("--success: \"{}\" is not a status range; use e.g. 200-299 or 200", text));
}

Result<workload::PlanInputs> plan_inputs(const RunOptions& o) {
  if (!o.targets.empty() && !o.url.empty()) {
    return usage_error(fmt::format(
        "--targets: the requests come from {}; drop \"{}\" (to send them to another host, use --target URL)",
        o.targets == "-" ? "standard input" : o.targets, o.url));
  }
  return workload::make_plan_inputs(o.env, o.retarget);
}

Result<std::vector<results::Slo>> parse_slos(const RunOptions& o,
                                             const std::vector<std::string>& request_names, bool flow) {
  const bool none = std::find(o.slos.begin(), o.slos.end(), "none") != o.slos.end();
  if (none && o.slos.size() > 1) {
    return usage_error(
        "--slo none: measures without judging, so it cannot be given with other --slo objectives (drop "
        "either)");
  }
  if (o.abort_on_slo && (o.slos.empty() || none)) {
    return usage_error("--abort-on-slo: needs at least one --slo to judge, e.g. --slo 'p99<=200ms'");
  }
  if (none) return std::vector<results::Slo>{};
  if (o.slos.empty()) return std::vector<results::Slo>{results::default_slo()};
  std::vector<results::Slo> out;
  for (const auto& text : o.slos) {
    results::Slo slo = OPENLOOP_TRY(results::parse_slo(text, "--slo"));
    if (flow && results::slo_names_the_flow(slo, request_names)) {
      if (slo.metric != results::Slo::Metric::percentile && slo.metric != results::Slo::Metric::mean &&
          slo.metric != results::Slo::Metric::max) {
        return usage_error(fmt::format(
            "--slo \"{}\": the flow's SLO judges its time (a session's intended start to its last response): "
            "use pNN, mean or max, e.g. flow:p99<2s; a step's other metrics by its request, e.g. "
            "login:errors<1%",
            text));
      }
      out.push_back(std::move(slo));
      continue;
    }
    if (!slo.request.empty() &&
        std::find(request_names.begin(), request_names.end(), slo.request) == request_names.end()) {
      std::string names;
      for (const auto& n : request_names) names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", n);
      return usage_error(
          fmt::format("--slo \"{}\": the plan has no request named \"{}\" (its requests: {}{})", text,
                      slo.request, names, flow ? "; or flow, the flow's time" : ""));
    }
    out.push_back(std::move(slo));
  }
  return out;
}

Result<std::string> check_server_timing_metric(const std::string& name) {
  const bool token = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
  if (!token) {
    return usage_error(
        fmt::format("--server-timing-metric: \"{}\" is not a metric name (letters, digits and "
                    "!#$%&'*+-.^_`|~, as in `app;dur=12.3`)",
                    name));
  }
  return name;
}

Result<std::vector<results::UntilTarget>> parse_until_targets(const RunOptions& o) {
  std::vector<results::UntilTarget> out;
  for (const auto& t : o.until) out.push_back(OPENLOOP_TRY(results::parse_until(t)));
  return out;
}

}  // namespace openloop::cli
