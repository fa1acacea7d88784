// Test fixture: a lab serving on a free loopback port on a thread of its own, with a control client to it.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <thread>

#include "core/clock.h"
#include "lab/control_client.h"
#include "lab/server.h"

namespace openloop::test {

/// A lab serving on a free loopback port until the fixture ends.
class RealLab : public ::testing::Test {
 protected:
  void SetUp() override {
    lab::LabConfig cfg;
    cfg.listen = "127.0.0.1:0";
    auto server = lab::Server::create(cfg, m_clock);
    ASSERT_TRUE(server) << server.error().message;
    m_server = std::move(*server);
    m_thread = std::thread([this] { m_server->run(); });
    auto client = lab::ControlClient::create("http://" + m_server->address() + "/_lab/config",
                                               std::chrono::seconds(2));
    ASSERT_TRUE(client) << client.error().message;
    m_client.emplace(std::move(*client));
  }
  void TearDown() override {
    if (m_server) m_server->request_stop();
    if (m_thread.joinable()) m_thread.join();
  }
  const lab::ControlClient& client() const { return *m_client; }

  RealClock m_clock;
  std::unique_ptr<lab::Server> m_server;
  std::thread m_thread;
  std::optional<lab::ControlClient> m_client;
};

}  // namespace openloop::test
