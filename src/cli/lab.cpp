// `openloop lab`: flags for the lab service (one per setting in lab/config_fields), then serve until stopped.
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "report/metrics/metrics_lab.h"
#include "cli/metrics_options.h"
#include "core/clock.h"
#include "lab/config_fields.h"
#include "lab/server.h"
#include "lab/control_client.h"

namespace openloop::cli {
namespace {

// The flags as typed; parsed by lab::apply_setting so the command line and /_lab/config agree exactly.
struct LabFlags {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> switches;
  std::vector<std::string> stall_at;
  std::map<std::string, CLI::Option*> options;
  std::string metrics_listen;  ///< --metrics-listen: HOST:PORT of the metrics endpoint (empty: none)
};

// The running server, for the signal handler only (a signal handler has no other way to reach it).
std::atomic<lab::Server*> g_running_server{nullptr};

extern "C" void stop_on_signal(int /*signal*/) {
  if (lab::Server* s = g_running_server.load()) s->request_stop();
}

Result<lab::LabConfig> config_from(const LabFlags& flags) {
  lab::LabConfig cfg;
  for (const lab::SettingInfo& s : lab::settings()) {
    const std::string name(s.name);
    if (flags.options.at(name)->count() == 0) continue;
    const std::string what = "--" + name;
    std::vector<std::string> texts;
    if (s.flag) {
      texts.emplace_back(flags.switches.at(name) ? "true" : "false");
    } else if (name == "stall-at") {
      texts = flags.stall_at;
    } else {
      texts.push_back(flags.values.at(name));
    }
    for (const std::string& text : texts) {
      if (auto r = lab::apply_setting(cfg, name, text, what); !r) return tl::unexpected(r.error());
    }
  }
  if (!cfg.http2.enabled) {
    for (const char* name : {"max-streams", "goaway-after", "refuse-streams-above"}) {
      if (flags.options.at(name)->count() > 0) {
        return usage_error(
            fmt::format("--{} is an HTTP/2 setting; add --http2 (h2c with prior knowledge)", name));
      }
    }
  }
  return cfg;
}

// The endpoint reads the lab's stats as a client would (GET /_lab/stats on its own address): the counters
// belong to the lab's loop thread.
Result<std::unique_ptr<MetricsServer>> start_lab_metrics(const std::string& listen, const std::string& lab) {
  const auto client = OPENLOOP_TRY(
      lab::ControlClient::create(fmt::format("http://{}/_lab/config", lab), std::chrono::seconds(2)));
  return MetricsServer::start(listen, [client, lab]() {
    const auto stats = client.stats();
    return report::lab_metric_families(stats ? &*stats : nullptr, lab);
  });
}

int serve(const LabFlags& flags) {
  auto cfg = config_from(flags);
  if (!cfg) {
    fmt::print(stderr, "openloop lab: {}\n", cfg.error().message);
    return static_cast<int>(cfg.error().code);
  }
  const RealClock clock;
  auto server = lab::Server::create(std::move(*cfg), clock);
  if (!server) {
    fmt::print(stderr, "openloop lab: {}\n", server.error().message);
    return static_cast<int>(server.error().code);
  }
  std::unique_ptr<MetricsServer> metrics;
  if (!flags.metrics_listen.empty()) {
    auto started = start_lab_metrics(flags.metrics_listen, (*server)->address());
    if (!started) {
      fmt::print(stderr, "openloop lab: {}\n", started.error().message);
      return static_cast<int>(started.error().code);
    }
    metrics = std::move(*started);
  }
  g_running_server.store(server->get());
  struct sigaction sa {};
  sa.sa_handler = stop_on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // Scripts parse this line for the port (useful with --listen 127.0.0.1:0).
  fmt::print("lab listening on {}\n", (*server)->address());
  if (metrics) fmt::print("lab metrics at http://{}/metrics\n", metrics->address());
  std::fflush(stdout);
  (*server)->run();
  g_running_server.store(nullptr);
  return static_cast<int>(ExitCode::ok);
}

// The --help group of each setting, by name; a setting not listed (a new one) shows under the service model.
const char* help_group_of(std::string_view name) {
  static const std::pair<std::string_view, const char*> groups[] = {
      {"listen", "Server"},          {"header-timeout", "Server"},        {"seed", "Server"},
      {"duration", "Server"},        {"stall", "Faults"},                 {"stall-at", "Faults"},
      {"error-rate", "Faults"},      {"cache", "Cache and dependency"},   {"hit", "Cache and dependency"},
      {"miss", "Cache and dependency"}, {"dependency", "Cache and dependency"},
      {"dependency-pool", "Cache and dependency"}, {"body-size", "Responses"}, {"auth", "Responses"},
      {"http2", "HTTP/2"},           {"max-streams", "HTTP/2"},           {"goaway-after", "HTTP/2"},
      {"refuse-streams-above", "HTTP/2"}, {"grpc", "HTTP/2"},
  };
  for (const auto& [setting, group] : groups) {
    if (setting == name) return group;
  }
  return "Service model";
}

}  // namespace

Action setup_lab(CLI::App& sub) {
  auto flags = std::make_shared<LabFlags>();
  sub.footer(
      "Every setting except listen, seed and duration can be changed while running: "
      "POST /_lab/config {\"service\": \"exp:2ms\", \"workers\": 4}. GET /_lab/stats shows the counters.");
  for (const lab::SettingInfo& s : lab::settings()) {
    const std::string name(s.name);
    const std::string flag = "--" + name;
    const std::string help(s.help);
    CLI::Option* opt = nullptr;
    if (s.flag) {
      opt = sub.add_flag(flag, flags->switches[name], help);
    } else if (name == "stall-at") {
      opt = sub.add_option(flag, flags->stall_at, help)
                ->type_name(std::string(s.value))
                ->allow_extra_args(false);
    } else {
      opt = sub.add_option(flag, flags->values[name], help)->type_name(std::string(s.value));
    }
    opt->group(help_group_of(name));
    flags->options[name] = opt;
  }
  sub.add_option("--metrics-listen", flags->metrics_listen,
                 "Serve the lab's stats for Prometheus at http://ADDR/metrics (queue depth, busy workers, shed, "
                 "expired, ...; docs/metrics.md), e.g. 127.0.0.1:9465")
      ->type_name("ADDR")
      ->group("Server");
  return [flags] { return serve(*flags); };
}

}  // namespace openloop::cli
