// Reading results files back: exact round trip, and errors that name the file and the line or JSON path.
#include "results/files/results_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "results/results_test_util.h"
#include "results/files/results_json.h"

namespace openloop::results {
namespace {

using ::testing::HasSubstr;

RunResults sample_run() {
  return test::make_run({{1000, 2000, 3000}, {}, {5'000'000, 7'000'000}}, 1700000000.25, "http://h/",
                        {0, 4, 0});
}

std::string error_of(const std::string& text) {
  auto r = parse_results(text, "r.json");
  EXPECT_FALSE(r.has_value());
  if (r) return {};
  EXPECT_EQ(r.error().code, ExitCode::usage);
  return r.error().message;
}

TEST(ResultsReader, RoundTripsEveryFieldTheWriterWrites) {
  const nlohmann::json written = to_json(sample_run());
  auto read = parse_results(written.dump(1), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(to_json(*read), written);
  EXPECT_DOUBLE_EQ(read->info.start_unix_s, 1700000000.25);
  EXPECT_EQ(read->response_time.total_count(), 5);
  EXPECT_EQ(read->totals.dropped, 4U);
  EXPECT_EQ(read->intervals[2].response_time.max, sample_run().intervals[2].response_time.max);
}

TEST(ResultsReader, RoundTripsTheAbandonedCount) {
  auto run = sample_run();
  run.generator.abandoned = 3;
  auto read = parse_results(to_json(run).dump(1), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->generator.abandoned, 3U);
}

TEST(ResultsReader, RoundTripsTheStealAndTheRunDelayAndRejectsImpossibleOnes) {
  auto run = sample_run();
  auto read = parse_results(to_json(run).dump(1), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_FALSE(read->generator.steal_share);  // unknown stays unknown, not 0
  EXPECT_FALSE(read->generator.run_delay_seconds);
  run.generator.steal_share = 0.187;
  run.generator.run_delay_seconds = 0.035;
  const nlohmann::json written = to_json(run);
  EXPECT_DOUBLE_EQ(written["generator"]["steal_share"].get<double>(), 0.187);
  EXPECT_DOUBLE_EQ(written["generator"]["run_delay_s"].get<double>(), 0.035);
  read = parse_results(written.dump(1), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(to_json(*read), written);
  nlohmann::json bad = written;
  bad["generator"]["steal_share"] = 1.5;
  EXPECT_THAT(error_of(bad.dump()), HasSubstr("r.json: /generator/steal_share: 1.5 is not a share (0 to 1)"));
  bad = written;
  bad["generator"]["run_delay_s"] = -1;
  EXPECT_THAT(error_of(bad.dump()), HasSubstr("/generator/run_delay_s: -1 is not a duration"));
}

// gRPC calls' counts by status name: read back and written again exactly, summed by add (as merge and shards
// do); a file without them reads as none; an unknown name is refused naming its path.
TEST(ResultsReader, RoundTripsTheGrpcStatusesByName) {
  nlohmann::json written = to_json(sample_run());
  EXPECT_FALSE(written["summary"]["counts"].contains("grpc_statuses"));
  const auto add = [&](nlohmann::json& counts, nlohmann::json statuses, int messages, int bytes) {
    counts["grpc_statuses"] = std::move(statuses);
    counts["grpc_messages_in"] = messages;
    counts["grpc_message_bytes_in"] = bytes;
  };
  // Interval 0 completed 3, interval 2 completed 2 (sample_run), interval 1 none.
  add(written["intervals"][0]["counts"], {{"OK", 1}, {"NOT_FOUND", 1}, {"UNAVAILABLE", 1}}, 1, 16);
  add(written["intervals"][2]["counts"], {{"OK", 2}}, 2, 32);
  add(written["summary"]["counts"], {{"OK", 3}, {"NOT_FOUND", 1}, {"UNAVAILABLE", 1}}, 3, 48);
  auto read = parse_results(written.dump(1), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(to_json(*read), written);
  EXPECT_EQ(read->totals.grpc_status[5], 1U);
  EXPECT_EQ(read->totals.grpc_calls(), 5U);
  EXPECT_EQ(read->intervals[2].counters.grpc_messages_in, 2U);
  Counters twice = read->totals;
  twice.add(read->totals);
  EXPECT_EQ(twice.grpc_status[0], 6U);
  EXPECT_EQ(twice.grpc_status[14], 2U);
  EXPECT_EQ(twice.grpc_message_bytes_in, 96U);

  nlohmann::json bad = written;
  bad["summary"]["counts"]["grpc_statuses"]["NOT_A_STATUS"] = 1;
  EXPECT_THAT(error_of(bad.dump()),
              HasSubstr("/summary/counts/grpc_statuses/NOT_A_STATUS: not a gRPC status"));
}

TEST(ResultsReader, GrpcStatusesBeyondCompletedAreRefused) {
  Counters c;
  c.intended = c.sent = c.completed = 2;
  c.status_class[2] = 2;
  c.grpc_status[0] = 3;
  EXPECT_EQ(c.imbalance(), "the gRPC statuses add up to 3, but completed is 2");
  c.grpc_status[0] = 2;
  EXPECT_EQ(c.imbalance(), "");
}

TEST(ResultsReader, RoundTripsPhasesDnsAndTheRequestLogCounts) {
  RunResults run = sample_run();
  AttemptPhases fresh;
  fresh.new_connection = true;
  fresh[Phase::connect] = 90'000;
  fresh[Phase::tls] = 1'500'000;
  fresh[Phase::ttfb] = 400'000;
  fresh[Phase::body] = 0;
  AttemptPhases reused;
  reused[Phase::ttfb] = 300'000;
  reused[Phase::body] = 20'000;
  run.phases.record(fresh);
  run.phases.record(reused);
  run.phases.record(reused);
  run.dns_ns = 250'000;
  run.logged = true;
  run.log_written = 5;
  run.log_dropped = 1;
  const nlohmann::json written = to_json(run);
  EXPECT_DOUBLE_EQ(written["summary"]["phases"]["dns_ms"].get<double>(), 0.25);
  EXPECT_EQ(written["summary"]["phases"]["reused_connection"]["ttfb_ms"]["count"], 2);
  EXPECT_FALSE(written["summary"]["phases"]["reused_connection"].contains("connect_ms"));
  auto read = parse_results(written.dump(1), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(to_json(*read), written);
  EXPECT_EQ(read->phases.at(true, Phase::tls), run.phases.at(true, Phase::tls));
  EXPECT_EQ(read->phases.at(false, Phase::body), run.phases.at(false, Phase::body));
  EXPECT_EQ(read->log_dropped, 1U);
  // A file written before phases were timed reads with none.
  auto old = parse_results(to_json(sample_run()).dump(), "r.json");
  ASSERT_TRUE(old);
  EXPECT_TRUE(old->phases.empty());
  EXPECT_EQ(old->dns_ns, -1);
  EXPECT_FALSE(old->logged);
}

TEST(ResultsReader, RefusesAnUnknownPhaseNamingIt) {
  RunResults run = sample_run();
  AttemptPhases a;
  a[Phase::ttfb] = 1000;
  run.phases.record(a);
  nlohmann::json j = to_json(run);
  j["summary"]["phases"]["histograms"]["reused_connection"]["dns"] =
      j["summary"]["phases"]["histograms"]["reused_connection"]["ttfb"];
  EXPECT_THAT(error_of(j.dump()), HasSubstr("r.json: /summary/phases/histograms/reused_connection/dns: not a "
                                            "phase (expected connect, tls, ttfb or body)"));
}

TEST(ResultsReader, RoundTripsBreakdownsSessionsAndScenarios) {
  const RunResults run = test::make_scenario_run(1700000000.0);
  const nlohmann::json written = to_json(run);
  auto read = parse_results(written.dump(1), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(to_json(*read), written);
  EXPECT_EQ(read->info.source, "plan.yaml");
  // The plan's order first (the combined run carries the first scenario's plan), then the others.
  EXPECT_EQ(read->info.request_names, (std::vector<std::string>{"get_item", "search", "checkout"}));
  ASSERT_EQ(read->by_request.size(), 3U);
  for (std::size_t q = 0; q < 3; ++q) {
    EXPECT_EQ(read->by_request[q].counters.intended, run.by_request[q].counters.intended) << q;
    EXPECT_EQ(read->by_request[q].response_time, run.by_request[q].response_time) << q;
    EXPECT_EQ(read->by_request[q].service_time, run.by_request[q].service_time) << q;
  }
  EXPECT_EQ(read->session_time, run.session_time);
  ASSERT_EQ(read->scenarios.size(), 2U);
  const ScenarioResults& shoppers = read->scenarios[1];
  EXPECT_EQ(shoppers.name, "shoppers");
  EXPECT_DOUBLE_EQ(shoppers.offset_s, 1.0);
  EXPECT_EQ(shoppers.results.info.model, results::Model::sessions);
  EXPECT_EQ(shoppers.results.flows.sessions_intended, 3U);
  EXPECT_EQ(shoppers.results.session_time, run.scenarios[1].results.session_time);
  EXPECT_EQ(shoppers.results.intervals[1].session_time.count, 2);
  EXPECT_EQ(shoppers.results.info.request_names, (std::vector<std::string>{"get_item", "checkout"}));
  EXPECT_EQ(shoppers.results.intervals[1].by_request[1].intended, 2U);  // checkout's share of interval 1
  EXPECT_EQ(shoppers.results.by_request[1].response_time,
            run.scenarios[1].results.by_request[1].response_time);
}

TEST(ResultsReader, PerRequestIntervalsMustAddUpToTheirTotals) {
  nlohmann::json j = to_json(test::make_breakdown_run({{1000, 2000}, {3000}}, 1700000000.0));
  j["intervals"][1]["by_request"]["search"]["intended"] = 1;
  j["intervals"][1]["by_request"]["search"]["dropped"] = 1;
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("r.json: /summary/by_request/search/counts: the intervals add up to "
                        "2 intended, 1 completed, but the summary says 1, 1"));
  j = to_json(test::make_breakdown_run({{1000, 2000}, {3000}}, 1700000000.0));
  j["intervals"][0]["by_request"]["nope"] = j["intervals"][0]["by_request"]["search"];
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("/intervals/0/by_request/nope: a request that /summary/by_request"));
}

TEST(ResultsReader, ScenariosMustAddUpToTheCombinedRun) {
  nlohmann::json j = to_json(test::make_scenario_run(1700000000.0));
  j["scenarios"].erase(1);
  EXPECT_THAT(error_of(j.dump()), HasSubstr("r.json: /summary/counts: the scenarios add up to 5 intended"));
}

TEST(ResultsReader, ErrorsInsideAScenarioNameItsPath) {
  nlohmann::json j = to_json(test::make_scenario_run(1700000000.0));
  j["scenarios"][1]["intervals"][0]["histograms"]["session_time"] = "HISTFAAAAnotbase64!!";
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("r.json: /scenarios/1/intervals/0/histograms/session_time: not an HdrHistogram"));
  j = to_json(test::make_scenario_run(1700000000.0));
  j["scenarios"][0].erase("name");
  EXPECT_THAT(error_of(j.dump()), HasSubstr("r.json: /scenarios/0/name: missing"));
}

TEST(ResultsReader, ABreakdownWrittenWithoutHistogramsIsLeftOut) {
  // Files written before per-request histograms were kept: the breakdown cannot be rendered exactly.
  nlohmann::json j = to_json(test::make_breakdown_run({{1000, 2000}, {3000}}, 1700000000.0));
  j["summary"]["by_request"]["search"].erase("histograms");
  auto read = parse_results(j.dump(), "r.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_TRUE(read->by_request.empty());
  EXPECT_TRUE(read->intervals[0].by_request.empty());
  EXPECT_EQ(read->info.request_names, (std::vector<std::string>{"get_item", "search"}));  // from the plan
  EXPECT_EQ(read->totals.intended, 3U);
}

TEST(ResultsReader, TruncatedFileNamesFileLineAndColumn) {
  const std::string text = to_json(sample_run()).dump(1);
  const std::string message = error_of(text.substr(0, text.size() / 2));
  EXPECT_THAT(message, HasSubstr("r.json:"));
  EXPECT_THAT(message, HasSubstr("truncated or corrupted JSON"));
  const std::string line = message.substr(7, message.find(':', 7) - 7);
  EXPECT_GT(std::stoi(line), 10);  // a line number deep in the file, not 1
}

TEST(ResultsReader, MalformedJsonPointsAtTheLine) {
  EXPECT_THAT(error_of("{\n  \"schema\": \"openloop.results/1\",\n  \"verdict\": {,\n}"),
              HasSubstr("r.json:3:"));
}

// Found by fuzz/results_reader_fuzz: nlohmann throws out_of_range (not parse_error) for a number beyond a
// double, which escaped parse_results and aborted `openloop report`.
TEST(ResultsReader, NumberBeyondADoubleIsAUsageErrorNotACrash) {
  EXPECT_THAT(error_of("1e400]"),
              HasSubstr("r.json: not a valid results file (corrupted JSON): number overflow"));
  nlohmann::json j = to_json(sample_run());
  j["summary"]["duration_s"] = 123.25;
  std::string text = j.dump(1);
  const std::size_t at = text.find("123.25");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 6, "1e400");  // a whole results file with one number too large for a double
  EXPECT_THAT(error_of(text),
              HasSubstr("r.json: not a valid results file (corrupted JSON): number overflow"));
}

TEST(ResultsReader, ModelIsOneOfTheKnownWords) {
  nlohmann::json j = to_json(sample_run());
  j["model"] = "closed";
  auto closed = results::parse_results(j.dump(), "r.json");
  ASSERT_TRUE(closed) << closed.error().message;
  EXPECT_EQ(closed->info.model, results::Model::closed);
  EXPECT_EQ(to_json(*closed)["model"], "closed");  // written back as the same word
  j["model"] = "semi-open";
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("/model: \"semi-open\" is not a model (expected open, closed, pacing, sessions, mixed or "
                        "unknown)"));
}

TEST(ResultsReader, CorruptedHistogramNamesItsJsonPath) {
  nlohmann::json j = to_json(sample_run());
  j["intervals"][2]["histograms"]["service_time"] = "HISTFAAAAnotbase64!!";
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("r.json: /intervals/2/histograms/service_time: not an HdrHistogram"));
}

TEST(ResultsReader, WrongTypeAndMissingFieldsNameTheirPath) {
  nlohmann::json j = to_json(sample_run());
  j["summary"]["counts"]["sent"] = "many";
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("/summary/counts/sent: expected a non-negative integer, found string"));
  j = to_json(sample_run());
  j["intervals"][1].erase("counts");
  EXPECT_THAT(error_of(j.dump()), HasSubstr("/intervals/1/counts: missing"));
}

// One rule for a count in every file openloop reads (results::JsonReader): a non-negative integer, 3.0
// being 3.
TEST(ResultsReader, ACountIsANonNegativeInteger) {
  nlohmann::json j = to_json(sample_run());
  j["summary"]["counts"]["timeouts"] = -1;
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("r.json: /summary/counts/timeouts: expected a non-negative integer, found -1"));
  j = to_json(sample_run());
  j["intervals"][1]["counts"]["dropped"] = 0.5;
  EXPECT_THAT(error_of(j.dump()),
              HasSubstr("r.json: /intervals/1/counts/dropped: expected a non-negative integer, found 0.5"));
  j = to_json(sample_run());
  j["summary"]["counts"]["intended"] =
      static_cast<double>(j["summary"]["counts"]["intended"].get<std::uint64_t>());
  const auto same = parse_results(j.dump(), "r.json");
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_EQ(same->totals.intended, sample_run().totals.intended);
}

TEST(ResultsReader, CountsThatDoNotBalanceAreRefused) {
  nlohmann::json j = to_json(sample_run());
  j["intervals"][0]["counts"]["completed"] = 2;
  j["intervals"][0]["counts"]["ok"] = 2;
  EXPECT_THAT(error_of(j.dump()), HasSubstr("/intervals/0/counts: intended 3 is not completed + timeouts"));
}

TEST(ResultsReader, IntervalsMustAddUpToTheSummary) {
  nlohmann::json j = to_json(sample_run());
  j["summary"]["counts"]["intended"] = 10;
  j["summary"]["counts"]["completed"] = 6;
  j["summary"]["counts"]["ok"] = 6;
  j["summary"]["counts"]["sent"] = 6;
  EXPECT_THAT(error_of(j.dump()), HasSubstr("/summary/counts: the intervals add up to"));
}

TEST(ResultsReader, OtherSchemasAreRefusedByName) {
  nlohmann::json j = to_json(sample_run());
  j["schema"] = "openloop.results/2";
  EXPECT_THAT(error_of(j.dump()), HasSubstr("/schema: \"openloop.results/2\" is not supported"));
  EXPECT_THAT(error_of("[1, 2]"), HasSubstr("expected a results object, found array"));
}

TEST(ResultsReader, MissingFileIsAUsageErrorNamingIt) {
  auto r = read_results("/nonexistent/dir/r.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_THAT(r.error().message, HasSubstr("/nonexistent/dir/r.json"));
}

}  // namespace
}  // namespace openloop::results
