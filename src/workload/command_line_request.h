// A request given on the command line (URL, -X, -H, --body) as a template: its path and query, header values
// and inline body may draw variables ({{zipf(10000, 1.1)}}); its scheme, host and port may not.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "http/request.h"
#include "net/url.h"
#include "workload/scenario.h"

namespace openloop::workload {

/// An absolute URL cut where templates may begin: the base (scheme://host:port/) and the request target.
struct SplitUrl {
  net::Url base;       ///< scheme, host and port of the URL; target "/"
  std::string target;  ///< path and query as written (templates kept), beginning with '/'; no fragment
};

/// Splits `text` (http(s)://host[:port][/path][?query], path and query possibly holding {{...}}). Errors (usage,
/// prefixed by `what`): a "{{" in the scheme, host or port (they are resolved once, before the run, so they
/// cannot vary), and net::parse_url's errors for the rest.
Result<SplitUrl> split_url(std::string_view text, std::string_view what);

/// True when `text` holds a template reference ("{{").
bool has_template(std::string_view text);

/// A request as the run command's flags give it.
struct CommandLineRequest {
  std::string url;                     ///< absolute URL; path and query may hold templates
  std::string method = "GET";          ///< -X
  std::vector<http::Header> headers;   ///< -H, in order; values may hold templates
  std::string body;                    ///< --body TEXT (may hold templates) or the content of --body @FILE
  bool body_is_template = true;        ///< false for --body @FILE: its bytes are sent as they are
  StatusRange success;                 ///< --success
  std::uint64_t seed = 1;              ///< --seed: seeds the variables
};

/// The plan of one request from the command line: one request named "METHOD TARGET" (the target as written,
/// e.g. "GET /item/{{zipf(10000, 1.1)}}") and one open scenario that sends it (the run's flags set the load).
/// Inline generators become the plan's variables; csv files are found relative to `base_dir`. Errors (usage)
/// name the flag: "URL: ...", "-H X-Key: ...", "--body: ...", "-X: ...", with the template engine's messages.
Result<WorkloadPlan> plan_from_command_line(const CommandLineRequest& request,
                                            const std::filesystem::path& base_dir);

}  // namespace openloop::workload
