// `openloop trace convert|sort|inspect|fit`: recorded traffic offline: any trace format to canonical JSONL
// (privacy rules applied), a line-format trace sorted by time in bounded memory, what a trace holds, and a
// plan fitted to it (docs/replay.md).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/trace_html.h"
#include "core/atomic_file.h"
#include "core/units.h"
#include "workload/har_trace.h"
#include "workload/jsonl_trace.h"
#include "workload/trace_fit.h"
#include "workload/trace_inspect.h"
#include "workload/trace_privacy.h"
#include "workload/trace_reader.h"
#include "workload/trace_sort.h"

namespace openloop::cli {
namespace {

struct TraceOptions {
  std::string file;
  std::string out;
  std::string format = "auto";
  std::string log_format;
  std::uint64_t seed = 1;
  bool skip_bad = false;
  std::string json;
  std::string html;  // trace inspect --html
  bool quiet = false;
  std::vector<std::string> keep_headers;
  std::vector<std::string> redact_params;
  // trace fit
  std::string target = "http://127.0.0.1:8080";
  std::size_t top = 10;
  std::string window;
  double rate_scale = 1;
  std::vector<std::string> key_params;
};

Result<workload::TraceInput> trace_input(const TraceOptions& o) {
  workload::TraceInput input;
  input.path = o.file;
  input.format = OPENLOOP_TRY(workload::parse_trace_format(o.format, "--replay-format"));
  input.log_format = o.log_format;
  if (!o.log_format.empty() &&
      (input.format == workload::TraceFormat::jsonl || input.format == workload::TraceFormat::har)) {
    return usage_error(
        fmt::format("--replay-log-format: applies to nginx and apache logs, not to --replay-format {}",
                    workload::to_string(input.format)));
  }
  if (!o.log_format.empty() && input.format == workload::TraceFormat::automatic)
    input.format = workload::TraceFormat::nginx;
  input.skip_bad = o.skip_bad;
  input.seed = o.seed;
  return input;
}

// What the reader passed over, for the closing lines.
void print_reader_notes(const workload::TraceReader& reader) {
  if (reader.skipped() > 0)
    fmt::print("  {} bad lines skipped (--skip-bad); the first: {}\n", reader.skipped(),
               reader.first_skipped());
  if (reader.no_requests() > 0) {
    fmt::print(
        "  {} empty request lines left out (a connection closed before sending a request); the first at {}\n",
        reader.no_requests(), reader.first_no_request());
  }
  if (reader.spreads_seconds())
    fmt::print("  the stamps are whole seconds: each record was spread within its second by the seed\n");
}

Result<int> convert(const TraceOptions& o) {
  OPENLOOP_TRY_VOID(check_output_path(o.out, "-o"));
  const workload::TraceInput input = OPENLOOP_TRY(trace_input(o));
  auto reader = OPENLOOP_TRY(workload::open_trace(input));
  workload::TracePrivacy privacy(o.keep_headers, o.redact_params);
  std::uint64_t records = 0;
  const auto produce = [&](const WriteSink& sink) -> Result<void> {
    workload::TraceRecord record;
    std::string line;
    while (OPENLOOP_TRY(reader.next(record))) {
      privacy.apply(record);
      line.clear();
      auto written = workload::append_jsonl_record(record, line);
      if (!written) {
        return usage_error(fmt::format("{}:{}: {} (convert writes JSON text)", reader.name(), record.line,
                                       written.error().message));
      }
      OPENLOOP_TRY_VOID(sink(line));
      ++records;
    }
    return {};
  };
  OPENLOOP_TRY_VOID(write_file_atomically_streamed(o.out, produce));
  fmt::print("trace convert: {} records of {} written to {} (canonical JSONL)\n", records, o.file, o.out);
  print_reader_notes(reader);
  if (privacy.credentials_dropped() > 0) {
    fmt::print("  Authorization/Cookie headers dropped from {} records (--keep-header NAME keeps one)\n",
               privacy.credentials_dropped());
  }
  if (privacy.params_redacted() > 0)
    fmt::print("  {} query parameters redacted\n", privacy.params_redacted());
  return 0;
}

Result<int> sort(const TraceOptions& o) {
  OPENLOOP_TRY_VOID(check_output_path(o.out, "-o"));
  const workload::TraceInput input = OPENLOOP_TRY(trace_input(o));
  auto reader = OPENLOOP_TRY(workload::open_trace(input));
  workload::TraceSortCounts counts;
  const auto produce = [&](const WriteSink& sink) -> Result<void> {
    std::string line;
    const auto write = [&](std::string_view text) {
      line.assign(text);
      line.push_back('\n');
      return sink(line);
    };
    counts = OPENLOOP_TRY(workload::sort_trace(reader, workload::TraceSortLimits{}, write));
    return {};
  };
  OPENLOOP_TRY_VOID(write_file_atomically_streamed(o.out, produce));
  if (counts.records == 0) {
    // Written all the same (an empty file), but said: a sort of nothing is more likely a wrong file.
    fmt::print("trace sort: {} holds no record; {} is empty\n", o.file, o.out);
    return 0;
  }
  fmt::print(
      "trace sort: {} lines of {} written to {} in time order; {} were out of order{}\n", counts.records,
      o.file, o.out, counts.out_of_order,
      counts.chunks > 0 ? fmt::format(" (sorted in {} chunks on disk)", counts.chunks) : std::string());
  print_reader_notes(reader);
  return 0;
}

Result<void> check_key_params(const TraceOptions& o) {
  for (const auto& name : o.key_params) {
    if (name.empty() || name.find_first_of("&=?# ") != std::string::npos)
      return usage_error(fmt::format("--key-param '{}': expected a query parameter's name", name));
  }
  return {};
}

Result<int> inspect(const TraceOptions& o) {
  OPENLOOP_TRY_VOID(check_key_params(o));
  if (!o.json.empty()) OPENLOOP_TRY_VOID(check_output_path(o.json, "--json"));
  if (!o.html.empty()) OPENLOOP_TRY_VOID(check_output_path(o.html, "--html"));
  const workload::TraceInput input = OPENLOOP_TRY(trace_input(o));
  auto reader = OPENLOOP_TRY(workload::open_trace(input));
  const workload::TraceFitData data = OPENLOOP_TRY(workload::collect_fit_data(reader, o.key_params));
  const workload::TraceProfile& profile = data.profile;
  if (!o.json.empty() || !o.html.empty()) {
    nlohmann::json j = workload::profile_json(profile, o.file);
    j["skipped_lines"] = reader.skipped();
    j["empty_request_lines"] = reader.no_requests();
    j["keys"] = workload::keys_json(data);
    if (!o.json.empty()) OPENLOOP_TRY_VOID(write_file_atomically(o.json, j.dump(1) + "\n"));
    if (!o.html.empty()) OPENLOOP_TRY_VOID(write_file_atomically(o.html, render_trace_html(j)));
  }
  if (!o.quiet) {
    std::fputs(workload::render_profile_text(profile, o.file).c_str(), stdout);
    if (profile.records > 0) std::fputs(workload::render_keys_text(data).c_str(), stdout);
    print_reader_notes(reader);
  }
  return 0;
}

Result<int> fit(const TraceOptions& o) {
  OPENLOOP_TRY_VOID(check_output_path(o.out, "-o"));
  workload::FitOptions options;
  options.source = o.file;
  if (o.target.rfind("http://", 0) != 0 && o.target.rfind("https://", 0) != 0)
    return usage_error(fmt::format("--target {}: expected an http:// or https:// URL", o.target));
  options.target = o.target;
  if (o.top < 1) return usage_error("--top 0: expected at least 1 endpoint");
  options.top = o.top;
  if (!std::isfinite(o.rate_scale) || o.rate_scale <= 0 || o.rate_scale > 1e6)
    return usage_error(fmt::format("--rate-scale {}: expected a number above 0 (2 = twice the rate)", o.rate_scale));
  options.rate_scale = o.rate_scale;
  if (!o.window.empty()) {
    const Nanos window = OPENLOOP_TRY(parse_duration(o.window, "--window"));
    if (window < std::chrono::seconds(1) || window > std::chrono::hours(24))
      return usage_error(fmt::format("--window {}: expected a duration from 1s to 24h", o.window));
    options.window_s = std::chrono::duration<double>(window).count();
  }
  OPENLOOP_TRY_VOID(check_key_params(o));
  const workload::TraceInput input = OPENLOOP_TRY(trace_input(o));
  auto reader = OPENLOOP_TRY(workload::open_trace(input));
  const workload::TraceFitData data = OPENLOOP_TRY(workload::collect_fit_data(reader, o.key_params));
  const workload::FittedPlan plan = OPENLOOP_TRY(workload::fit_plan(data, options));
  OPENLOOP_TRY_VOID(write_file_atomically(o.out, plan.yaml));
  if (!o.quiet) {
    fmt::print("trace fit: a plan fitted to {} ({} records) written to {}\n", o.file, data.profile.records, o.out);
    for (const auto& line : plan.summary) fmt::print("  {}\n", line);
    print_reader_notes(reader);
  }
  return 0;
}

void add_input_options(CLI::App& sub, TraceOptions& o, bool output = true) {
  sub.add_option("FILE", o.file, "The trace: an nginx or Apache access log, a HAR file or canonical JSONL")
      ->required()
      ->type_name("");
  if (output)
    sub.add_option("-o,--output", o.out, "Where to write the result (atomically)")
        ->required()
        ->type_name("FILE");
  sub.add_option("--replay-format", o.format, "The trace's format: auto | nginx | apache | har | jsonl")
      ->type_name("KIND")
      ->capture_default_str();
  sub.add_option(
         "--replay-log-format", o.log_format,
         "The log's format in nginx's syntax (or Apache's with --replay-format apache); default combined")
      ->type_name("FORMAT");
  sub.add_flag("--skip-bad", o.skip_bad,
               "Count and leave out the trace's bad lines instead of refusing the file");
}

// A HAR file, named or as open_trace would detect it.
bool is_har(const TraceOptions& o) {
  const auto format = workload::parse_trace_format(o.format, "--replay-format");
  if (format && *format == workload::TraceFormat::har) return true;
  if (!format || *format != workload::TraceFormat::automatic || !o.log_format.empty()) return false;
  if (o.file.size() > 4 && o.file.compare(o.file.size() - 4, 4, ".har") == 0) return true;
  std::ifstream in(o.file, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return workload::looks_like_har(head);
}

int finish(const char* name, const Result<int>& code) {
  if (!code) {
    fmt::print(stderr, "openloop trace {}: {}\n", name, code.error().message);
    return static_cast<int>(code.error().code);
  }
  return *code;
}

constexpr const char* k_exit_codes =
    "Exit codes: 0 written, 2 bad usage or a bad trace (the file, the line and what is accepted named; "
    "nothing "
    "written), 4 the output or a temporary file not written.";

}  // namespace

Action setup_trace(CLI::App& sub) {
  sub.require_subcommand(1);
  auto o = std::make_shared<TraceOptions>();
  CLI::App* conv = sub.add_subcommand(
      "convert",
      "Write any trace as canonical JSONL (one record a line), credentials dropped and parameters redacted");
  add_input_options(*conv, *o);
  conv->add_option("--seed", o->seed, "Seeds the spread of one-second stamps within their second")
      ->type_name("N")
      ->capture_default_str();
  conv->add_option(
          "--keep-header", o->keep_headers,
          "Keep this recorded credential header (Authorization, Cookie, ...: dropped by default; repeatable)")
      ->type_name("NAME");
  conv->add_option("--redact-param", o->redact_params,
                   "Replace this query parameter's recorded value with REDACTED (repeatable)")
      ->type_name("NAME");
  conv->footer(fmt::format(
      "Examples:\n  openloop trace convert rec.har -o rec.jsonl\n"
      "  openloop trace convert access.log -o trace.jsonl --replay-format apache --redact-param token\n\n{}",
      k_exit_codes));
  CLI::App* sorted = sub.add_subcommand(
      "sort", "Sort a log or a JSONL trace by time (the lines as written), in bounded memory");
  add_input_options(*sorted, *o);
  sorted->footer(
      fmt::format("A HAR file is not sorted in place: convert it, then sort the JSONL. Memory: 64 MiB of "
                  "lines at a time, "
                  "sorted chunks spilled to TMPDIR and merged.\n\nExamples:\n  openloop trace sort "
                  "access.log -o sorted.log\n"
                  "  openloop trace sort trace.jsonl -o sorted.jsonl --skip-bad\n\n{}",
                  k_exit_codes));
  CLI::App* inspected = sub.add_subcommand(
      "inspect",
      "What a trace holds: span, rate over time, burstiness, endpoint mix, key popularity, payload sizes, statuses");
  add_input_options(*inspected, *o, false);
  inspected->add_option("--seed", o->seed, "Seeds the spread of one-second stamps within their second")
      ->type_name("N")
      ->capture_default_str();
  inspected->add_option("--json", o->json, "Also write the profile as JSON (openloop.trace-inspect/1)")
      ->type_name("FILE");
  inspected->add_option("--key-param", o->key_params,
                        "A query parameter whose values are keys: their popularity fitted too (repeatable)")
      ->type_name("NAME");
  inspected->add_option("--html", o->html,
                        "Also write the inspection as one standalone HTML page (the rate chart, the tables)")
      ->type_name("FILE");
  inspected->add_flag("-q,--quiet", o->quiet, "Print nothing (--json and --html still written)");
  inspected->footer(
      fmt::format("Examples:\n  openloop trace inspect access.log\n  openloop trace inspect rec.har --json "
                  "profile.json -q\n  openloop trace inspect access.log --html trace.html -q\n\n"
                  "Exit codes: 0 read, 2 bad usage or a bad trace (the file, the line and what is accepted "
                  "named), 4 --json or --html "
                  "not written."));
  CLI::App* fitted = sub.add_subcommand(
      "fit", "Write a plan (scenario file) that reproduces a trace: rate over time, arrivals, endpoint mix, keys");
  add_input_options(*fitted, *o);
  fitted->add_option("--seed", o->seed, "Seeds the spread of one-second stamps within their second")
      ->type_name("N")
      ->capture_default_str();
  fitted->add_option("--target", o->target, "The plan's target URL")->type_name("URL")->capture_default_str();
  fitted->add_option("--top", o->top, "Endpoints kept in the mix, the most frequent first (the rest dropped)")
      ->type_name("N")
      ->capture_default_str();
  fitted->add_option("--window", o->window,
                     "Length of the windows the rate is fitted over (default: from the trace's span and rate)")
      ->type_name("DURATION");
  fitted->add_option("--rate-scale", o->rate_scale, "Multiply every rate (2 = twice the trace's traffic)")
      ->type_name("X")
      ->capture_default_str();
  fitted->add_option("--key-param", o->key_params,
                     "A query parameter whose values are keys: fitted as zipf(N, s) too (repeatable)")
      ->type_name("NAME");
  fitted->add_flag("-q,--quiet", o->quiet, "Print nothing");
  fitted->footer(fmt::format(
      "Path segments that are ids (numbers, UUIDs, long hex) are keys: their popularity is fitted as zipf(N, s) "
      "by maximum likelihood. The plan passes openloop validate; run it with openloop run plan.yaml.\n\n"
      "Examples:\n  openloop trace fit access.log -o plan.yaml --target http://staging:8080\n"
      "  openloop trace fit trace.jsonl -o plan.yaml --rate-scale 2 --key-param q\n\n{}",
      k_exit_codes));
  return [o, conv, sorted, inspected, fitted] {
    if (inspected->parsed()) return finish("inspect", inspect(*o));
    if (fitted->parsed()) return finish("fit", fit(*o));
    if (conv->parsed()) return finish("convert", convert(*o));
    if (sorted->parsed()) {
      if (is_har(*o)) {
        return finish("sort",
                      usage_error(fmt::format(
                          "{}: a HAR file is one JSON document, not sorted line by line; convert it first "
                          "(openloop trace convert {} -o trace.jsonl) and sort the JSONL",
                          o->file, o->file)));
      }
      return finish("sort", sort(*o));
    }
    return static_cast<int>(ExitCode::usage);
  };
}

}  // namespace openloop::cli
