// Building a one-request plan from the run command's URL, -X, -H and --body, through the template compiler.
#include "workload/command_line_request.h"

#include <fmt/format.h>

namespace openloop::workload {

bool has_template(std::string_view text) { return text.find("{{") != std::string_view::npos; }

Result<SplitUrl> split_url(std::string_view text, std::string_view what) {
  const auto scheme_end = text.find("://");
  const std::size_t authority_begin = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  const auto authority_end = text.find_first_of("/?#", authority_begin);
  const std::string_view head = text.substr(0, authority_end);
  if (has_template(head)) {
    return usage_error(fmt::format(
        "{} '{}': the scheme, host and port cannot be templated (they are resolved once, before the run); "
        "put {{{{...}}}} in the path or query, e.g. http://host:8080/item/{{{{zipf(10000, 1.1)}}}}",
        what, text));
  }
  std::string target = authority_end == std::string_view::npos ? std::string("/")
                                                                : std::string(text.substr(authority_end));
  if (const auto hash = target.find('#'); hash != std::string::npos) target.erase(hash);  // never sent
  if (target.empty() || target.front() != '/') target.insert(0, "/");
  SplitUrl out;
  out.base = OPENLOOP_TRY(net::parse_url(fmt::format("{}/", head), what));
  out.target = std::move(target);
  return out;
}

Result<WorkloadPlan> plan_from_command_line(const CommandLineRequest& request,
                                            const std::filesystem::path& base_dir) {
  SplitUrl url = OPENLOOP_TRY(split_url(request.url, "URL"));
  WorkloadPlan plan;
  plan.target_text = request.url;
  plan.target = url.base;
  plan.seed = request.seed;
  plan.defaults.success = request.success;
  RequestText spec;
  spec.name = fmt::format("{} {}", request.method, url.target);
  spec.method = {request.method, "-X"};
  spec.path = {url.target, "URL"};
  for (const http::Header& h : request.headers) {
    spec.headers.emplace_back(h.name, TemplateText{h.value, fmt::format("-H {}", h.name)});
  }
  spec.success = request.success;
  if (!request.body_is_template && has_template(request.body)) {
    // The template syntax has no escape, so a file's "{{" cannot be sent as it is beside a templated URL.
    return usage_error(
        "--body @FILE: the file holds \"{{\", which this templated request (URL or -H) would read as a "
        "template reference; remove it from the file, or template the body inline (--body TEXT)");
  }
  spec.body = {request.body, "--body"};
  plan.requests.push_back(OPENLOOP_TRY(RequestTemplate::compile(spec, url.base, plan.variables, base_dir, 0)));
  ScenarioPlan s;
  s.name = "command line";
  s.seed = request.seed;
  s.mix = RequestMix({{0, 1.0}});
  plan.scenarios.push_back(std::move(s));
  return plan;
}

}  // namespace openloop::workload
