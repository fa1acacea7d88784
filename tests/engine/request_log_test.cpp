// The per-request log: line formatting (JSON and CSV, nulls where a value does not apply), the ring's
// hand-off between a worker and the writer (order kept, a full ring drops and counts), and the log file.
#include "engine/request_log.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {

LogContext context() {
  LogContext c;
  c.request_names = {"get \"item\"", "search,all"};
  c.steady_origin = SteadyTime(1000s);
  c.unix_origin_s = 1'700'000'000.0;
  return c;
}

RequestRecord ok_record() {
  RequestRecord r;
  r.intended = SteadyTime(1000s) + 1500ms;
  r.sent = r.intended + 20us;
  r.end = r.intended + 1234567ns;
  r.phases.new_connection = true;
  r.phases[results::Phase::connect] = 80'000;
  r.phases[results::Phase::ttfb] = 1'100'000;
  r.phases[results::Phase::body] = 0;
  r.bytes_in = 250;
  r.bytes_out = 40;
  r.status = 200;
  r.attempts = 1;
  r.outcome = RecordOutcome::ok;
  return r;
}

TEST(RequestLogFormat, JsonLineHasEveryFieldWithNullsWhereNothingHappened) {
  std::string line;
  format_record(ok_record(), context(), LogFormat::json, line);
  EXPECT_EQ(
      line,
      "{\"intended_s\":1700000001.500000,\"sent_s\":1700000001.500020,\"response_ms\":1.234,"
      "\"connect_ms\":0.080,\"tls_ms\":null,\"ttfb_ms\":1.100,\"body_ms\":0.000,\"new_connection\":true,"
      "\"status\":200,\"bytes_in\":250,\"bytes_out\":40,\"attempts\":1,\"outcome\":\"ok\",\"error\":null,"
      "\"request\":\"get \\\"item\\\"\",\"warmup\":false,\"protocol\":null,\"connection\":null,\"stream\":null}\n");
  const auto j = nlohmann::json::parse(line);  // valid JSON, the name escaped
  EXPECT_EQ(j["request"], "get \"item\"");
}

TEST(RequestLogFormat, DroppedAndErrorRecordsSayWhatHappened) {
  RequestRecord dropped;
  dropped.intended = SteadyTime(1000s) - 2s;  // before the origin: still a Unix time
  dropped.request = 1;
  dropped.outcome = RecordOutcome::dropped;
  dropped.warmup = true;
  std::string line;
  format_record(dropped, context(), LogFormat::json, line);
  const auto j = nlohmann::json::parse(line);
  EXPECT_DOUBLE_EQ(j["intended_s"].get<double>(), 1'699'999'998.0);
  EXPECT_TRUE(j["sent_s"].is_null());
  EXPECT_TRUE(j["response_ms"].is_null());
  EXPECT_TRUE(j["status"].is_null());
  EXPECT_TRUE(j["new_connection"].is_null());
  EXPECT_EQ(j["outcome"], "dropped");
  EXPECT_EQ(j["warmup"], true);

  RequestRecord reset = ok_record();
  reset.status = 0;
  reset.phases = {};
  reset.outcome = RecordOutcome::error;
  reset.error = results::ErrorKind::reset;
  line.clear();
  format_record(reset, context(), LogFormat::json, line);
  const auto e = nlohmann::json::parse(line);
  EXPECT_EQ(e["outcome"], "error");
  EXPECT_EQ(e["error"], "reset");
  EXPECT_TRUE(e["ttfb_ms"].is_null());
}

TEST(RequestLogFormat, CsvHasTheHeaderColumnsAndQuotesNames) {
  std::string line;
  RequestRecord r = ok_record();
  r.request = 1;
  format_record(r, context(), LogFormat::csv, line);
  EXPECT_EQ(
      line,
      "1700000001.500000,1700000001.500020,1.234,0.080,,1.100,0.000,true,200,250,40,1,ok,,\"search,all\","
      "false,,,\n");
  const std::string header(csv_header());
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(line.begin(), line.end(), ',') - 1)
      << "one comma is inside the quoted name";
}

TEST(RequestLogFormat, NamesTheProtocolConnectionAndStreamOfAnHttp2Request) {
  RequestRecord r = ok_record();
  r.protocol = 2;
  r.worker = 1;
  r.connection = 4;  // 1 + id 3
  r.stream = 7;
  std::string line;
  format_record(r, context(), LogFormat::json, line);
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["protocol"], "h2");
  EXPECT_EQ(j["connection"], "1.3");
  EXPECT_EQ(j["stream"], 7);
  line.clear();
  r.protocol = 1;
  r.stream = 0;
  format_record(r, context(), LogFormat::csv, line);
  EXPECT_NE(line.find(",false,h1,1.3,\n"), std::string::npos) << line;
}

