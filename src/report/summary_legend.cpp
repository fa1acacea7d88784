#include "report/summary_legend.h"

#include <string_view>

#include <fmt/format.h>

#include "results/judging/run_checks.h"

namespace openloop::report {
namespace {

// "  NAME            text", the text wrapped at word boundaries to lines of at most k_width columns, its
// continuation lines indented under its first word.
constexpr std::size_t k_width = 110;
constexpr std::size_t k_indent = 18;

void line(std::string& out, const char* name, std::string_view text) {
  fmt::format_to(std::back_inserter(out), "  {:<15} ", name);
  std::size_t column = k_indent;
  while (!text.empty()) {
    const std::size_t end = text.find(' ');
    const std::string_view word = text.substr(0, end);
    if (column > k_indent && column + 1 + word.size() > k_width) {
      out += "\n" + std::string(k_indent, ' ');
      column = k_indent;
    } else if (column > k_indent) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  out += '\n';
}

}  // namespace

std::string render_legend(const results::RunResults& r) {
  std::string out = "\nwhat the summary says (--no-explain hides this; docs/results.md):\n";
  const bool closed = r.info.model == results::Model::closed || r.info.model == results::Model::pacing;
  if (closed) {
    line(out, "response (=svc)",
         "from sending a request to its last response byte. Each user waited for its answer before sending "
         "again, so a slow server slowed the load: this is service time, and the waits a user would have "
         "met behind a slow answer are not in it (coordinated omission; an open run, --rate, measures them)");
  } else {
    line(out, "response time",
         "from each request's intended send time (the schedule) to its last response byte: what a user "
         "arriving then waited, queueing and stalls included");
  }
  line(
      out, "service time",
      "from when the request was sent (a connection taken for it) to its last response byte: what the server "
      "and the network took, a fresh connection's connect and TLS handshake included; what a closed-loop "
      "tool "
      "reports");
  line(out, "send lateness",
       closed ? "a closed run has no schedule: each request's intended time is when its user sent it"
              : "how late the generator sent each request after its intended time (a late wake-up, a busy "
                "generator, a wait for a free connection): the generator's own delay, part of response time");
  line(out, "throughput", "completed responses per second, any status");
  line(out, "goodput",
       "successes per second: a status in --success, within --deadline of the intended time when one is set");
  if (!results::checks_line(r.checks).empty()) {
    line(out, "checks",
         "the run testing its own numbers: arrivals as planned, samples independent (effective n: how many "
         "independent samples the percentiles rest on), p99's 95 % interval; ✗ widens the intervals, it "
         "does not invalidate the run (docs/statistics.md)");
  }
  line(out, r.verdict.valid ? "VALID" : "INVALID",
       r.verdict.valid
           ? "the generator applied the planned load (sent on time, nothing lost on its side): the numbers "
             "describe the target"
           : "the generator did not apply the planned load, so the numbers do not describe the target: read "
             "the reasons above and fix the rig (more --threads, a quieter host, a lower --rate), not the "
             "target");
  return out;
}

}  // namespace openloop::report
