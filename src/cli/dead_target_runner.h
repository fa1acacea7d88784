// A procedure's runs watched for a dead target as `run` is: ramp and probe stop at a target nothing answers at,
// after the first interval of their first run, instead of running every step or phase against it; their files are
// written for what ran and they exit 4 with "nothing listens at HOST:PORT (connection refused)".
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "engine/coordinator.h"
#include "procedures/ramp/ramp_plan.h"
#include "results/judging/dead_target.h"

namespace openloop::cli {

/// The watch over a procedure's runs: each run is watched (results::DeadTargetWatch over its results so far) until
/// one of them has reached the target; after that a target that stops answering is the procedure's finding (steps
/// with errors), not a dead target. Single-threaded: the coordinator's progress callback, then the caller.
class ProcedureDeadTarget {
 public:
  /// `where`: the target as messages name it (target_address()).
  explicit ProcedureDeadTarget(std::string where) : m_where(std::move(where)) {}

  /// A watch for the next run; null once a run has reached the target.
  std::unique_ptr<results::DeadTargetWatch> watch() const;
  /// After a run watched by `w` (null: not watched) ended with `r`. When `w` stopped it: marks `r` (a warning
  /// saying why it ended early, not interrupted) and remembers why (dead()); `stop` is left raised so the procedure
  /// ends as it does for a signal, and the command takes it back (settle()). Else records whether it reached the
  /// target.
  void after(const results::DeadTargetWatch* w, results::RunResults& r, const std::atomic<int>& stop);
  /// True when a watch stopped a run: the procedure ended there.
  bool dead() const { return !m_why.empty(); }
  /// "nothing listens at HOST:PORT (connection refused)" (or "HOST:PORT could not be reached (...)"); empty
  /// unless dead().
  const std::string& why() const { return m_why; }
  /// After the procedure: when dead(), takes `stop` back 1 → 0 (a signal's higher value is kept) and returns true
  /// when no signal came, so the procedure's outcome is not an interruption.
  bool settle(std::atomic<int>& stop) const;

 private:
  std::string m_where, m_why;
  bool m_reached = false;
};

/// `inner` (empty: engine::run) with every run watched by `dead` (which must outlive the runner): ramp's runs.
procedures::RunFn watch_dead_target(procedures::RunFn inner, ProcedureDeadTarget& dead);

}  // namespace openloop::cli
