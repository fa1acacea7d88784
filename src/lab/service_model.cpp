// The service model's event handling: admission, dispatch, worker phases, dependency pool and stalls.
#include "lab/service_model.h"

#include <algorithm>

namespace openloop::lab {

ServiceModel::ServiceModel(ModelConfig config, net::TimerQueue& timers, ModelSink& sink, SteadyTime start)
    : m_config(std::move(config)),
      m_timers(timers),
      m_sink(sink),
      m_start(start),
      m_stall_origin(start),
      m_rng(m_config.seed, 0x1ab),
      m_cache(m_config.cache) {
  set_workers(m_config.workers);
  schedule_next_stall(start);
}

void ServiceModel::submit(SteadyTime now, const Arrival& arrival) {
  roll(now);
  m_stats.count(&ModelCounters::arrivals);
  const Job job{arrival, now};
  if (m_frozen) {
    // A stalled process reads nothing: the request waits, unseen, until the stall ends.
    m_held.push_back(job);
    return;
  }
  admit(job, now);
  dispatch(now);
}

void ServiceModel::admit(const Job& job, SteadyTime now) {
  const std::size_t depth = m_queue.size();
  if (m_config.shed_at > 0 && depth >= m_config.shed_at) return finish(job, Outcome::shed, now);
  if (m_config.queue_limit > 0 && depth >= m_config.queue_limit) return finish(job, Outcome::rejected, now);
  m_queue.push_back(job);
  m_stats.note_queue_depth(m_queue.size());
}

void ServiceModel::dispatch(SteadyTime now) {
  Job job;
  while (!m_frozen && !m_idle.empty() && take_job(job, now)) {
    const std::uint32_t w = m_idle.back();
    m_idle.pop_back();
    begin_service(w, job, std::max(now, job.arrived));
  }
}

bool ServiceModel::take_job(Job& out, SteadyTime now) {
  while (!m_queue.empty()) {
    out = m_config.queue == QueueDiscipline::fifo ? m_queue.pop_front() : m_queue.pop_back();
    const SteadyTime t = std::max(now, out.arrived);
    if (m_config.cancel && !m_sink.still_wanted(out.arrival.tag)) {
      finish(out, Outcome::cancelled, t);
    } else if (t >= out.arrival.deadline) {
      finish(out, Outcome::expired, t);  // nobody waits for it any more: no work is done
    } else {
      return true;
    }
  }
  return false;
}

void ServiceModel::begin_service(std::uint32_t w, const Job& job, SteadyTime t) {
  Worker& wk = m_workers[w];
  wk.phase = Phase::service;
  wk.job = job;
  wk.service_start = t;
  ++m_busy;
  Nanos d{0};
  if (m_config.cache > 0) {
    const bool hit = m_cache.access(job.arrival.key);
    m_stats.count(hit ? &ModelCounters::cache_hits : &ModelCounters::cache_misses);
    wk.cache = hit ? CacheLookup::hit : CacheLookup::miss;
    d = (hit ? m_config.hit : m_config.miss).sample(m_rng);
  } else {
    d = m_config.service.sample(m_rng);
  }
  if (m_config.burn && d > Nanos(0)) m_sink.burn(d);
  wk.phase_end = t + d;
  // Zero-length (or already burnt) service ends now, without a timer round trip.
  if (d == Nanos(0) || m_config.burn) return end_service(w, wk.phase_end);
  schedule_worker(w);
}

void ServiceModel::end_service(std::uint32_t w, SteadyTime t) {
  if (!m_config.dependency) return complete(w, t);
  if (pool_available()) return begin_dependency(w, t);
  m_workers[w].phase = Phase::dependency_wait;
  m_pool_waiters.push_back(w);
}

bool ServiceModel::pool_available() const {
  return m_config.dependency_pool == 0 || m_pool_in_use < m_config.dependency_pool;
}

void ServiceModel::begin_dependency(std::uint32_t w, SteadyTime t) {
  Worker& wk = m_workers[w];
  wk.phase = Phase::dependency;
  ++m_pool_in_use;
  const Nanos d = m_config.dependency ? m_config.dependency->sample(m_rng) : Nanos(0);
  wk.phase_end = t + d;
  if (d == Nanos(0)) return end_dependency(w, t);
  schedule_worker(w);
}

void ServiceModel::end_dependency(std::uint32_t w, SteadyTime t) {
  --m_pool_in_use;
  complete(w, t);
  release_pool(t);
}

void ServiceModel::release_pool(SteadyTime t) {
  while (!m_pool_waiters.empty() && pool_available()) begin_dependency(m_pool_waiters.pop_front(), t);
  // Waiters left after the dependency was switched off go straight on.
  while (!m_config.dependency && !m_pool_waiters.empty()) complete(m_pool_waiters.pop_front(), t);
}

void ServiceModel::complete(std::uint32_t w, SteadyTime t) {
  Worker& wk = m_workers[w];
  const bool failed = m_config.error_rate > 0 && m_rng.uniform01() < m_config.error_rate;
  wk.phase = Phase::idle;
  ++wk.generation;
  --m_busy;
  // Workers beyond a reduced --workers retire here instead of taking more work.
  if (w < m_config.workers) m_idle.push_back(w);
  finish(wk.job, failed ? Outcome::error : Outcome::ok, t, wk.service_start, wk.cache);
  wk.cache = CacheLookup::not_looked_up;
}

void ServiceModel::finish(const Job& job, Outcome outcome, SteadyTime t, SteadyTime service_start,
                          CacheLookup cache) {
  roll(t);
  switch (outcome) {
    case Outcome::ok:
      m_stats.count(&ModelCounters::ok);
      break;
    case Outcome::error:
      m_stats.count(&ModelCounters::errors);
      break;
    case Outcome::shed:
      m_stats.count(&ModelCounters::shed);
      break;
    case Outcome::rejected:
      m_stats.count(&ModelCounters::rejected);
      break;
    case Outcome::expired:
      m_stats.count(&ModelCounters::expired);
      break;
    case Outcome::cancelled:
      m_stats.count(&ModelCounters::cancelled);
      break;
  }
  const bool served = service_start != SteadyTime::max();
  const SteadyTime queue_end = served ? service_start : t;
  m_sink.on_timing(job.arrival.tag, std::max(Nanos(0), queue_end - job.arrived),
                   served ? std::max(Nanos(0), t - service_start) : Nanos(0),
                   m_config.cache == 0 ? CacheLookup::no_cache : cache);
  m_sink.on_outcome(job.arrival.tag, outcome, t);
}

void ServiceModel::schedule_worker(std::uint32_t w) {
  Worker& wk = m_workers[w];
  m_timers.schedule(wk.phase_end, this, cookie(TimerKind::worker, w, wk.generation));
}

void ServiceModel::on_timer(std::uint64_t c) {
  const auto kind = static_cast<TimerKind>(c >> 62);
  const auto index = static_cast<std::uint32_t>((c >> 32) & 0x3fffffff);
  const auto generation = static_cast<std::uint32_t>(c & 0xffffffff);
  switch (kind) {
    case TimerKind::worker:
      return on_worker_timer(index, generation);
    case TimerKind::stall_begin:
      if (generation == m_stall_generation && !m_frozen) begin_stall(m_next_stall);
      return;
    case TimerKind::stall_end:
      if (generation == m_stall_generation && m_frozen) end_stall(m_frozen_until);
      return;
  }
}

void ServiceModel::on_worker_timer(std::uint32_t w, std::uint32_t generation) {
  Worker& wk = m_workers[w];
  // Stale (the phase was rescheduled by a stall) or frozen (end_stall reschedules it).
  if (generation != wk.generation || m_frozen) return;
  const SteadyTime t = wk.phase_end;
  ++wk.generation;
  if (wk.phase == Phase::service) {
    end_service(w, t);
  } else if (wk.phase == Phase::dependency) {
    end_dependency(w, t);
  }
  dispatch(t);
}

void ServiceModel::set_workers(std::uint32_t count) {
  if (m_workers.size() < count) m_workers.resize(count);
  m_idle.clear();
  // Highest index first so that the stack hands out worker 0 first (tests read more easily).
  for (std::uint32_t w = count; w-- > 0;) {
    if (m_workers[w].phase == Phase::idle) m_idle.push_back(w);
  }
}

void ServiceModel::configure(const ModelConfig& config, SteadyTime now) {
  roll(now);
  const bool stalls_changed = !(config.stalls == m_config.stalls);
  const std::uint64_t seed = m_config.seed;
  m_config = config;
  m_config.seed = seed;
  m_cache.set_capacity(m_config.cache);
  set_workers(m_config.workers);
  if (stalls_changed) {
    ++m_stall_generation;  // pending stall timers are now stale
    if (m_frozen) {
      end_stall(now);  // re-applies the new schedule at its end
    } else {
      schedule_next_stall(now);
    }
  }
  release_pool(now);
  dispatch(now);
}

void ServiceModel::restart(SteadyTime now) {
  roll(now);
  m_cache.clear();
  m_stall_origin = now;
  ++m_stall_generation;  // pending stall timers are now stale
  if (m_frozen) {
    end_stall(now);  // schedules the next stall from the new origin
  } else {
    schedule_next_stall(now);
  }
}

ModelSnapshot ServiceModel::snapshot(SteadyTime now) {
  roll(now);
  ModelSnapshot s;
  s.uptime = now - m_start;
  s.frozen = m_frozen;
  s.queue_depth = m_queue.size();
  s.held = m_held.size();
  s.busy_workers = m_busy;
  s.dependency_in_use = m_pool_in_use;
  s.dependency_waiting = m_pool_waiters.size();
  s.cache_size = m_cache.size();
  s.totals = m_stats.totals();
  s.history = m_stats.history();
  return s;
}

void ServiceModel::schedule_next_stall(SteadyTime now) {
  if (m_config.stalls.empty()) return;
  const Nanos rel = now - m_stall_origin;
  if (!m_frozen && m_config.stalls.stall_at(rel)) return begin_stall(now);
  const auto next = m_config.stalls.next_start_after(rel);
  if (!next) return;
  m_next_stall = m_stall_origin + *next;
  m_timers.schedule(m_next_stall, this, cookie(TimerKind::stall_begin, 0, m_stall_generation));
}

void ServiceModel::begin_stall(SteadyTime t) {
  const auto window = m_config.stalls.stall_at(t - m_stall_origin);
  if (!window) return schedule_next_stall(t);
  roll(t);
  m_frozen = true;
  m_frozen_since = t;
  m_frozen_until = m_stall_origin + window->end;
  m_timers.schedule(m_frozen_until, this, cookie(TimerKind::stall_end, 0, m_stall_generation));
}

void ServiceModel::end_stall(SteadyTime t) {
  roll(t);
  m_frozen = false;
  const Nanos length = t - m_frozen_since;
  for (std::uint32_t w = 0; w < m_workers.size(); ++w) {
    Worker& wk = m_workers[w];
    if (wk.phase == Phase::service) {
      wk.phase_end += length;  // CPU work was paused with the process
    } else if (wk.phase == Phase::dependency) {
      wk.phase_end = std::max(wk.phase_end, t);  // the dependency kept going; its answer is read now
    } else {
      continue;
    }
    ++wk.generation;
    schedule_worker(w);
  }
  while (!m_held.empty()) admit(m_held.pop_front(), t);
  dispatch(t);
  schedule_next_stall(t);
}

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::ok:
      return "ok";
    case Outcome::error:
      return "error";
    case Outcome::shed:
      return "shed";
    case Outcome::rejected:
      return "rejected";
    case Outcome::expired:
      return "expired";
    case Outcome::cancelled:
      return "cancelled";
  }
  return "?";
}

}  // namespace openloop::lab
