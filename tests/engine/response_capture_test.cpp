// A plan that asks for response capture: the real Worker over HTTP/1.1 on loopback, every response's status,
// named headers (matched case-insensitively) and body cut at the cap handed to the plan's reader.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "../net/socket_test_util.h"
#include "engine/response_capture.h"
#include "engine/worker.h"
#include "http/request.h"
#include "http_test_server.h"

using namespace openloop;
using namespace std::chrono_literals;

namespace {

// Copies what it is shown (a test may allocate; the allocation test has a reader that does not).
struct RecordingReader final : engine::CaptureReader {
  struct Seen {
    unsigned worker = 0;
    int status = 0;
    std::optional<std::string> id, missing;
    std::string body;
    bool truncated = false;
  };
  std::vector<Seen> seen;
  void on_response(unsigned worker, const engine::Exchange&, const http::ResponseSink& sink) override {
    Seen s;
    s.worker = worker;
    s.status = sink.status();
    if (const auto v = sink.header(0)) s.id = std::string(*v);
    if (const auto v = sink.header(1)) s.missing = std::string(*v);
    s.body = std::string(sink.body());
    s.truncated = sink.truncated();
    seen.push_back(std::move(s));
  }
};

// Runs the plan on a Worker on this thread; returns how many requests completed (a response by the deadline).
std::uint64_t run(const engine::RunPlan& plan) {
  std::atomic<int> stop{0};
  engine::Worker worker(plan, 0, nullptr, stop, SteadyClock::now() + 20ms);
  EXPECT_TRUE(worker.init({}));
  worker.run();
  std::vector<results::IntervalStats> intervals;
  worker.take_intervals(intervals);
  std::uint64_t completed = 0;
  for (const auto& i : intervals) completed += i.counters.completed;
  return completed;
}

TEST(ResponseCapture, ThePlansReaderGetsEachResponsesStatusNamedHeadersAndBodyUpToTheCap) {
  engine::testing::HttpTestServer server(
      "HTTP/1.1 201 Created\r\nx-ID: 7\r\nX-Other: no\r\nContent-Length: 11\r\n\r\nhello world");
  RecordingReader reader;
  engine::RunPlan plan = engine::testing::loopback_plan(server.port(), 100, 200ms, 4);
  plan.capture = engine::ResponseCapture{{"X-Id", "X-Missing"}, 16, 5, &reader};
  const std::uint64_t completed = run(plan);
  ASSERT_GT(completed, 0U);
  ASSERT_EQ(reader.seen.size(), completed) << "one reading per response";
  for (const auto& s : reader.seen) {
    EXPECT_EQ(s.worker, 0U);
    EXPECT_EQ(s.status, 201);
    EXPECT_EQ(s.id, "7") << "names match whatever their case";
    EXPECT_EQ(s.missing, std::nullopt);
    EXPECT_EQ(s.body, "hello");
    EXPECT_TRUE(s.truncated);
  }
}

TEST(ResponseCapture, ABodyWithinTheCapIsKeptWholeAndNotTruncated) {
  engine::testing::HttpTestServer server("HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nnop");
  RecordingReader reader;
  engine::RunPlan plan = engine::testing::loopback_plan(server.port(), 100, 200ms, 4);
  plan.capture = engine::ResponseCapture{{"X-Id", "X-Missing"}, 16, 64, &reader};
  const std::uint64_t completed = run(plan);
  ASSERT_GT(completed, 0U);
  ASSERT_EQ(reader.seen.size(), completed);
  EXPECT_EQ(reader.seen[0].status, 404);
  EXPECT_EQ(reader.seen[0].id, std::nullopt);
  EXPECT_EQ(reader.seen[0].body, "nop");
  EXPECT_FALSE(reader.seen[0].truncated);
}

}  // namespace
