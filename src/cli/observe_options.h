// --observe SPEC (run, ramp, probe; `observe:` in a scenario file): the option and the sampler around a run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "observe/observer.h"
#include "results/run_results.h"

namespace openloop::cli {

/// Registers --observe (repeatable) on `sub`, into `specs`.
void add_observe_option(CLI::App& sub, std::vector<std::string>& specs);

/// The observer of `specs` (null when there are none); `target` is the run's target URL (for `lab`).
/// Errors (usage, exit 2): a SPEC not understood, naming it and the accepted forms.
Result<std::unique_ptr<observe::Observer>> make_observer(const std::vector<std::string>& specs,
                                                         const std::string& target);

/// Samples while `body` runs: starts `observer` (if any), runs `body`, stops it. The signals are attached
/// afterwards by the caller (Observer::attach), once the runs' wall-clock starts are known.
template <class Body>
auto observed(observe::Observer* observer, Body&& body) {
  if (observer != nullptr) observer->start();
  auto out = body();
  if (observer != nullptr) observer->stop();
  return out;
}

}  // namespace openloop::cli