TEST(RequestLogFormat, NamesTheGrpcStatusOfAGrpcCallInJsonOnly) {
  RequestRecord r = ok_record();
  std::string line;
  format_record(r, context(), LogFormat::json, line);
  EXPECT_FALSE(nlohmann::json::parse(line).contains("grpc_status")) << "an HTTP request has none";
  r.grpc_status = 5;
  line.clear();
  format_record(r, context(), LogFormat::json, line);
  EXPECT_EQ(nlohmann::json::parse(line)["grpc_status"], "NOT_FOUND");
  line.clear();
  format_record(r, context(), LogFormat::csv, line);
  EXPECT_EQ(line.find("NOT_FOUND"), std::string::npos) << "the CSV columns are every run's";
}

TEST(RequestLogFormat, RejectsAnUnknownFormatNamingTheFlag) {
  EXPECT_TRUE(parse_log_format("csv", "--log-format"));
  auto bad = parse_log_format("xml", "--log-format");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "--log-format: \"xml\" is not a log format (expected json or csv)");
  EXPECT_EQ(bad.error().code, ExitCode::usage);
}

TEST(RecordRing, HandsRecordsOverInOrderAndCountsWhatAFullRingRefuses) {
  RecordRing ring(4);
  ASSERT_EQ(ring.capacity(), 4U);
  for (std::uint32_t i = 0; i < 6; ++i) {
    RequestRecord r;
    r.request = i;
    EXPECT_EQ(ring.push(r), i < 4) << i;
  }
  EXPECT_EQ(ring.dropped(), 2U);
  RequestRecord out[8];
  ASSERT_EQ(ring.pop(out, 3), 3U);
  EXPECT_EQ(out[0].request, 0U);
  EXPECT_EQ(out[2].request, 2U);
  RequestRecord r;
  r.request = 9;
  EXPECT_TRUE(ring.push(r));  // room again once the writer took some
  ASSERT_EQ(ring.pop(out, 8), 2U);
  EXPECT_EQ(out[0].request, 3U);
  EXPECT_EQ(out[1].request, 9U);
  EXPECT_EQ(ring.pop(out, 8), 0U);
  EXPECT_EQ(ring.dropped(), 2U);
}

TEST(RecordRing, EveryRecordIsEitherHandedOverOrCountedAcrossThreads) {
  // A producer thread pushing as fast as it can against a consumer draining: nothing lost uncounted, order
  // kept. Bounded in count, no timing assumption.
  RecordRing ring(64);
  constexpr std::uint32_t k_records = 200'000;
  std::uint64_t received = 0;
  std::uint32_t last = 0;
  bool ordered = true;
  std::atomic<bool> done{false};
  std::thread producer([&] {
    for (std::uint32_t i = 1; i <= k_records; ++i) {
      RequestRecord r;
      r.request = i;
      ring.push(r);
    }
    done.store(true, std::memory_order_release);
  });
  RequestRecord batch[32];
  for (;;) {
    const bool finished = done.load(std::memory_order_acquire);
    const std::size_t n = ring.pop(batch, 32);
    for (std::size_t i = 0; i < n; ++i) {
      ordered = ordered && batch[i].request > last;
      last = batch[i].request;
    }
    received += n;
    if (finished && n == 0) break;
  }
  producer.join();
  EXPECT_TRUE(ordered);
  EXPECT_EQ(received + ring.dropped(), k_records);
}

TEST(RequestLog, WritesOneLinePerRecordAndCountsTheDropped) {
  const std::string path = ::testing::TempDir() + "request_log_test.csv";
  auto log = RequestLog::open(path, LogFormat::csv, 2, context(), 4);
  ASSERT_TRUE(log) << log.error().message;
  // Not started: the rings fill (4 each) and refuse the rest, as when the writer falls behind.
  for (unsigned w = 0; w < 2; ++w) {
    for (int i = 0; i < 6; ++i) (*log)->ring(w).push(ok_record());
  }
  ASSERT_TRUE((*log)->finish());
  EXPECT_EQ((*log)->written(), 8U);
  EXPECT_EQ((*log)->dropped(), 4U);
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  std::getline(in, line);
  EXPECT_EQ(line + "\n", std::string(csv_header()));
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 8);
  std::remove(path.c_str());
}

TEST(RequestLog, UnwritablePathIsAUsageErrorNamingTheFlag) {
  auto log = RequestLog::open("/nonexistent-dir/x.log", LogFormat::json, 1, context());
  ASSERT_FALSE(log);
  EXPECT_EQ(log.error().code, ExitCode::usage);
  EXPECT_NE(log.error().message.find("--log-requests: cannot open \"/nonexistent-dir/x.log\""),
            std::string::npos)
      << log.error().message;
}

}  // namespace
