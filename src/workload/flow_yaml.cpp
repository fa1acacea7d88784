// Flow steps in a plan file: `capture:`, `check:` and `on_fail:`, and which step may read which capture.
#include "workload/flow_yaml.h"

#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "workload/session_data.h"

namespace openloop::workload::yaml {
namespace {

constexpr std::string_view k_capture_example =
    "e.g. capture: [{as: token, json: $.data.token}, {as: loc, header: Location}, {as: id, regex: "
    "'id=(\\d+)', "
    "group: 1}]";
constexpr std::string_view k_check_example =
    "e.g. check: [{status: 200-299}, {json: $.ok, equals: true}, {body_contains: welcome}, {header: "
    "Content-Type, matches: json}]";

Field item_of(const Field& list, std::size_t i) {
  const YAML::Node node = list.node[i];
  return Field{fmt::format("{}[{}]", list.path, i + 1), node, node.Mark(), node.Mark()};
}

Result<void> expect_list(const Doc& doc, const Field& f, std::string_view example) {
  if (f.node.IsSequence() && f.node.size() > 0) return {};
  return usage_error(fmt::format("{}: found {}; give a list, {}", where(doc, f),
                                 f.node.IsSequence() ? "an empty list" : describe_kind(f.node), example));
}

Result<void> expect_true(const Doc& doc, const Field& f, std::string_view key) {
  const std::string text = OPENLOOP_TRY(scalar(doc, f, "use true"));
  if (text == "true") return {};
  return usage_error(fmt::format("{}: \"{}\"; {}: takes only true", where(doc, f), text, key));
}

// Exactly one of `keys` is present: it.
Result<std::pair<std::string_view, const Field*>> one_of(const Doc& doc, const Fields& fields,
                                                         std::initializer_list<std::string_view> keys,
                                                         std::string_view kind, std::string_view example) {
  std::pair<std::string_view, const Field*> found{{}, nullptr};
  for (std::string_view k : keys) {
    const Field* f = fields.find(k);
    if (f == nullptr) continue;
    if (found.second != nullptr) {
      return usage_error(fmt::format("{}: both {} and {}; {} takes one of {}", where(doc, *f), found.first, k,
                                     kind, fmt::join(keys, ", ")));
    }
    found = {k, f};
  }
  if (found.second == nullptr) {
    return usage_error(fmt::format("{}: {} needs one of {}; {}", where(doc, fields.self()), kind,
                                   fmt::join(keys, ", "), example));
  }
  return found;
}

Result<std::shared_ptr<const Regex>> regex_at(const Doc& doc, const Field& f) {
  const std::string text = OPENLOOP_TRY(scalar(doc, f, "use a PCRE2 pattern such as 'id=(\\d+)'"));
  return std::make_shared<const Regex>(OPENLOOP_TRY(Regex::compile(text, where(doc, f))));
}

Result<JsonPath> path_at(const Doc& doc, const Field& f) {
  const std::string text = OPENLOOP_TRY(scalar(doc, f, "use a JSON path such as $.data.token"));
  return JsonPath::parse(text, where(doc, f));
}

Result<std::uint32_t> read_match(const Doc& doc, const Field& f) {
  const std::string text = OPENLOOP_TRY(scalar(doc, f, "use first, last or a match number N ≥ 1"));
  if (text == "first") return 1u;
  if (text == "last") return Capture::k_last;
  return static_cast<std::uint32_t>(OPENLOOP_TRY(whole_number(doc, f, 1, 1'000'000)));
}

Result<void> capture_source(const Doc& doc, const Fields& fields, Capture& c) {
  const auto [key, f] = OPENLOOP_TRY(one_of(
      doc, fields, {"json", "header", "cookie", "regex", "status", "body"}, "a capture", k_capture_example));
  if (key == "json") {
    c.source = CaptureSource::json;
    c.json = OPENLOOP_TRY(path_at(doc, *f));
  } else if (key == "header" || key == "cookie") {
    c.source = key == "header" ? CaptureSource::header : CaptureSource::cookie;
    c.name = OPENLOOP_TRY(
        scalar(doc, *f,
               key == "header" ? "use a header name such as Location" : "use a cookie name such as session"));
  } else if (key == "regex") {
    c.source = CaptureSource::regex;
    c.regex = OPENLOOP_TRY(regex_at(doc, *f));
  } else {
    c.source = key == "status" ? CaptureSource::status : CaptureSource::body;
    OPENLOOP_TRY_VOID(expect_true(doc, *f, key));
  }
  const Field* group = fields.find("group");
  const Field* match = fields.find("match");
  if (c.source != CaptureSource::regex && (group != nullptr || match != nullptr)) {
    return usage_error(fmt::format("{}: {} applies to regex captures only",
                                   where(doc, group ? *group : *match), group ? "group" : "match"));
  }
  if (group != nullptr) {
    c.group = static_cast<std::uint32_t>(OPENLOOP_TRY(whole_number(doc, *group, 0, 1000)));
    if (c.group > c.regex->groups()) {
      return usage_error(
          fmt::format("{}: group {} but the regex \"{}\" has {} group(s); use 0 (the whole match) "
                      "to {}",
                      where(doc, *group), c.group, c.regex->pattern(), c.regex->groups(), c.regex->groups()));
    }
  } else if (c.source == CaptureSource::regex) {
    c.group = c.regex->groups() > 0 ? 1 : 0;  // the first group when there is one, as most tools do
  }
  if (match != nullptr) c.match = OPENLOOP_TRY(read_match(doc, *match));
  return {};
}

Result<Capture> read_capture(const Doc& doc, const Field& item, const VariableSet& variables) {
  const Fields fields = OPENLOOP_TRY(Fields::read(
      doc, item, {"as", "json", "header", "cookie", "regex", "group", "status", "body", "default", "match"},
      "a capture"));
  Capture c;
  c.where = where(doc, item);
  const Field* as = fields.find("as");
  if (as == nullptr) {
    return usage_error(fmt::format("{}: the capture names no variable; give as: NAME, {}", where(doc, item),
                                   k_capture_example));
  }
  c.as = OPENLOOP_TRY(scalar(doc, *as, "use a variable name such as token"));
  const auto index = variables.find(c.as);
  if (!index || variables.generator(*index).kind() != GeneratorKind::captured) {
    return usage_error(
        fmt::format("{}: \"{}\" is not a capture name (letters, digits and _)", where(doc, *as), c.as));
  }
  c.variable = *index;
  OPENLOOP_TRY_VOID(capture_source(doc, fields, c));
  if (const Field* d = fields.find("default")) c.fallback = OPENLOOP_TRY(scalar(doc, *d, "use a value"));
  return c;
}

Result<void> check_test(const Doc& doc, const Fields& fields, Check& c, bool json) {
  const Field* equals = fields.find("equals");
  const Field* exists = fields.find("exists");
  const Field* matches = fields.find("matches");
  const int given = (equals ? 1 : 0) + (exists ? 1 : 0) + (matches ? 1 : 0);
  if (given > 1) {
    return usage_error(fmt::format("{}: give one of equals, exists and matches", where(doc, fields.self())));
  }
  if (equals != nullptr && !json) {
    return usage_error(fmt::format("{}: equals applies to json checks; a header check takes matches: RE",
                                   where(doc, *equals)));
  }
  if (equals != nullptr) {
    c.test = CheckTest::equals;
    c.text = OPENLOOP_TRY(scalar(doc, *equals, "use a value such as true, 42 or ok"));
  } else if (matches != nullptr) {
    c.test = CheckTest::matches;
    c.regex = OPENLOOP_TRY(regex_at(doc, *matches));
  } else if (exists != nullptr) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *exists, "use true or false"));
    if (text != "true" && text != "false")
      return usage_error(fmt::format("{}: \"{}\"; use true or false", where(doc, *exists), text));
    c.exists = text == "true";
  }
  return {};
}

