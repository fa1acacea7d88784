// IntervalSeries: intervals parked whole in a spill file read back exactly as they were, and a read-back
// failure is recorded so that outputs rendered from it are refused.
#include "results/recording/interval_series.h"

#include <cmath>

#include <unistd.h>

#include <gtest/gtest.h>

using namespace openloop::results;

namespace {

// An interval with every field set, from `k`, so that any field lost or swapped in the record shows.
IntervalResult sample_interval(std::size_t k) {
  const auto n = static_cast<std::uint64_t>(k);
  IntervalResult r;
  r.start_s = static_cast<double>(k);
  r.length_s = 1;
  r.counters.intended = 100 + n;
  r.counters.sent = 99 + n;
  r.counters.completed = 98 + n;
  r.counters.ok = 97 + n;
  r.counters.timeouts = 1;
  r.counters.error(ErrorKind::reset) = 1;
  r.counters.status_class[2] = 97 + n;
  r.counters.status_class[5] = 1;
  r.counters.bytes_in = 12345 * n;
  r.counters.retries = n % 3;
  r.response_time = {1000 + static_cast<std::int64_t>(k), 2000, 3000, 4000, 5000, 6000, 1500.5, 98};
  r.service_time = {900, 1900, 2900, 3900, 4900, 5900, 1400.25, 98};
  r.send_lateness = {10, 20, 30, 40, 50, 60, 12.5, 99};
  r.attempt_time = {800, 1800, 2800, 3800, 4800, 5800, 1300.125, 100};
  r.session_time = {7, 8, 9, 10, 11, 12, 9.5, 3};
  r.server_time = {1, 2, 3, 4, 5, 6, 3.5, 4};
  r.outside_server = {6, 5, 4, 3, 2, 1, 3.25, 4};
  r.response_time_hist = "HISTFAAAAResponse" + std::to_string(k);
  r.service_time_hist = std::string("HISTFAAAAService");
  r.send_lateness_hist = std::string("HISTFAAAALateness");
  r.attempt_time_hist = std::string("HISTFAAAAAttempt");
  r.session_time_hist = std::string(k % 2 == 0 ? "" : "HISTFAAAASession");
  r.server_time_hist = std::string("HISTFAAAAServer");
  r.outside_server_hist = std::string("HISTFAAAAOutside");
  r.flows.iterations = n;
  r.flows.sessions_failed = 2;
  r.by_request = {r.counters, Counters{}};
  r.by_request[1].intended = 7;
  r.server_timing_negative = 1;
  r.server_timing_malformed = 2;
  r.server_timing_no_duration = 3;
  r.observed = {0.5, std::nan(""), 2.0 * static_cast<double>(k)};
  r.coalesce_us = 25;
  return r;
}

std::shared_ptr<SpillFile> spill() {
  auto file = SpillFile::open();
  EXPECT_TRUE(file) << file.error().message;
  return file ? *file : nullptr;
}

}  // namespace

TEST(IntervalSeries, ParkedIntervalsReadBackEqualToWhatWasParked) {
  IntervalSeries parked, kept;
  const auto file = spill();
  for (std::size_t k = 0; k < 40; ++k) {
    parked.push_back(sample_interval(k));
    kept.push_back(sample_interval(k));
    ASSERT_TRUE(parked.park(file, 3));
  }
  ASSERT_EQ(parked.size(), 40u);
  EXPECT_EQ(parked.parked(), 37u);
  for (std::size_t k = 0; k < 40; ++k) {
    const IntervalResult a = parked[k], b = kept[k];
    // The record holds every field: compared field by field through a second encoding, and spot-checked.
    EXPECT_EQ(encode_interval(a), encode_interval(b)) << k;
    EXPECT_EQ(a.counters.intended, 100 + k);
    EXPECT_EQ(a.response_time_hist.text(), "HISTFAAAAResponse" + std::to_string(k));
    EXPECT_EQ(a.session_time_hist.empty(), k % 2 == 0);
    EXPECT_EQ(a.by_request.size(), 2u);
    EXPECT_EQ(a.by_request[1].intended, 7u);
    ASSERT_EQ(a.observed.size(), 3u);
    EXPECT_TRUE(std::isnan(a.observed[1]));
    EXPECT_EQ(a.observed[2], 2.0 * static_cast<double>(k));
    EXPECT_EQ(a.response_time.mean, 1500.5);
  }
  std::size_t visited = 0;
  for (const auto& i : parked) EXPECT_EQ(i.start_s, static_cast<double>(visited++));
  EXPECT_EQ(visited, 40u);
  EXPECT_DOUBLE_EQ(parked.total_length_s(), 40.0);
  EXPECT_EQ(file->failed(), "");
}

