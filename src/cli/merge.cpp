// `openloop merge`: adds several runs' results into one file, exactly (histograms merged, verdict judged
// again).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "report/summary.h"
#include "results/merge.h"
#include "results/results_json.h"
#include "results/results_reader.h"

namespace openloop::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> files;
  std::string output;
  bool quiet = false;
};

int merge_command(const MergeOptions& o) {
  std::vector<results::MergeInput> inputs;
  for (const std::string& file : o.files) {
    auto r = results::read_results(file);
    if (!r) {
      fmt::print(stderr, "openloop merge: {}\n", r.error().message);
      return static_cast<int>(r.error().code);
    }
    inputs.push_back({file, std::move(*r)});
  }
  auto merged = results::merge_results(inputs);
  if (!merged) {
    fmt::print(stderr, "openloop merge: {}\n", merged.error().message);
    return static_cast<int>(merged.error().code);
  }
  if (auto written = write_file_atomically(o.output, results::to_json(*merged).dump(1) + "\n"); !written) {
    fmt::print(stderr, "openloop merge: {}\n", written.error().message);
    return static_cast<int>(written.error().code);
  }
  if (!o.quiet) {
    fmt::print(stderr, "openloop merge: {} runs, {} intervals over {:.3g}s, written to {}\n", inputs.size(),
               merged->intervals.size(), merged->measured_s, o.output);
    std::fputs(report::render_run_summary(*merged).c_str(), stdout);
  }
  return 0;
}

}  // namespace

Action setup_merge(CLI::App& sub) {
  auto o = std::make_shared<MergeOptions>();
  sub.add_option("FILE", o->files,
                 "Two or more results files (run --json) of runs of the same plan, e.g. one per host")
      ->required()
      ->type_name("")
      ->expected(2, CLI::detail::expected_max_vector_size);
  sub.add_option("-o,--output", o->output, "The merged results file (written atomically)")
      ->required()
      ->type_name("FILE");
  sub.add_flag("-q,--quiet", o->quiet,
               "Print nothing (the merged summary goes to standard output otherwise)");
  return [o] { return merge_command(*o); };
}

}  // namespace openloop::cli