Result<Check> read_check(const Doc& doc, const Field& item) {
  const Fields fields = OPENLOOP_TRY(Fields::read(
      doc, item, {"status", "json", "equals", "exists", "matches", "body_contains", "header"}, "a check"));
  Check c;
  c.where = where(doc, item);
  const auto [key, f] = OPENLOOP_TRY(
      one_of(doc, fields, {"status", "json", "body_contains", "header"}, "a check", k_check_example));
  const bool has_test = fields.has("equals") || fields.has("exists") || fields.has("matches");
  if ((key == "status" || key == "body_contains") && has_test) {
    return usage_error(fmt::format("{}: a {} check takes no equals, exists or matches", where(doc, *f), key));
  }
  if (key == "status") {
    c.kind = CheckKind::status;
    const std::string text = OPENLOOP_TRY(scalar(doc, *f, "use e.g. 200-299 or 201"));
    c.status = OPENLOOP_TRY(parse_status_range(text, where(doc, *f)));
    c.label = "status " + c.status.to_string();
  } else if (key == "body_contains") {
    c.kind = CheckKind::body_contains;
    c.text = OPENLOOP_TRY(scalar(doc, *f, "use the text the body must contain"));
    if (c.text.empty()) return usage_error(fmt::format("{}: the text is empty", where(doc, *f)));
    c.label = fmt::format("body contains \"{}\"", c.text);
  } else if (key == "json") {
    c.kind = CheckKind::json;
    c.json = OPENLOOP_TRY(path_at(doc, *f));
    OPENLOOP_TRY_VOID(check_test(doc, fields, c, true));
  } else {
    c.kind = CheckKind::header;
    OPENLOOP_TRY_VOID(check_test(doc, fields, c, false));
    c.text = OPENLOOP_TRY(scalar(doc, *f, "use a header name such as Content-Type"));
  }
  if (c.kind == CheckKind::json || c.kind == CheckKind::header) {
    const std::string subject = c.kind == CheckKind::json ? "json " + c.json->text() : "header " + c.text;
    c.label = c.test == CheckTest::equals    ? fmt::format("{} equals {}", subject, c.text)
              : c.test == CheckTest::matches ? fmt::format("{} matches {}", subject, c.regex->pattern())
              : c.exists                     ? subject + " exists"
                                             : subject + " absent";
  }
  return c;
}

