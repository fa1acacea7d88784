// Test double of the lab server as its connections see it (ConnectionHost): a real event loop that is never
// polled, a manual time, arrivals recorded instead of modelled, a fixed control answer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lab/served_connection.h"

namespace openloop::test {

class FakeHost final : public lab::ConnectionHost {
 public:
  FakeHost() : m_loop(std::move(*net::EventLoop::create())) {}

  net::EventLoop& loop() override { return m_loop; }
  net::TimerQueue& timers() override { return m_timers; }
  SteadyTime now() const override { return m_now; }
  const lab::LabConfig& config() const override { return m_config; }
  const lab::ResponseCatalog& responses() const override { return m_responses; }
  lab::ServerCounters& counters() override { return m_counters; }
  lab::AuthStore& auth() override { return m_auth; }
  void submit(SteadyTime at, const lab::Arrival& arrival) override {
    submitted_at.push_back(at);
    arrivals.push_back(arrival);
  }
  lab::ControlResponse control(std::string_view method, std::string_view target,
                               std::string_view body) override {
    controls.push_back(std::string(method) + " " + std::string(target) + " " + std::string(body));
    return {200, "application/json", "{\"control\":true}\n"};
  }
  void on_closed(std::uint32_t slot) override { closed.push_back(slot); }

  net::EventLoop m_loop;
  net::TimerQueue m_timers;
  SteadyTime m_now{std::chrono::seconds(100)};
  lab::LabConfig m_config;
  lab::ResponseCatalog m_responses{5};
  lab::ServerCounters m_counters;
  lab::AuthStore m_auth{12345};
  std::vector<lab::Arrival> arrivals;
  std::vector<SteadyTime> submitted_at;
  std::vector<std::string> controls;
  std::vector<std::uint32_t> closed;
};

}  // namespace openloop::test
