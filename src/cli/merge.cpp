// `openloop merge`: adds several runs' results into one file, exactly (histograms merged, verdict judged
// again).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/sha256.h"
#include "core/units.h"
#include "hdr/interval_log_merge.h"
#include "procedures/probe/probe_report.h"
#include "procedures/ramp/ramp_report.h"
#include "report/hlog_export.h"
#include "report/summary.h"
#include "results/merging/merge.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"

namespace openloop::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> files;
  std::string output;
  std::string hlog;
  bool quiet = false;
  bool allow_partial = false;
  std::string max_skew = "1s";
};

// A ramp's or a probe's results hold one measurement per step or phase at different loads, not one run of a
// plan: adding them up would mean nothing. Empty when `text` is not one of those.
std::string refusal_for_schema(std::string_view text) {
  const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);  // bad JSON: the reader says why
  if (!root.is_object() || !root.contains("schema") || !root["schema"].is_string()) return {};
  const std::string schema = root["schema"].get<std::string>();
  if (schema == procedures::k_ramp_schema) {
    return "is a ramp's results (openloop.ramp/1): its steps ran at different rates, so adding them would "
           "mean nothing; merge takes run --json files (openloop.results/1), e.g. the same plan run from "
           "several hosts; `openloop report` renders a ramp file";
  }
  if (schema == procedures::k_probe_schema) {
    return "is a probe's results (openloop.probe/1): its phases are a scripted experiment, not one load, so "
           "adding them would mean nothing; merge takes run --json files (openloop.results/1)";
  }
  return {};
}

bool is_interval_log(const std::string& file) {
  return file.size() > 5 && file.compare(file.size() - 5, 5, ".hlog") == 0;
}

int fail(const Error& e) {
  fmt::print(stderr, "openloop merge: {}\n", e.message);
  return static_cast<int>(e.code);
}

// Shards' interval logs into one: intervals aligned by offset from each log's start, histograms added.
int merge_logs(const MergeOptions& o, double max_skew_s) {
  if (!o.hlog.empty()) {
    return fail(Error{ExitCode::usage, "--hlog: the inputs are interval logs already; the merged log is -o"});
  }
  std::vector<hdr::NamedIntervalLog> logs;
  for (const std::string& file : o.files) {
    auto log = hdr::read_interval_log(file);
    if (!log) return fail(log.error());
    logs.push_back({file, std::move(*log)});
  }
  auto merged = hdr::merge_interval_logs(logs, max_skew_s);
  if (!merged) return fail(merged.error());
  std::string names;
  for (const std::string& file : o.files) names += (names.empty() ? "" : ", ") + file;
  auto text = hdr::render_merged_interval_log(
      *merged, fmt::format("[openloop merge of {} interval logs ({}); intervals aligned by their offset from "
                           "each log's start; start skew {:.3f}s]",
                           logs.size(), names, merged->start_skew_seconds));
  if (!text) return fail(text.error());
  if (auto written = write_file_atomically(o.output, *text); !written) return fail(written.error());
  if (!o.quiet) {
    fmt::print(stderr, "openloop merge: {} interval logs, {} histograms (start skew {:.3f}s), written to {}\n",
               logs.size(), merged->intervals.size(), merged->start_skew_seconds, o.output);
  }
  return 0;
}

