// The live view's display thread: on a terminal a newly finalized second is drawn when it arrives, not on a
// grid of the ticker's own that can run up to a period behind it.
#include "report/live_ticker.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "results/results_test_util.h"

namespace openloop::report {
namespace {

using namespace std::chrono_literals;

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::string out;
  std::rewind(f);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  std::fseek(f, 0, SEEK_END);
  return out;
}

// Waits (bounded) until the ticker has written `text`; polls the file the ticker writes, the one thing the
// test can observe.
bool written_within(std::FILE* f, const std::string& text, Nanos limit) {
  const auto until = SteadyClock::now() + limit;
  while (SteadyClock::now() < until) {
    if (contents(f).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(5ms);
  }
  return contents(f).find(text) != std::string::npos;
}

TEST(LiveTicker, OnATerminalAFinalizedSecondIsDrawnAtOnce) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    // A period of an hour: anything drawn after the first frame was drawn because update() brought news.
    LiveTicker ticker(LiveView({0s, 30s, true, ""}), out, true, std::chrono::hours(1));
    ASSERT_TRUE(written_within(out, "waiting for the first second", 10s)) << contents(out);
    ticker.update(test::make_run({{1000, 2000}, {3'000'000, 4'000'000}}, 1.0));
    EXPECT_TRUE(written_within(out, "1–2s: offered", 10s)) << contents(out);
    ticker.update(test::make_run({{1000, 2000}, {3'000'000, 4'000'000}, {1000, 2000}}, 1.0));
    EXPECT_TRUE(written_within(out, "2–3s: offered", 10s)) << contents(out);
  }
  std::fclose(out);
}

TEST(LiveTicker, PlainLinesStayOnTheirPeriod) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    LiveTicker ticker(LiveView({0s, 30s, true, ""}), out, false, std::chrono::hours(1));
    ticker.update(test::make_run({{1000, 2000}}, 1.0));
    ticker.stop();
  }
  // A log gets a line a period (10 s in a run), not one per second: nothing was due within the hour.
  EXPECT_EQ(contents(out), "");
  std::fclose(out);
}

}  // namespace
}  // namespace openloop::report
