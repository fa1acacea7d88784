// Heap allocations per request in steady state: the real Worker over HTTP/1.1 on loopback, against a small
// server thread (http_test_server.h), with a counting operator new that counts only on the worker's thread
// and only between two points of the run (the server's 1000th and 2500th request). The engine promises none,
// with or without a response capture.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>

#include "../net/socket_test_util.h"
#include "engine/worker.h"
#include "http/request.h"
#include "http_test_server.h"

namespace {
std::atomic<bool> g_window{false};  // the counted stretch of the run is on
std::atomic<std::uint64_t> g_allocations{0};
thread_local bool t_counted = false;  // this thread is the worker's

void* counted_alloc(std::size_t n) {
  if (t_counted && g_window.load(std::memory_order_relaxed))
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* counted_alloc_nothrow(std::size_t n) noexcept {
  if (t_counted && g_window.load(std::memory_order_relaxed))
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
}  // namespace

// The counting hook, for this test executable only.
void* operator new(std::size_t n) {
  return counted_alloc(n);
}
void* operator new[](std::size_t n) {
  return counted_alloc(n);
}
// The nothrow forms too (std::stable_sort's temporary buffer uses them): every form whose memory the deletes
// below free must come from malloc, or a sanitizer's allocator sees a mismatch.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return counted_alloc_nothrow(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_alloc_nothrow(n);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

using namespace openloop;
using namespace std::chrono_literals;

namespace {

constexpr std::uint64_t k_window_from = 1000, k_window_to = 2500;

// The counting window: between the server's k_window_from-th and k_window_to-th answer.
void open_window(std::uint64_t served) {
  if (served == k_window_from) g_window = true;
  if (served == k_window_to) g_window = false;
}

constexpr std::string_view k_ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

engine::RunPlan loopback_plan(std::uint16_t port, double rate, Nanos duration) {
  engine::RunPlan plan;
  plan.url_text = "http://127.0.0.1:" + std::to_string(port) + "/";
  plan.url = *net::parse_url(plan.url_text);
  plan.endpoints = {net::testing::loopback(port)};
  engine::RequestSpec spec;
  spec.bytes = *http::render_request("GET", plan.url, {}, "");
  plan.requests = {spec};
  plan.model = engine::Model::open;
  plan.arrival = workload::ArrivalKind::constant;
  plan.threads = 1;
  plan.spin_below = Nanos(0);
  plan.timeout = 5s;
  plan.duration = duration;
  plan.interval = 60s;  // one interval: a new interval's histograms are the one allocation the engine allows
  plan.profile = workload::RateProfile::constant(rate, duration);
  plan.max_connections = 64;
  return plan;
}

// Runs `plan` on a Worker on this thread, counting the worker's allocations in the server's window.
void run_counted(const engine::RunPlan& plan, const engine::testing::HttpTestServer& server) {
  std::atomic<int> stop{0};
  engine::Worker worker(plan, 0, nullptr, stop, SteadyClock::now() + 20ms);
  ASSERT_TRUE(worker.init(Nanos(0)));
  g_allocations = 0;
  t_counted = true;
  worker.run();
  t_counted = false;
  g_window = false;
  ASSERT_GE(server.served(), k_window_to) << "the run ended before the counted stretch did";
  const double per_request =
      static_cast<double>(g_allocations.load()) / static_cast<double>(k_window_to - k_window_from);
  EXPECT_EQ(g_allocations.load(), 0U) << per_request << " heap allocations per request in steady state";
}

TEST(SteadyState, AnHttp1RequestAllocatesNothingOnTheWorkerThread) {
  engine::testing::HttpTestServer server(std::string(k_ok), open_window);
  run_counted(loopback_plan(server.port(), 2000, 1600ms), server);
}

// What a capture reader may do without allocating: look at every part the sink kept.
struct CheckingReader final : engine::CaptureReader {
  std::atomic<std::uint64_t> responses{0}, as_expected{0};
  void on_response(unsigned, const engine::Exchange&, const http::ResponseSink& sink) override {
    ++responses;
    const auto id = sink.header(0);
    if (sink.status() == 200 && id && *id == "42" && sink.body() == "abcd" && sink.truncated()) ++as_expected;
  }
};

TEST(SteadyState, AResponseCaptureAllocatesNothingPerRequest) {
  engine::testing::HttpTestServer server("HTTP/1.1 200 OK\r\nX-Id: 42\r\nContent-Length: 6\r\n\r\nabcdef",
                                         open_window);
  CheckingReader reader;
  engine::RunPlan plan = loopback_plan(server.port(), 2000, 1600ms);
  plan.capture = engine::ResponseCapture{{"x-id"}, 16, 4, &reader};
  run_counted(plan, server);
  EXPECT_GE(reader.responses.load(), k_window_to) << "the reader saw every response";
  EXPECT_EQ(reader.as_expected.load(), reader.responses.load()) << "each captured as the server sent it";
}

}  // namespace