int merge_command(const MergeOptions& o) {
  const auto max_skew = parse_duration(o.max_skew, "--max-skew");
  if (!max_skew) {
    fmt::print(stderr, "openloop merge: {}\n", max_skew.error().message);
    return static_cast<int>(ExitCode::usage);
  }
  const auto logs = std::count_if(o.files.begin(), o.files.end(), is_interval_log);
  if (logs == static_cast<std::ptrdiff_t>(o.files.size())) return merge_logs(o, to_seconds(*max_skew));
  if (logs > 0) {
    return fail(Error{ExitCode::usage,
                      fmt::format("{} is an interval log among results files: merge .hlog files with .hlog files "
                                  "(-o merged.hlog) or results files with results files (--hlog writes the "
                                  "merged run's log)",
                                  *std::find_if(o.files.begin(), o.files.end(), is_interval_log))});
  }
  std::vector<results::MergeInput> inputs;
  std::vector<std::string> hashes;  // SHA-256 of each file: the same bytes twice is the same run twice
  for (const std::string& file : o.files) {
    auto text = read_file(file);
    if (!text) {
      fmt::print(stderr, "openloop merge: {}\n", text.error().message);
      return static_cast<int>(text.error().code);
    }
    if (const std::string why = refusal_for_schema(*text); !why.empty()) {
      fmt::print(stderr, "openloop merge: {} {}\n", file, why);
      return static_cast<int>(ExitCode::usage);
    }
    const std::string hash = sha256_hex(*text);
    for (std::size_t k = 0; k < hashes.size(); ++k) {
      if (hashes[k] == hash) {
        fmt::print(stderr,
                   "openloop merge: {} and {} have the same content (the same run given twice): merging "
                   "them would count every request twice; give each run once\n",
                   o.files[k], file);
        return static_cast<int>(ExitCode::usage);
      }
    }
    auto r = results::parse_results(*text, file);
    hashes.push_back(hash);
    if (!r) {
      fmt::print(stderr, "openloop merge: {}\n", r.error().message);
      return static_cast<int>(r.error().code);
    }
    inputs.push_back({file, std::move(*r)});
  }
  auto merged = results::merge_results(inputs, {o.allow_partial, to_seconds(*max_skew)});
  if (!merged) {
    fmt::print(stderr, "openloop merge: {}\n", merged.error().message);
    return static_cast<int>(merged.error().code);
  }
  if (auto written = write_file_atomically(o.output, results::to_json(*merged).dump(1) + "\n"); !written) {
    fmt::print(stderr, "openloop merge: {}\n", written.error().message);
    return static_cast<int>(written.error().code);
  }
  if (!o.hlog.empty()) {
    auto text = report::render_interval_log(*merged);
    if (!text) return fail(text.error());
    if (auto written = write_file_atomically(o.hlog, *text); !written) return fail(written.error());
  }
  if (!o.quiet) {
    fmt::print(stderr, "openloop merge: {} runs, {} intervals over {:.3g}s, written to {}\n", inputs.size(),
               merged->intervals.size(), merged->measured_s, o.output);
    std::fputs(report::render_run_summary(*merged).c_str(), stdout);
  }
  // Loud even with --quiet: a merge that mixes runs apart in time or of other loads reads as one run.
  for (const auto& w : merged->warnings) fmt::print(stderr, "openloop merge: WARNING: {}\n", w);
  return 0;
}

}  // namespace

Action setup_merge(CLI::App& sub) {
  auto o = std::make_shared<MergeOptions>();
  sub.add_option("FILE", o->files,
                 "Two or more results files (run --json) of runs of the same plan, e.g. one per host; or two or "
                 "more interval logs (.hlog) of one run's shards")
      ->required()
      ->type_name("")
      ->expected(2, CLI::detail::expected_max_vector_size);
  sub.add_option("-o,--output", o->output,
                 "The merged results file, or the merged .hlog when the inputs are .hlog (written atomically)")
      ->required()
      ->type_name("FILE");
  sub.add_option("--hlog", o->hlog, "Also write the merged run's interval log (.hlog) to FILE")
      ->type_name("FILE");
  sub.add_flag("-q,--quiet", o->quiet,
               "Print nothing (the merged summary goes to standard output otherwise)");
  sub.add_flag("--allow-partial", o->allow_partial,
               "Shards: merge even when some shards are missing; the result is labelled partial (plan.partial "
               "names the missing shares)");
  sub.add_option("--max-skew", o->max_skew,
                 "Shards: refuse shards whose measured starts differ by more than this (default 1s)")
      ->type_name("DURATION");
  return [o] { return merge_command(*o); };
}

}  // namespace openloop::cli