TEST(IntervalSeries, ReplacingAParkedIntervalLeavesACopyOfTheSeriesUnchanged) {
  IntervalSeries s;
  const auto file = spill();
  for (std::size_t k = 0; k < 10; ++k) s.push_back(sample_interval(k));
  ASSERT_TRUE(s.park(file, 2));
  const IntervalSeries before = s;
  ASSERT_TRUE(s.update(4, [](IntervalResult& r) {
    r.length_s = 0.25;
    r.observed = {1.0};
  }));
  ASSERT_TRUE(s.update(9, [](IntervalResult& r) { r.length_s = 0.5; }));  // a resident one
  EXPECT_EQ(s[4].length_s, 0.25);
  EXPECT_EQ(s[4].observed, std::vector<double>{1.0});
  EXPECT_EQ(s[4].response_time_hist.text(), "HISTFAAAAResponse4");
  EXPECT_EQ(s[9].length_s, 0.5);
  EXPECT_DOUBLE_EQ(s.total_length_s(), 8.75);
  EXPECT_EQ(before[4].length_s, 1.0);
  EXPECT_EQ(before[4].observed.size(), 3u);
  EXPECT_DOUBLE_EQ(before.total_length_s(), 10.0);
}

TEST(IntervalSeries, ARecordThatCannotBeReadBackIsRecordedAsAFailure) {
  // A spill file cut short under the series (as a full or failing disk would leave it): at() says so, and
  // operator[] notes it on the file, so the pipeline refuses any output rendered meanwhile (RunPipeline
  // test), and the interval reads as empty.
  IntervalSeries s;
  const auto file = spill();
  for (std::size_t k = 0; k < 5; ++k) s.push_back(sample_interval(k));
  ASSERT_TRUE(s.park(file, 1));
  const ReadBackCheck check({file});
  EXPECT_EQ(s[0].counters.intended, 100u);
  EXPECT_TRUE(check.since());
  EXPECT_EQ(file->failures(), 0u);
  // The spill is the newest unlinked file open (the highest such descriptor); truncating it through
  // /proc/self/fd cuts every record.
  std::string fd_path;
  for (int fd = 3; fd < 1024; ++fd) {
    char target[256] = {};
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    if (n > 0 && std::string(target).find("(deleted)") != std::string::npos) fd_path = link;
  }
  ASSERT_FALSE(fd_path.empty()) << "the spill file's descriptor was not found";
  ASSERT_EQ(::truncate(fd_path.c_str(), 10), 0);
  const auto failed = s.at(2);
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("cannot read back the interval spill file"), std::string::npos)
      << failed.error().message;
  EXPECT_EQ(failed.error().code, openloop::ExitCode::runtime);
  EXPECT_TRUE(check.since());  // at() reports through its Result and notes nothing
  const IntervalResult lost = s[2];
  EXPECT_EQ(lost.counters.intended, 0u);
  EXPECT_EQ(file->failures(), 1u);
  const auto since = check.since();
  ASSERT_FALSE(since);
  EXPECT_EQ(since.error().message, failed.error().message);
  EXPECT_TRUE(ReadBackCheck({file}).since());  // a check made after the failure: none since
  EXPECT_EQ(s[4].counters.intended, 104u);  // the resident one is unaffected
}

TEST(IntervalSeries, ARecordThatDoesNotDecodeIsRefused) {
  std::string bytes = encode_interval(sample_interval(1));
  EXPECT_TRUE(decode_interval(bytes));
  EXPECT_FALSE(decode_interval(std::string_view(bytes).substr(0, bytes.size() - 1)));
  EXPECT_FALSE(decode_interval(bytes + "x"));
  bytes[0] = 'X';
  EXPECT_FALSE(decode_interval(bytes));
  EXPECT_FALSE(decode_interval(""));
}
