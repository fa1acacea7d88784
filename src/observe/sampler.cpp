// The sampling thread: open, sample on a fixed grid of absolute times, record its own CPU.
#include "observe/sampler.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/thread_cpu.h"
#include "core/thread_name.h"

namespace openloop::observe {
namespace {

double thread_cpu_s() { return to_seconds(thread_cpu_time()); }

// A source's message without the "SPEC: " it may begin with (the warning names the SPEC once).
std::string without_prefix(const std::string& message, const std::string& spec) {
  const std::string prefix = spec + ": ";
  return message.starts_with(prefix) ? message.substr(prefix.size()) : message;
}

}  // namespace

Sampler::Sampler(std::vector<std::unique_ptr<Source>> sources, std::chrono::milliseconds period)
    : m_period(period) {
  for (auto& s : sources) {
    Slot slot;
    slot.source = std::move(s);
    m_slots.push_back(std::move(slot));
  }
  m_index.resize(m_slots.size());
  m_stats.period_s = std::chrono::duration<double>(period).count();
}

Sampler::~Sampler() {
  stop();
}

std::vector<std::string> Sampler::specs() const {
  std::vector<std::string> out;
  for (const auto& s : m_slots) out.push_back(s.source->spec());
  return out;
}

void Sampler::open_all() {
  for (auto& slot : m_slots) {
    if (slot.opened) continue;
    slot.opened = true;
    if (auto opened = slot.source->open(); !opened) {
      slot.enabled = false;
      slot.open_failure = opened.error().message;
    }
  }
}

void Sampler::sample_slot(Slot& slot, double unix_s, std::vector<Reading>& scratch) {
  scratch.clear();
  const std::size_t k = static_cast<std::size_t>(&slot - m_slots.data());
  ++slot.samples;
  if (auto done = slot.source->sample(scratch); !done) {
    ++slot.failures;
    if (slot.first_failure.empty()) slot.first_failure = done.error().message;
    if (slot.source->gone()) {
      slot.enabled = false;
      slot.went_away = true;
    }
    return;
  }
  auto& index = m_index[k];
  std::lock_guard lock(m_series_mutex);
  for (auto& r : scratch) {
    if (r.meta == nullptr) continue;
    auto it = std::find_if(index.begin(), index.end(), [&r](const auto& e) { return e.first == r.name; });
    std::size_t at = 0;
    if (it == index.end()) {
      at = m_series.size();
      Series s;
      s.source = slot.source->spec();
      s.name = r.name;
      s.meta = *r.meta;
      s.period_s = std::chrono::duration<double>(slot.source->period()).count();
      m_series.push_back(std::move(s));
      index.emplace_back(r.name, at);
    } else {
      at = it->second;
    }
    m_series[at].points.emplace_back(unix_s, r.value);
  }
}

void Sampler::sample_once(double unix_s) {
  std::vector<Reading> scratch;
  for (auto& slot : m_slots) {
    if (slot.enabled) sample_slot(slot, unix_s, scratch);
  }
  ++m_stats.samples;
}

void Sampler::start() {
  if (m_thread.joinable() || m_slots.empty()) return;
  m_stop = false;  // a probe's repeats start the same sampler again; readings accumulate
  m_thread = std::thread([this] {
    name_this_thread("openloop-sample");
    loop();
  });
}

void Sampler::stop() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
}

void Sampler::loop() {
  // nice 19, not SCHED_IDLE (core/thread_priority.h): its rounds are short (under 1 % of a core), and under
  // SCHED_IDLE any waking thread on the machine preempts it, so on a busy machine it missed samples of its
  // grid (e2e.observe.usage once counted 37 of 38).
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
  const double cpu0 = thread_cpu_s();
  const auto steady0 = std::chrono::steady_clock::now();
  const double unix0 =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  open_all();
  std::vector<Reading> scratch;
  auto due = steady0;
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    const double unix_s = unix0 + std::chrono::duration<double>(now - steady0).count();
    for (auto& slot : m_slots) {
      if (!slot.enabled || now < slot.next_due) continue;
      slot.next_due = now + slot.source->period() - m_period / 2;
      sample_slot(slot, unix_s, scratch);
    }
    ++m_stats.samples;
    // Absolute times on a fixed grid: a slow round does not shift the later ones.
    due += m_period;
    while (due <= std::chrono::steady_clock::now()) due += m_period;
    std::unique_lock lock(m_mutex);
    if (m_wake.wait_until(lock, due, [this] { return m_stop; })) break;
  }
  m_stats.cpu_s += thread_cpu_s() - cpu0;
  m_stats.wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - steady0).count();
}

std::vector<results::LatestObserved> Sampler::latest(std::chrono::milliseconds window) const {
  const double w = std::chrono::duration<double>(window).count();
  std::vector<results::LatestObserved> out;
  std::lock_guard lock(m_series_mutex);
  for (const Series& s : m_series) {
    const bool self = s.source == "self";
    const bool main = self ? s.name == "cpu"
                           : s.name == "cpu_of_allowed" || s.name == "runq_wait" || s.name == "cpu_busy" ||
                                 s.name == "cpu_of_max";
    if (!main || s.points.empty()) continue;
    const double t = s.points.back().first;
    double v = s.points.back().second;
    if (s.meta.kind == Kind::counter) {
      if (s.points.front().first > t - w) continue;
      v = counter_rate(s, t - w, t);
    } else if (s.meta.kind != Kind::gauge) {
      continue;
    }
    if (std::isfinite(v)) out.push_back({s.source, s.name, s.meta.label, s.meta.unit, v});
  }
  return out;
}

std::vector<std::string> Sampler::warnings() const {
  std::vector<std::string> out;
  for (const auto& slot : m_slots) {
    const std::string& spec = slot.source->spec();
    if (!slot.open_failure.empty()) {
      out.push_back(fmt::format("--observe {}: {}", spec, without_prefix(slot.open_failure, spec)));
    } else if (slot.went_away) {
      out.push_back(fmt::format("--observe {}: {}", spec, without_prefix(slot.first_failure, spec)));
    } else if (slot.failures > 0) {
      out.push_back(
          fmt::format("--observe {}: {} of {} samples failed (those intervals have no value); the "
                      "first: {}",
                      spec, slot.failures, slot.samples, slot.first_failure));
    }
  }
  return out;
}

}  // namespace openloop::observe
