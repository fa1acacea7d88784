// The sequence every command that sends load follows (run, a scenario file's run, ramp, probe), written once:
// output paths checked → signal watcher → the run(s) → summary on stdout → output files → exit code.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/run_options.h"
#include "cli/signal_watcher.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "engine/request_log.h"
#include "engine/run_plan.h"
#include "results/recording/encoded_histogram.h"
#include "results/run_results.h"

namespace openloop::observe {
class Observer;
}  // namespace openloop::observe
namespace openloop::results {
class SloAbort;
class UntilWatcher;
}  // namespace openloop::results
namespace openloop::report {
class MetricsServer;
}  // namespace openloop::report

namespace openloop::cli {

using report::MetricsServer;

/// One output file a command writes after its run: the flag that asked for it, its path (empty: not asked
/// for) and how to render it from the command's outcome.
template <class Outcome>
struct OutputFile {
  const char* flag = "";
  std::string path;
  std::function<Result<std::string>(const Outcome&)> render;
  /// Instead of `render`: writes the file piece by piece (an output as long as the run, e.g. --json), so it
  /// is never held whole in memory.
  std::function<Result<void>(const Outcome&, const WriteSink&)> write{};
};

/// What a command plugs into the pipeline. `Outcome` is what its run produces (RunResults, a ramp's outcome,
/// a probe's report).
template <class Outcome>
struct Pipeline {
  std::string command;  ///< "openloop run", prefixed to every message
  std::vector<OutputFile<Outcome>> outputs;
  /// Sends the load and judges it (SLOs, context). `stop` is the signal watcher's flag: 1 = stop gracefully,
  /// 2 = now; a procedure may stop its own run by a compare-and-swap 0 → 1. Errors end the command with
  /// their exit code and nothing is written.
  std::function<Result<Outcome>(std::atomic<int>& stop)> run;
  std::function<std::string(const Outcome&)> summary;  ///< printed on stdout
  std::function<int(const Outcome&)> exit_code;        ///< DESIGN.md exit codes
  /// The signal watcher says each stop request on stderr; false where a live view shows it in place.
  bool announce = true;
  std::FILE* summary_to =
      stdout;  ///< where the summary is printed (stderr when stdout carries a request log)
  /// Says on stderr which files were written ("openloop run: wrote first.json, first.html"), after them.
  bool list_written = false;
};

/// Checks every output path as check_output_path() does; the first failure (usage) names its flag.
template <class Outcome>
Result<void> check_outputs(const std::vector<OutputFile<Outcome>>& outputs) {
  for (const auto& out : outputs) {
    if (!out.path.empty()) OPENLOOP_TRY_VOID(check_output_path(out.path, out.flag));
  }
  return {};
}

/// Prints "COMMAND: message" on stderr and returns the error's exit code.
int report_error(const std::string& command, const Error& e);

/// JSON as the results files hold it: one space of indent, a final newline; bytes that are not UTF-8 (a
/// header or a URL typed with them) are written as U+FFFD instead of throwing after the run.
std::string json_text(const nlohmann::json& j);

/// `render(outcome)` (a Result), with an exception (a bug: errors are Result values) turned into a runtime
/// error naming `what`, so that one renderer failing cannot take the other outputs down with it.
template <class Outcome, class Render>
auto render_guarded(const Render& render, const Outcome& outcome, const std::string& what)
    -> decltype(render(outcome)) {
  try {
    return render(outcome);
  } catch (const std::exception& e) {
    return runtime_error(what + ": could not be rendered (internal error: " + e.what() + ")");
  }
}

/// Runs the pipeline: output paths are checked before anything is sent (exit 2); the signal watcher lives
/// from before the run until the last output is written, so a signal never kills the process half-way
/// through writing results. An output whose rendering could not read back a parked histogram is refused (exit
/// 4). Every output asked for is attempted even when an earlier one failed (results are
/// never lost for one bad path); any failure makes the exit code 4 (runtime).
template <class Outcome>
int execute(const Pipeline<Outcome>& p) {
  if (auto checked = check_outputs(p.outputs); !checked) return report_error(p.command, checked.error());
  std::atomic<int> stop{0};
  SignalWatcher watcher(stop, p.announce);
  auto outcome = p.run(stop);
  if (!outcome) return report_error(p.command, outcome.error());
  watcher.finishing();
  bool written = true;
  const auto summary = render_guarded([&p](const Outcome& o) -> Result<std::string> { return p.summary(o); },
                                      *outcome, "the summary");
  if (summary) {
    std::fputs(summary->c_str(), p.summary_to);
    std::fflush(p.summary_to);
  } else {
    report_error(p.command, summary.error());
    written = false;
  }
  std::vector<std::string> wrote;
  for (const auto& out : p.outputs) {
    if (out.path.empty()) continue;
    // A long run's parked intervals that could not be read back leave gaps: refused, not written incomplete.
    // spill_files(outcome): found beside each Outcome type (results::spill_files for RunResults).
    const results::ReadBackCheck read_back(spill_files(*outcome));
    const std::string what = std::string(out.flag) + " " + out.path;
    const auto check_spill = [&read_back](Result<void> r) -> Result<void> {
      return r ? read_back.since() : r;
    };
    Result<void> done;
    if (out.write) {
      done = write_file_atomically_streamed(out.path, [&](const WriteSink& sink) {
        return check_spill(render_guarded(
            [&](const Outcome& o) -> Result<void> { return out.write(o, sink); }, *outcome, what));
      });
    } else {
      const auto text = render_guarded(out.render, *outcome, what);
      done = text ? check_spill({}) : Result<void>(tl::unexpected(text.error()));
      if (done) done = write_file_atomically(out.path, *text);
    }
    if (!done) {
      report_error(p.command, Error{ExitCode::runtime, done.error().message});
      written = false;
    } else {
      wrote.push_back(out.path);
    }
  }
  if (p.list_written && !wrote.empty()) {
    std::string list;
    for (const auto& path : wrote) list += (list.empty() ? "" : ", ") + path;
    std::fprintf(stderr, "%s: wrote %s\n", p.command.c_str(), list.c_str());
  }
  if (!written) return static_cast<int>(ExitCode::runtime);
  return p.exit_code(*outcome);
}

/// The outputs of `run` and of a scenario file's run: --json (the results file), --hlog, --html.
std::vector<OutputFile<results::RunResults>> run_outputs(const RunOptions& o);
/// The .hlog's observed companion (report/observed_csv.h) beside `hlog`; no path (nothing written) for "".
OutputFile<results::RunResults> observed_companion(const std::string& hlog);

/// One run of `plan` with the live view on stderr (a terminal: redrawn every second; otherwise a line every 10
/// s; --quiet: none) and, when not null, --abort-on-slo's judge, the metrics endpoint, the observer and the
/// --until watcher fed every finalized interval (cli/run.cpp).
Result<results::RunResults> run_with_live_view(const engine::RunPlan& plan, const RunOptions& o,
                                               std::atomic<int>& stop, results::SloAbort* slo_abort,
                                               MetricsServer* metrics, const observe::Observer* observer,
                                               results::UntilWatcher* until);
/// Host, cores, version, and the wall-clock start of measurement (unless the engine already set it), from the
/// time the run `ended`.
void stamp_context(results::RunResults& r, const engine::RunPlan& plan,
                   std::chrono::system_clock::time_point ended);

/// exit_code_for(r); when the target was unreachable, also says so on stderr with an example of each error.
int run_exit_code(const results::RunResults& r, const std::string& command);

}  // namespace openloop::cli
