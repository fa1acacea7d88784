// The live view's display thread: on a terminal a newly finalized second is drawn when it arrives, not on a
// grid of the ticker's own that can run up to a period behind it.
#include "report/live_ticker.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "results/results_test_util.h"

namespace openloop::report {
namespace {

using namespace std::chrono_literals;

// What the ticker has written to `f`, read with pread(2) on its descriptor: the test thread never touches the
// stream itself. Reading through the ticker's FILE (rewind, fread, fseek) while its thread writes to it moved the
// position under the writer, which then wrote where the reader stood, or into a buffer in read mode: a frame could
// land mid-file or be lost (a second "not drawn within 10 s" under ASan beside other tests). The ticker flushes
// each frame, so the file holds every frame drawn.
std::string contents(std::FILE* f) {
  const int fd = fileno(f);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(out.size()))) > 0;)
    out.append(buf, static_cast<std::size_t>(n));
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