// `node[key]` without yaml-cpp's exceptions: a null node when `node` is not a mapping or has no such key.
YAML::Node child(const YAML::Node& node, std::string_view key) {
  if (!node.IsMap()) return YAML::Node();
  for (const auto& kv : node) {
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.second;
  }
  return YAML::Node();
}

}  // namespace

Result<void> declare_captures(const Doc& doc, const Fields& top, VariableSet& variables) {
  const auto declare_in = [&](const YAML::Node& steps) -> Result<void> {
    if (!steps.IsSequence()) return {};
    for (const auto& step : steps) {
      const YAML::Node captures = child(step, "capture");
      if (!captures.IsSequence()) continue;
      for (const auto& capture : captures) {
        const YAML::Node as = child(capture, "as");
        if (!as.IsScalar()) continue;
        const std::string name = as.Scalar();
        const std::string at = doc.where(as.Mark(), "capture.as");
        if (!is_identifier(name)) {
          return usage_error(
              fmt::format("{}: \"{}\" is not a capture name; use letters, digits and _ (not "
                          "starting with a digit), e.g. token",
                          at, name));
        }
        if (const auto index = variables.find(name)) {
          if (variables.generator(*index).kind() == GeneratorKind::captured) continue;  // captured again
          return usage_error(
              fmt::format("{}: \"{}\" is captured but is also declared under variables:; a name "
                          "is either drawn or captured, rename one",
                          at, name));
        }
        (void)OPENLOOP_TRY(variables.declare(name, Generator::captured(), at));  // the index is not needed
      }
    }
    return {};
  };
  for (const std::string_view once : {"setup", "teardown"}) {
    if (const Field* f = top.find(once)) OPENLOOP_TRY_VOID(declare_in(f->node));
  }
  const Field* scenarios = top.find("scenarios");
  if (scenarios == nullptr || !scenarios->node.IsMap()) return {};
  for (const auto& scenario : scenarios->node) OPENLOOP_TRY_VOID(declare_in(child(scenario.second, "steps")));
  return {};
}

Result<StepFlow> read_step_flow(const Doc& doc, const Fields& step, const VariableSet& variables) {
  StepFlow flow;
  if (const Field* f = step.find("capture")) {
    OPENLOOP_TRY_VOID(expect_list(doc, *f, k_capture_example));
    std::set<std::string> names;
    for (std::size_t i = 0; i < f->node.size(); ++i) {
      Capture c = OPENLOOP_TRY(read_capture(doc, item_of(*f, i), variables));
      if (!names.insert(c.as).second) {
        return usage_error(
            fmt::format("{}: \"{}\" is captured twice by this step; give each capture its own "
                        "name",
                        c.where, c.as));
      }
      flow.captures.push_back(std::move(c));
    }
  }
  if (const Field* f = step.find("check")) {
    OPENLOOP_TRY_VOID(expect_list(doc, *f, k_check_example));
    for (std::size_t i = 0; i < f->node.size(); ++i)
      flow.checks.push_back(OPENLOOP_TRY(read_check(doc, item_of(*f, i))));
  }
  if (const Field* f = step.find("on_fail")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *f, "use stop or continue"));
    if (text != "stop" && text != "continue") {
      return usage_error(fmt::format("{}: \"{}\"; use stop (end the session, the default) or continue",
                                     where(doc, *f), text));
    }
    if (!step.has("capture") && !step.has("check")) {
      return usage_error(
          fmt::format("{}: on_fail without capture or check; a step fails only by them", where(doc, *f)));
    }
    flow.on_fail = text == "stop" ? OnFail::stop : OnFail::next;
  }
  return flow;
}

