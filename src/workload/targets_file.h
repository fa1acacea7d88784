// Targets files in Vegeta's format (METHOD URL lines, headers, an @body file): one more way to give a request
// mix, each target a named request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/redact.h"
#include "core/time.h"
#include "http/request.h"
#include "net/url.h"
#include "workload/scenario.h"

namespace openloop::workload {

/// The most targets a file may hold: each is a named request with its own per-request breakdown (two
/// histograms per interval), so thousands would cost gigabytes. Many URLs of one shape are a template instead.
inline constexpr std::size_t k_max_targets = 100;

/// One target as written.
struct Target {
  std::size_t line = 0;  ///< of its request line (1-based)
  std::string method;
  std::string url;                    ///< absolute http(s) URL as written; path and query may hold templates
  std::vector<http::Header> headers;  ///< its own header lines, in order
  std::string body;                   ///< the content of its @file, or ""
  double weight = 0;                  ///< weight=N after the URL; 0 when not given
};

/// Parses a targets file. The format (Vegeta's http format, plus an optional weight):
///   # a comment               a line whose first non-blank character is '#'
///   METHOD URL [weight=N]     a target: an upper-case method, an absolute http(s) URL, an optional weight > 0
///   Name: value               a header of the target above (any number of lines)
///   @path                     its body, read from `path` (relative to `base_dir`); at most one, after headers
///   (blank line)              ends a target (optional before the next METHOD URL line)
/// URLs, header values and bodies may hold templates ({{zipf(1000, 1.1)}}). Errors (usage) begin
/// "source:line: ", quote what was found and say what is accepted: a line that is none of the above, a header
/// or body before any target, a second body, an unreadable body file, a bad weight, no target, more than
/// k_max_targets.
Result<std::vector<Target>> parse_targets(std::string_view text, const std::string& source,
                                          const std::filesystem::path& base_dir);

/// What the command line adds to a targets file.
struct TargetsOptions {
  std::vector<http::Header> headers;  ///< -H: sent with every target that does not give that header itself
  std::optional<net::Url> target;     ///< --target: replaces every target's scheme, host and port
  std::uint64_t seed = 1;             ///< seeds the variables and the weighted picks
  StatusRange success;
  Redactor redact;  ///< the requests' names show their targets redacted (the requests send them whole)
};

/// The plan of the targets: one request per target, named "METHOD TARGET" (its secrets redacted; " (line N)"
/// added when two targets would share a name), and one open scenario whose mix holds them all with their
/// weights (1 when none is given: the caller then sends them in turn). Every target must go to the same
/// scheme://host:port (a run resolves one host), unless options.target replaces them all. Errors (usage) name
/// the target's "source:line".
Result<WorkloadPlan> plan_from_targets(const std::vector<Target>& targets, const std::string& source,
                                       const TargetsOptions& options, const std::filesystem::path& base_dir);

/// True when some target gives a weight: the mix is then drawn at random by weight, else sent round-robin.
bool weighted(const std::vector<Target>& targets);

/// Reads --targets ARG: the file ARG, or standard input for "-". Standard input that is a terminal is
/// refused (nothing would ever arrive: say so instead of waiting); otherwise read_bounded(0, ...).
Result<std::string> read_targets_input(const std::string& arg, std::size_t max_bytes = std::size_t{16} << 20,
                                       Nanos idle = std::chrono::seconds(10));

/// Reads `fd` to its end. Errors (usage, beginning with `what`): more than `max_bytes`; nothing arrived for
/// `idle` (a pipe whose writer neither writes nor closes); a read error.
Result<std::string> read_bounded(int fd, std::string_view what, std::size_t max_bytes, Nanos idle);

}  // namespace openloop::workload
