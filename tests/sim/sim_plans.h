// Plans and lab configurations for the simulator's tests, built in code (no command line, no DNS).
#pragma once

#include <atomic>
#include <string>

#include <gtest/gtest.h>

#include "engine/run_plan.h"
#include "http/request.h"
#include "lab/model_config.h"
#include "net/url.h"
#include "results/run_results.h"
#include "sim/lab_options.h"
#include "sim/simulate.h"

namespace openloop::sim::testing {

/// An open-model plan of one GET at `rate` per second for `duration` (after `warmup`), one worker.
inline engine::RunPlan open_plan(double rate, Nanos duration, Nanos warmup = Nanos(0),
                                 workload::ArrivalKind arrival = workload::ArrivalKind::poisson) {
  engine::RunPlan plan;
  plan.url_text = "http://127.0.0.1:8080/";
  plan.url = *net::parse_url(plan.url_text);
  plan.endpoints = {net::Endpoint{}};
  engine::RequestSpec spec;
  spec.request = *http::build_request("GET", plan.url, {}, "");
  plan.requests = {spec};
  plan.model = engine::Model::open;
  plan.arrival = arrival;
  plan.threads = 1;
  plan.spin_below = Nanos(0);
  plan.timeout = std::chrono::seconds(30);
  plan.warmup = warmup;
  plan.duration = duration;
  plan.profile = workload::RateProfile::constant(rate, warmup + duration);
  plan.max_connections = 5000;  // each is a Connection object made before the run: not more than needed
  return plan;
}

/// A closed-model plan: `users` users, think time `think` after each response.
inline engine::RunPlan closed_plan(std::uint64_t users, workload::DurationDistribution think, Nanos duration,
                                   Nanos warmup = Nanos(0)) {
  engine::RunPlan plan = open_plan(0, duration, warmup);
  plan.model = engine::Model::closed;
  plan.users = users;
  plan.max_connections = users;
  plan.think = think;
  plan.profile = workload::RateProfile::constant(0, warmup + duration);
  return plan;
}

/// The lab configuration of `options` (the flags of `openloop lab`); fails the test when refused.
inline lab::LabConfig lab_of(const std::string& options) {
  auto cfg = parse_lab_options(options, "--lab");
  EXPECT_TRUE(cfg) << cfg.error().message;
  return cfg ? *cfg : lab::LabConfig{};
}

/// simulate() of plan and lab; fails the test when refused.
inline results::RunResults run(const engine::RunPlan& plan, const std::string& lab_options) {
  std::atomic<int> stop{0};
  auto r = simulate(plan, lab_of(lab_options), stop);
  EXPECT_TRUE(r) << r.error().message;
  return r ? std::move(r->results) : results::RunResults{};
}

inline double ms(double ns) {
  return ns / 1e6;
}
inline double ms(std::int64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

}  // namespace openloop::sim::testing