namespace {

// The variables `steps` capture, added to `have` (one flag per variable of the plan).
std::vector<bool> with_captures(std::vector<bool> have, const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    for (const Capture& c : step.flow.captures) have[c.variable] = true;
  }
  return have;
}

// The first captured variable that `request` reads and `have` lacks.
std::optional<std::size_t> first_missing(const WorkloadPlan& plan, std::size_t request,
                                         const std::vector<bool>& have) {
  for (std::size_t v : plan.requests[request].variables()) {
    if (plan.variables.generator(v).kind() == GeneratorKind::captured && !have[v]) return v;
  }
  return std::nullopt;
}

// Each step reads only what `have` holds or an earlier step of `steps` captured; `missing` says who did not
// capture it ("neither setup: nor an earlier step of scenario \"shop\"").
Result<void> check_steps(const std::vector<Step>& steps, std::vector<bool> have, const WorkloadPlan& plan,
                         std::string_view missing) {
  for (const Step& step : steps) {
    if (auto v = first_missing(plan, step.request, have)) {
      const std::string& name = plan.variables.name(*v);
      return usage_error(
          fmt::format("{}: request \"{}\" reads {{{{{}}}}}, which {} captures; capture it first, e.g. "
                      "capture: [{{as: {}, json: $.{}}}] on an earlier step",
                      step.where, plan.requests[step.request].name(), name, missing, name, name));
    }
    for (const Capture& c : step.flow.captures) have[c.variable] = true;
  }
  return {};
}

// What the setup captured is read-only: `steps` may not capture the same names.
Result<void> refuse_setup_names(const std::vector<Step>& steps, const std::vector<bool>& setup) {
  for (const Step& step : steps) {
    for (const Capture& c : step.flow.captures) {
      if (!setup[c.variable]) continue;
      return usage_error(fmt::format("{}: \"{}\" is captured by setup:, whose values every request reads and "
                                     "none changes; give this capture another name",
                                     c.where, c.as));
    }
  }
  return {};
}

}  // namespace

Result<void> check_captured_uses(const ScenarioPlan& s, const WorkloadPlan& plan, std::string_view where) {
  const VariableSet& vars = plan.variables;
  // What the setup captured is a constant of the run: every request may read it, no session may capture it.
  const std::vector<bool> setup = with_captures(std::vector<bool>(vars.size(), false), plan.setup);
  for (const RequestMix::Entry& e : s.mix.entries()) {
    if (auto v = first_missing(plan, e.request, setup)) {
      return usage_error(
          fmt::format("{}: request \"{}\" reads {{{{{}}}}}, a value a flow step captures; a mix "
                      "has no earlier step, so use it in steps: after the step that captures it (or capture "
                      "it in setup:, once for every request)",
                      where, plan.requests[e.request].name(), vars.name(*v)));
    }
  }
  OPENLOOP_TRY_VOID(refuse_setup_names(s.steps, setup));
  const std::optional<SessionData> data = find_session_data(vars, s.name);
  if (!data) {
    return check_steps(s.steps, setup, plan,
                       fmt::format("neither setup: nor an earlier step of scenario \"{}\"", s.name));
  }
  // A session's data row sets its columns before its first step: every step may read them, none captures
  // them.
  std::vector<bool> have = setup;
  for (const std::size_t v : data->variables)
    if (v != std::string::npos) have[v] = true;
  for (const Step& step : s.steps) {
    for (const Capture& c : step.flow.captures) {
      if (!have[c.variable] || setup[c.variable]) continue;
      return usage_error(
          fmt::format("{}: \"{}\" is a column of this scenario's data: file {}, set by each "
                      "session's row; give this capture another name",
                      c.where, c.as, data->file));
    }
  }
  return check_steps(s.steps, have, plan,
                     fmt::format("neither setup:, the data: file {} nor an earlier step of scenario \"{}\"",
                                 data->file, s.name));
}

Result<void> check_once_uses(const WorkloadPlan& plan) {
  const std::vector<bool> none(plan.variables.size(), false);
  OPENLOOP_TRY_VOID(check_steps(plan.setup, none, plan, "no earlier setup step"));
  const std::vector<bool> setup = with_captures(none, plan.setup);
  OPENLOOP_TRY_VOID(refuse_setup_names(plan.teardown, setup));
  return check_steps(plan.teardown, setup, plan,
                     "neither setup: nor an earlier teardown step");
}

}  // namespace openloop::workload::yaml
