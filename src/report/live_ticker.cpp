// The live view's display thread and terminal handling.
#include "report/live_ticker.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "core/thread_name.h"

namespace openloop::report {

LiveTicker::LiveTicker(LiveView view, std::FILE* out, bool terminal, Nanos period,
                       const std::atomic<int>* stop,
                       std::function<std::vector<results::LatestObserved>()> observed)
    : m_view(std::move(view)),
      m_out(out),
      m_terminal(terminal),
      m_period(period),
      m_stop(stop),
      m_observed(std::move(observed)),
      m_start(SteadyClock::now()) {
  m_thread = std::thread([this] {
    name_this_thread("openloop-live");
    loop();
  });
}

LiveTicker::~LiveTicker() {
  stop();
}

void LiveTicker::update(const results::RunResults& so_far) {
  std::lock_guard lock(m_mutex);
  const bool was_invalid = m_view.invalid_so_far();
  m_view.update(so_far);
  m_view.set_in_flight(so_far.in_flight_now);
  if (!was_invalid && m_view.invalid_so_far() && !m_told_invalid) {
    m_turned_invalid = m_told_invalid = true;
    m_wake.notify_one();
  }
  // On a terminal the view is redrawn when a second has just been finalized, not on a grid of its own: a grid
  // that runs just ahead of the intervals' ends shows a second that ended almost two seconds ago.
  if (m_terminal) {
    m_fresh = true;
    m_wake.notify_one();
  }
}

void LiveTicker::stop() {
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping) return;
    m_stopping = true;
  }
  m_wake.notify_one();
  m_thread.join();
  if (m_terminal && m_drawn_lines > 0) {
    std::fprintf(m_out, "\033[%zuA\r\033[J", m_drawn_lines);  // back to the first live line, erase to the end
    std::fflush(m_out);
  }
}

void LiveTicker::loop() {
  std::unique_lock lock(m_mutex);
  SteadyTime next = m_start + (m_terminal ? Nanos(0) : m_period);
  // On a terminal an interruption is shown within 100 ms: the wait for in-flight requests that follows can be
  // long, and nothing else says the run is stopping.
  const bool watch_stop = m_terminal && m_stop != nullptr;
  int shown_stop = 0;
  while (!m_stopping) {
    const SteadyTime until =
        watch_stop ? std::min(next, SteadyClock::now() + std::chrono::milliseconds(100)) : next;
    m_wake.wait_until(lock, until, [this] { return m_stopping || m_turned_invalid || m_fresh; });
    if (m_stopping) break;
    const SteadyTime now = SteadyClock::now();
    const int stop_now = watch_stop ? m_stop->load() : 0;
    if (m_fresh) {
      // Fresh results: drawn at once, and the next redraw without news a whole period later (the drain after
      // the schedule ends finalizes nothing, yet its clock still moves).
      m_fresh = false;
      shown_stop = stop_now;
      draw(now - m_start);
      m_turned_invalid = false;
      next = now + m_period + m_period / 2;
    } else if (now >= next || m_turned_invalid || stop_now != shown_stop) {
      shown_stop = stop_now;
      draw(now - m_start);
      m_turned_invalid = false;
      // Stay on the grid of whole periods from the start even if a wake-up ran late.
      while (next <= now) next += m_period;
    }
  }
}

void LiveTicker::draw(Nanos elapsed) {
  if (m_observed) m_view.set_observed(m_observed());
  if (!m_terminal) {
    std::fprintf(m_out, "%s\n", m_view.plain_line(elapsed).c_str());
    std::fflush(m_out);
    return;
  }
  std::string frame;
  if (m_drawn_lines > 0) frame = "\033[" + std::to_string(m_drawn_lines) + "A\r";
  auto lines = m_view.lines(elapsed, terminal_width() - 1);
  const int stopping = m_stop != nullptr ? m_stop->load() : 0;
  if (stopping > 0) {
    lines.push_back(fit_columns(stopping == 1 ? "interrupted: stopping; waiting for in-flight requests "
                                                "(interrupt again to stop now)"
                                              : "interrupted twice: stopping now",
                                terminal_width() - 1));
  }
  for (const auto& line : lines) frame += "\033[2K" + line + "\n";
  std::fputs(frame.c_str(), m_out);
  std::fflush(m_out);
  m_drawn_lines = lines.size();
}

std::size_t LiveTicker::terminal_width() const {
  winsize ws{};
  if (ioctl(fileno(m_out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) return ws.ws_col;
  return 100;
}

}  // namespace openloop::report
