// The machine around the plan builder (cli/plan_host.h): the open-file limit, the cores, the shard
// environment, and the target's one DNS resolution.
#include "cli/plan_host.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "core/clock.h"
#include "net/resolver.h"

namespace openloop::cli {

std::uint64_t raise_fd_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 1024;
  if (rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  return rl.rlim_cur;
}

HostFacts host_facts() {
  HostFacts host;
  host.cores = std::max(1U, std::thread::hardware_concurrency());
  host.fd_limit = raise_fd_limit();
  host.environment = workload::shard_environment();
  return host;
}

Result<void> resolve_target(const std::vector<engine::RunPlan*>& plans) {
  if (plans.empty()) return {};
  const net::Url& url = plans.front()->url;
  const SteadyTime resolving = SteadyClock::now();
  auto endpoints = OPENLOOP_TRY(net::resolve(url.host, url.port));
  const Nanos took = SteadyClock::now() - resolving;  // the run's one resolution, shared by its plans
  for (engine::RunPlan* plan : plans) {
    plan->endpoints = endpoints;
    plan->dns_time = took;
  }
  return {};
}

void mark_simulated(engine::RunPlan& plan) {
  plan.endpoints.assign(1, net::Endpoint{});
  plan.dns_time = Nanos(-1);
}

nlohmann::json run_environment() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return {{"host", std::string(name)},
          {"cores", std::thread::hardware_concurrency()},
          {"openloop_version", OPENLOOP_VERSION}};
}

std::string target_address(const engine::RunPlan& plan) {
  const bool ipv6 = plan.url.host.find(':') != std::string::npos;
  return ipv6 ? fmt::format("[{}]:{}", plan.url.host, plan.url.port)
              : fmt::format("{}:{}", plan.url.host, plan.url.port);
}

}  // namespace openloop::cli
