// The dead-target watch over a procedure's runs.
#include "cli/dead_target_runner.h"

namespace openloop::cli {

std::unique_ptr<results::DeadTargetWatch> ProcedureDeadTarget::watch() const {
  if (m_reached || dead()) return nullptr;
  return std::make_unique<results::DeadTargetWatch>(m_where);
}

void ProcedureDeadTarget::after(const results::DeadTargetWatch* w, results::RunResults& r,
                                const std::atomic<int>& stop) {
  if (w != nullptr && w->stopped()) {
    w->mark(r, stop.load());
    m_why = w->why(r);
    return;
  }
  if (!results::never_reached(r, 0)) m_reached = true;
}

bool ProcedureDeadTarget::settle(std::atomic<int>& stop) const {
  if (!dead()) return false;
  int own = 1;
  return stop.compare_exchange_strong(own, 0) || stop.load() == 0;
}

procedures::RunFn watch_dead_target(procedures::RunFn inner, ProcedureDeadTarget& dead) {
  return [inner = std::move(inner), &dead](const engine::RunPlan& plan, std::atomic<int>& stop,
                                           const engine::ProgressFn& progress) -> Result<results::RunResults> {
    const std::unique_ptr<results::DeadTargetWatch> w = dead.watch();
    engine::ProgressFn watched = progress;
    if (w) {
      watched = [&progress, &w, &stop](const results::RunResults& so_far) {
        if (progress) progress(so_far);
        w->stop_if_dead(so_far, stop);
      };
    }
    auto r = OPENLOOP_TRY(inner ? inner(plan, stop, watched) : engine::run(plan, stop, watched));
    dead.after(w.get(), r, stop);
    return r;
  };
}

}  // namespace openloop::cli
