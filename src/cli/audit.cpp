// `openloop audit FILE`: another tool's results read back: the load model it applied, Little's law, the
// feedback, coordinated omission and the run that would answer honestly.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "audit/audit.h"
#include "audit/audit_html.h"
#include "audit/audit_json.h"
#include "audit/audit_text.h"
#include "cli/command.h"
#include "core/atomic_file.h"

namespace openloop::cli {
namespace {

struct AuditOptions {
  std::string file;
  std::string format = "auto";
  std::string format_out = "text";
  std::string json;
  std::string html;
  std::string target;
  bool quiet = false;
};

Result<int> audit_command(const AuditOptions& o) {
  audit::AuditSettings settings;
  settings.format = OPENLOOP_TRY(audit::parse_format(o.format));
  settings.target = o.target;
  if (o.format_out != "text" && o.format_out != "json") {
    return usage_error(fmt::format("--format-out '{}': use text or json", o.format_out));
  }
  if (!o.json.empty()) OPENLOOP_TRY_VOID(check_output_path(o.json, "--json"));
  if (!o.html.empty()) OPENLOOP_TRY_VOID(check_output_path(o.html, "--html"));
  const audit::AuditResult a = OPENLOOP_TRY(audit::audit_file(o.file, settings));
  // A label or a bad line's text is the file's bytes: JSON gets U+FFFD for what is not UTF-8, never a throw.
  const std::string json_text =
      audit::to_json(a).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (!o.quiet)
    std::fputs(o.format_out == "json" ? json_text.c_str() : audit::render_text(a).c_str(), stdout);
  if (!o.json.empty()) OPENLOOP_TRY_VOID(write_file_atomically(o.json, json_text));
  if (!o.html.empty()) OPENLOOP_TRY_VOID(write_file_atomically(o.html, audit::render_html(a)));
  return 0;
}

}  // namespace

Action setup_audit(CLI::App& sub) {
  auto o = std::make_shared<AuditOptions>();
  sub.add_option(
         "FILE", o->file,
         "Another tool's results: hey -o csv, ab -g, a JMeter JTL (CSV or XML), k6 --out json or csv, "
         "Gatling's simulation.log (2.3 to 3.12), vegeta encode, Locust's --csv stats history "
         "(aggregates)")
      ->required()
      ->type_name("");
  sub.add_option("--format", o->format,
                 fmt::format("The file's format (default auto: recognised from its first line): {}",
                             audit::format_names()))
      ->type_name("NAME");
  sub.add_option("--format-out", o->format_out, "What to print: text (default) or json (openloop.audit/1)")
      ->type_name("text|json");
  sub.add_option("--json", o->json, "Also write the findings as JSON (openloop.audit/1)")->type_name("FILE");
  sub.add_option("--html", o->html,
                 "Also write the findings as one self-contained HTML page, with the feedback chart (offered "
                 "rate against p99 over time)")
      ->type_name("FILE");
  sub.add_option("--target", o->target, "The URL the honest run's command line names (default: TARGET)")
      ->type_name("URL");
  sub.add_flag("-q,--quiet", o->quiet, "Print nothing (--json still written)");
  sub.footer(
      "Exit 0 when the file was read (whatever it shows), 2 when it cannot be read as the format; see "
      "docs/audit.md.");
  return [o] {
    auto code = audit_command(*o);
    if (!code) {
      fmt::print(stderr, "openloop audit: {}\n", code.error().message);
      return static_cast<int>(code.error().code);
    }
    return *code;
  };
}

}  // namespace openloop::cli
