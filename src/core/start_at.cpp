// Parsing RFC 3339 start times, the kernel's wall-clock error bound, and the wait for a common start.
#include "core/start_at.h"

#include <cctype>
#include <csignal>
#include <ctime>

#include <fmt/format.h>
#include <pthread.h>
#include <sys/timex.h>

#include "core/units.h"

namespace openloop {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

// Reads `n` digits at `pos`; -1 when they are not all digits.
int digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (std::isdigit(static_cast<unsigned char>(s[i])) == 0) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

constexpr std::int64_t k_max_seconds = 9'200'000'000;

}  // namespace

Result<WallTime> parse_rfc3339(std::string_view text, std::string_view flag) {
  const auto bad = [&](std::string_view why) {
    return usage_error(
        fmt::format("{}: '{}' {}; expected an RFC 3339 time such as 2026-12-01T10:00:00Z or "
                    "2026-12-01T11:00:00.5+01:00",
                    flag, text, why));
  };
  const int year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  const int hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || text[4] != '-' ||
      text[7] != '-' || (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || text[13] != ':' ||
      text[16] != ':') {
    return bad("is not YYYY-MM-DDTHH:MM:SS followed by Z or an offset");
  }
  static const int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > k_days[month - 1] + (month == 2 && leap(year) ? 1 : 0) ||
      hour > 23 || minute > 59 || second > 59) {
    return bad("is not a valid date and time");
  }
  std::size_t pos = 19;
  std::int64_t nanos = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    std::int64_t scale = 100'000'000;
    const std::size_t first = pos;
    for (; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0; ++pos) {
      nanos += (text[pos] - '0') * scale;
      scale /= 10;
    }
    if (pos == first) return bad("has a '.' without fractional digits");
  }
  std::int64_t offset_s = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int oh = digits(text, pos + 1, 2), om = digits(text, pos + 4, 2);
    if (oh < 0 || om < 0 || text[pos + 3] != ':' || oh > 23 || om > 59) return bad("has a bad offset");
    offset_s = (text[pos] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    pos += 6;
  } else {
    return bad("has no time zone (Z or ±HH:MM)");
  }
  if (pos != text.size()) return bad("has text after the time");
  const std::int64_t seconds =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 + hour * 3600 +
      minute * 60 + second - offset_s;
  // Nanoseconds since 1970 in 64 bits reach 1677-09-21 to 2262-04-11: a time beyond would overflow.
  if (seconds > k_max_seconds || seconds < -k_max_seconds)
    return bad("is beyond what a nanosecond clock holds (from mid-1678 to mid-2261)");
  return WallTime(
      std::chrono::duration_cast<WallTime::duration>(std::chrono::seconds(seconds) + Nanos(nanos)));
}

std::string format_rfc3339(WallTime t) {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(us >= 0 ? us / 1'000'000 : (us - 999'999) / 1'000'000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     us - static_cast<std::int64_t>(secs) * 1'000'000);
}

double unix_seconds(WallTime t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

ClockBound wall_clock_bound() {
  timex tx{};
  tx.modes = 0;  // read only
  const int state = adjtimex(&tx);
  ClockBound b;
  if (state < 0) return b;
  b.known = true;
  b.synchronized = state != TIME_ERROR;
  b.maxerror_s = static_cast<double>(tx.maxerror) * 1e-6;  // microseconds
  b.esterror_s = static_cast<double>(tx.esterror) * 1e-6;
  return b;
}

Result<Nanos> wait_for_start(const StartPlan& plan, const WallClock& clock, const InterruptibleSleep& sleep) {
  const WallTime wake = plan.at - std::chrono::duration_cast<WallTime::duration>(plan.lead);
  const Nanos ahead = std::chrono::duration_cast<Nanos>(wake - clock.now());
  if (ahead > plan.max_wait) {
    return usage_error(
        fmt::format("--start-at: {} is {} ahead, more than the {} a run waits; give a closer time",
                    format_rfc3339(plan.at), format_duration(ahead), format_duration(plan.max_wait)));
  }
  // One sleep; another only when the wall clock was stepped while sleeping (the sleep runs on the monotonic
  // clock), so the count is bounded and nothing spins.
  for (int round = 0; round < 8; ++round) {
    const Nanos left = std::chrono::duration_cast<Nanos>(wake - clock.now());
    if (left <= Nanos(0)) break;
    if (!sleep(left)) {
      return tl::unexpected(Error{ExitCode::interrupted,
                                  fmt::format("interrupted while waiting for --start-at {}; nothing was sent",
                                              format_rfc3339(plan.at))});
    }
  }
  // Late against the start itself: the lead is time to prepare, not part of the lateness allowed.
  const Nanos late = std::chrono::duration_cast<Nanos>(clock.now() - plan.at);
  if (late > plan.max_late) {
    return tl::unexpected(Error{
        ExitCode::late_start,
        fmt::format("started {} after --start-at {} (--max-late {}): this shard would run out of phase "
                    "with the others, so nothing was sent (exit 75); start it earlier, or raise --max-late",
                    format_duration(late), format_rfc3339(plan.at), format_duration(plan.max_late))});
  }
  return late;
}

bool sleep_unless_signalled(Nanos d) {
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(d);
  const timespec ts{static_cast<time_t>(secs.count()), static_cast<long>((d - secs).count())};
  // EAGAIN: the time passed; EINTR (another signal): also true, the caller measures what is left and waits
  // again.
  const int got = sigtimedwait(&set, nullptr, &ts);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return got < 0;
}

}  // namespace openloop
