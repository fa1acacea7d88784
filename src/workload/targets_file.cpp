// Reading targets files (Vegeta's format) and standard input, and turning targets into a request mix.
#include "workload/targets_file.h"

#include <poll.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/units.h"
#include "workload/command_line_request.h"
#include "workload/target_override.h"

namespace openloop::workload {
namespace {

constexpr std::string_view k_format =
    "a targets file has METHOD URL [weight=N] lines, each followed by Name: value header lines and an "
    "optional @body-file line, targets separated by blank lines (docs/scenarios.md)";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

bool is_method(std::string_view word) {
  if (word.empty()) return false;
  for (char c : word) {
    if (std::isupper(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

// "METHOD URL [weight=N]", or nullopt when the line does not begin with an upper-case word and a URL.
std::optional<std::vector<std::string_view>> request_line(std::string_view line) {
  // Words end at blanks outside {{...}}: "{{zipf(1000, 1.1)}}" is one template, spaces and all.
  std::vector<std::string_view> words;
  while (!line.empty()) {
    std::size_t end = 0;
    bool in_template = false;
    while (end < line.size() && (in_template || (line[end] != ' ' && line[end] != '\t'))) {
      if (line.compare(end, 2, "{{") == 0) in_template = true;
      if (in_template && line.compare(end, 2, "}}") == 0) {
        in_template = false;
        ++end;
      }
      ++end;
    }
    words.push_back(line.substr(0, end));
    line = trim(line.substr(std::min(end, line.size())));
  }
  if (words.size() < 2 || !is_method(words[0]) || words[1].find("://") == std::string_view::npos) {
    return std::nullopt;
  }
  return words;
}

Result<double> parse_weight(std::string_view word, std::string_view at) {
  constexpr std::string_view k_prefix = "weight=";
  double w = 0;
  if (word.substr(0, k_prefix.size()) == k_prefix) {
    const std::string_view number = word.substr(k_prefix.size());
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), w);
    if (!number.empty() && ec == std::errc() && ptr == number.data() + number.size() && std::isfinite(w) &&
        w > 0) {
      return w;
    }
  }
  return usage_error(fmt::format(
      "{}: \"{}\" after the URL; a target line is METHOD URL or METHOD URL weight=N (N a number above 0)", at,
      word));
}

Result<void> add_header(std::string_view line, std::string_view at, Target& t) {
  auto header = http::parse_header_arg(line);
  if (!header) {
    return usage_error(fmt::format("{}: \"{}\" is not a header line (Name: value), a body line (@file) or a "
                                   "target line (METHOD URL); {}",
                                   at, line, k_format));
  }
  t.headers.push_back(std::move(*header));
  return {};
}

Result<void> add_body(std::string_view line, std::string_view at, const std::filesystem::path& base_dir,
                      bool& has_body, Target& t) {
  if (has_body) {
    return usage_error(fmt::format("{}: a second body line \"{}\"; a target has at most one @file", at, line));
  }
  const std::filesystem::path path(trim(line.substr(1)));
  if (path.empty()) return usage_error(fmt::format("{}: \"@\" names no file; write @body.json", at));
  const std::filesystem::path full = path.is_absolute() ? path : base_dir / path;
  auto content = read_file(full.string());
  if (!content) return usage_error(fmt::format("{}: {}: {}", at, line, content.error().message));
  t.body = std::move(*content);
  has_body = true;
  return {};
}

}  // namespace

Result<std::vector<Target>> parse_targets(std::string_view text, const std::string& source,
                                          const std::filesystem::path& base_dir) {
  std::vector<Target> targets;
  bool open = false;  // the last target still takes headers and a body
  bool has_body = false;
  std::size_t number = 0;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    const std::string_view raw = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++number;
    const std::string_view line = trim(raw);
    const std::string at = fmt::format("{}:{}", source, number);
    if (line.empty()) {
      open = false;
      continue;
    }
    if (line.front() == '#') continue;
    if (const auto words = request_line(line)) {
      if (targets.size() == k_max_targets) {
        return usage_error(fmt::format(
            "{}: more than {} targets; each target is a named request with its own breakdown. For many URLs "
            "of one shape, template one: http://host/item/{{{{zipf(10000, 1.1)}}}} or "
            "http://host{{{{csv(paths.csv, path)}}}}",
            at, k_max_targets));
      }
      Target t;
      t.line = number;
      t.method = std::string((*words)[0]);
      t.url = std::string((*words)[1]);
      if (words->size() > 3) {
        return usage_error(fmt::format("{}: \"{}\" after the URL; a target line is METHOD URL [weight=N]", at,
                                       (*words)[3]));
      }
      if (words->size() == 3) t.weight = OPENLOOP_TRY(parse_weight((*words)[2], at));
      targets.push_back(std::move(t));
      open = true;
      has_body = false;
      continue;
    }
    if (!open) {
      return usage_error(fmt::format(
          "{}: \"{}\" does not begin a target; a target begins with METHOD URL, e.g. GET "
          "http://127.0.0.1:8080/item/1{}; {}",
          at, line, targets.empty() ? "" : " (headers and @body follow their target without a blank line)",
          k_format));
    }
    if (line.front() == '@') {
      OPENLOOP_TRY_VOID(add_body(line, at, base_dir, has_body, targets.back()));
    } else if (has_body) {
      return usage_error(fmt::format("{}: \"{}\" after the body line; headers come before @file", at, line));
    } else {
      OPENLOOP_TRY_VOID(add_header(line, at, targets.back()));
    }
  }
  if (targets.empty()) {
    return usage_error(fmt::format("{}: no targets; {}", source, k_format));
  }
  return targets;
}

bool weighted(const std::vector<Target>& targets) {
  for (const Target& t : targets) {
    if (t.weight > 0) return true;
  }
  return false;
}

Result<WorkloadPlan> plan_from_targets(const std::vector<Target>& targets, const std::string& source,
                                       const TargetsOptions& options, const std::filesystem::path& base_dir) {
  WorkloadPlan plan;
  plan.source = source;
  plan.seed = options.seed;
  plan.defaults.success = options.success;
  std::vector<RequestMix::Entry> mix;
  for (const Target& t : targets) {
    const std::string at = fmt::format("{}:{}", source, t.line);
    SplitUrl url = OPENLOOP_TRY(split_url(t.url, fmt::format("{}: URL", at)));
    if (options.target) url.base = retarget(url.base, *options.target);
    if (plan.requests.empty()) {
      plan.target = url.base;
      plan.target_text = url_text(url.base);
    } else if (url.base.scheme != plan.target.scheme || url.base.host != plan.target.host ||
               url.base.port != plan.target.port) {
      return usage_error(fmt::format(
          "{}: {} goes to {}, but the first target to {}; a run sends to one host: give every target the "
          "same scheme://host:port, or --target URL to send them all to one",
          at, t.url, url_text(url.base), plan.target_text));
    }
    RequestText spec;
    spec.name = fmt::format("{} {}", t.method, options.redact.url(url.target));
    if (plan.find_request(spec.name)) spec.name += fmt::format(" (line {})", t.line);
    spec.method = {t.method, at + ": method"};
    spec.path = {url.target, at + ": URL"};
    for (const http::Header& h : t.headers) {
      spec.headers.emplace_back(h.name, TemplateText{h.value, fmt::format("{}: header {}", at, h.name)});
    }
    for (const http::Header& h : options.headers) {
      const bool own = std::any_of(t.headers.begin(), t.headers.end(), [&](const http::Header& mine) {
        return strcasecmp(mine.name.c_str(), h.name.c_str()) == 0;
      });
      if (!own) spec.headers.emplace_back(h.name, TemplateText{h.value, fmt::format("-H {}", h.name)});
    }
    spec.body = {t.body, at + ": body"};
    spec.success = options.success;
    const std::size_t index = plan.requests.size();
    plan.requests.push_back(
        OPENLOOP_TRY(RequestTemplate::compile(spec, url.base, plan.variables, base_dir, index)));
    mix.push_back({index, t.weight > 0 ? t.weight : 1.0});
  }
  ScenarioPlan s;
  s.name = "targets";
  s.seed = options.seed;
  s.mix = RequestMix(std::move(mix));
  plan.scenarios.push_back(std::move(s));
  return plan;
}

Result<std::string> read_bounded(int fd, std::string_view what, std::size_t max_bytes, Nanos idle) {
  std::string out;
  std::array<char, 65536> buffer{};
  const int idle_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(idle).count());
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, idle_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return usage_error(fmt::format("{}: cannot wait for input: {}", what, std::strerror(errno)));
    if (ready == 0) {
      return usage_error(fmt::format(
          "{}: nothing arrived for {} and the input is still open; pipe the targets in and close it, e.g. "
          "openloop run --targets - --rate 100/s < targets.txt",
          what, format_duration(idle)));
    }
    const ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) return usage_error(fmt::format("{}: cannot read: {}", what, std::strerror(errno)));
    if (n == 0) return out;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      return usage_error(fmt::format("{}: more than {} bytes; a targets input is at most that", what, max_bytes));
    }
    out.append(buffer.data(), static_cast<std::size_t>(n));
  }
}

Result<std::string> read_targets_input(const std::string& arg, std::size_t max_bytes, Nanos idle) {
  if (arg != "-") {
    auto text = read_file(arg);
    if (!text) return usage_error(fmt::format("--targets: {}", text.error().message));
    if (text->size() > max_bytes) {
      return usage_error(fmt::format("--targets {}: more than {} bytes; a targets file is at most that", arg,
                                     max_bytes));
    }
    return std::move(*text);
  }
  if (isatty(STDIN_FILENO) != 0) {
    return usage_error(
        "--targets -: standard input is a terminal, so no targets would arrive; pipe them in (openloop run "
        "--targets - --rate 100/s < targets.txt) or give the file (--targets targets.txt)");
  }
  return read_bounded(STDIN_FILENO, "--targets - (standard input)", max_bytes, idle);
}

}  // namespace openloop::workload
