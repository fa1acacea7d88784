// Reading one scenario from a plan file: its model, its load (arrivals or users), its requests and its
// timing.
#include "workload/scenario_yaml.h"

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/units.h"
#include "workload/flow_yaml.h"
#include "workload/replay_plan.h"
#include "workload/session_data_yaml.h"

namespace openloop::workload::yaml {
namespace {

using Keys = std::vector<std::string_view>;

const Keys& keys_of(ModelKind model) {
  static const Keys k_open = {"model",      "start",   "duration", "rate", "stages",
                              "start_rate", "arrival", "seed",     "mix",  "request"};
  static const Keys k_closed = {"model", "start",   "duration", "vus",     "think",
                                "mix",   "request", "steps",    "cookies", "data"};
  static const Keys k_pacing = {"model", "start", "duration", "vus",   "pacing",  "max_rate",
                                "think", "mix",   "request",  "steps", "cookies", "data"};
  static const Keys k_sessions = {"model",      "start",   "duration", "session_rate", "stages",
                                  "start_rate", "arrival", "seed",     "max_sessions", "think",
                                  "steps",      "cookies", "data"};
  switch (model) {
    case ModelKind::open:
      return k_open;
    case ModelKind::closed:
      return k_closed;
    case ModelKind::pacing:
      return k_pacing;
    case ModelKind::sessions:
      return k_sessions;
  }
  return k_open;
}

std::string_view article(ModelKind model) {
  return model == ModelKind::open ? "an" : "a";
}

Result<Nanos> duration_at(const Doc& doc, const Field& f) {
  const std::string text = OPENLOOP_TRY(scalar(doc, f, "use a duration such as 30s, 2m or 1h30m"));
  return parse_duration(text, where(doc, f));
}

Result<ModelKind> read_model(const Doc& doc, const Fields& fields) {
  constexpr std::string_view k_models =
      "use open (arrivals on a schedule), closed (users that wait), pacing (users with an iteration rate) or "
      "sessions (sessions arrive on a schedule, steps wait)";
  const Field* f = fields.find("model");
  if (f == nullptr) {
    return usage_error(fmt::format("{}: no model; {}", where(doc, fields.self()), k_models));
  }
  const std::string text = OPENLOOP_TRY(scalar(doc, *f, k_models));
  for (ModelKind m : {ModelKind::open, ModelKind::closed, ModelKind::pacing, ModelKind::sessions}) {
    if (text == to_string(m)) return m;
  }
  return usage_error(fmt::format("{}: \"{}\" is not a model; {}", where(doc, *f), text, k_models));
}

// Keys every scenario may have in some model, but not in this one: say which models they belong to.
Result<void> check_applicable(const Doc& doc, const Fields& fields, ModelKind model) {
  const Keys& mine = keys_of(model);
  for (const auto& [key, field] : fields.entries()) {
    if (std::find(mine.begin(), mine.end(), key) != mine.end()) continue;
    std::vector<std::string_view> owners;
    for (ModelKind m : {ModelKind::open, ModelKind::closed, ModelKind::pacing, ModelKind::sessions}) {
      const Keys& k = keys_of(m);
      if (std::find(k.begin(), k.end(), key) != k.end()) owners.push_back(to_string(m));
    }
    return usage_error(
        fmt::format("{}: \"{}\" does not apply to {} {} scenario (it is for {}); {} {} scenario "
                    "accepts {}",
                    doc.where(field.key_mark, fields.self().path), key, article(model), to_string(model),
                    fmt::join(owners, ", "), article(model), to_string(model), fmt::join(mine, ", ")));
  }
  return {};
}

Result<RateProfile> stages_list(const Doc& doc, const Field& f, double start_rate) {
  if (!f.node.IsSequence() || f.node.size() == 0) {
    return usage_error(
        fmt::format("{}: found {}; stages are \"30s:100/s,1m:500/s\" or a list of "
                    "{{duration: 30s, target: 100/s}}",
                    where(doc, f), f.node.IsSequence() ? "an empty list" : describe_kind(f.node)));
  }
  std::vector<Stage> stages;
  Nanos total{0};
  for (std::size_t i = 0; i < f.node.size(); ++i) {
    const YAML::Node item = f.node[i];
    const Field it{fmt::format("{}[{}]", f.path, i + 1), item, item.Mark(), item.Mark()};
    const Fields s = OPENLOOP_TRY(Fields::read(doc, it, {"duration", "target"}, "a stage"));
    const Field* d = s.find("duration");
    const Field* t = s.find("target");
    if (d == nullptr || t == nullptr) {
      return usage_error(fmt::format(
          "{}: a stage needs duration and target, e.g. {{duration: 30s, target: 100/s}}", where(doc, it)));
    }
    const Nanos duration = OPENLOOP_TRY(duration_at(doc, *d));
    const std::string rate = OPENLOOP_TRY(scalar(doc, *t, "use a rate such as 100/s"));
    stages.push_back(Stage{duration, OPENLOOP_TRY(parse_rate(rate, where(doc, *t)))});
    if (duration > Nanos::max() / 2 - total) {
      return usage_error(fmt::format("{}: the stages add up to more than ~146 years", where(doc, *d)));
    }
    total += duration;
  }
  if (total == Nanos(0)) {
    return usage_error(fmt::format(
        "{}: the stages add up to zero duration; give at least one stage a duration", where(doc, f)));
  }
  return RateProfile::from_stages(std::move(stages), start_rate);
}

// `rate` (or `session_rate`) held for `duration`.
Result<RateProfile> constant_profile(const Doc& doc, const Fields& fields, const Field& rate,
                                     std::string_view rate_key) {
  if (const Field* start_rate = fields.find("start_rate")) {
    return usage_error(
        fmt::format("{}: start_rate applies to stages only; remove it", where(doc, *start_rate)));
  }
  const std::string text = OPENLOOP_TRY(scalar(doc, rate, "use a rate such as 500/s or 30000/m"));
  const double r = OPENLOOP_TRY(parse_rate(text, where(doc, rate)));
  if (r <= 0) return usage_error(fmt::format("{}: \"{}\" must be above 0", where(doc, rate), text));
  const Field* duration = fields.find("duration");
  if (duration == nullptr) {
    return usage_error(fmt::format("{}: no duration; with {} give duration: 1m (or use stages)",
                                   where(doc, fields.self()), rate_key));
  }
  const Nanos d = OPENLOOP_TRY(duration_at(doc, *duration));
  if (d == Nanos(0)) return usage_error(fmt::format("{}: must be above 0, e.g. 30s", where(doc, *duration)));
  return RateProfile::constant(r, d);
}

// `stages` as one string or a list, from `start_rate`; their total is the duration.
Result<RateProfile> staged_profile(const Doc& doc, const Fields& fields, const Field& stages) {
  if (const Field* duration = fields.find("duration")) {
    return usage_error(
        fmt::format("{}: with stages the duration is their total; remove duration", where(doc, *duration)));
  }
  double start = 0;
  if (const Field* start_rate = fields.find("start_rate")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *start_rate, "use a rate such as 10/s"));
    start = OPENLOOP_TRY(parse_rate(text, where(doc, *start_rate)));
  }
  if (stages.node.IsScalar())
    return RateProfile::parse_stages(stages.node.Scalar(), where(doc, stages), start);
  return stages_list(doc, stages, start);
}

Result<RateProfile> read_profile(const Doc& doc, const Fields& fields, std::string_view rate_key) {
  const Field* rate = fields.find(rate_key);
  const Field* stages = fields.find("stages");
  if (rate != nullptr && stages != nullptr) {
    return usage_error(fmt::format("{}: give {} or stages, not both", where(doc, *stages), rate_key));
  }
  if (rate != nullptr) return constant_profile(doc, fields, *rate, rate_key);
  if (stages != nullptr) return staged_profile(doc, fields, *stages);
  return usage_error(
      fmt::format("{}: no {} or stages; give {}: 100/s with duration: 1m, or stages: 30s:100/s,1m:500/s",
                  where(doc, fields.self()), rate_key, rate_key));
}

Result<void> read_arrivals(const Doc& doc, const Fields& fields, ScenarioPlan& s, std::string_view rate_key) {
  s.profile = OPENLOOP_TRY(read_profile(doc, fields, rate_key));
  s.duration = s.profile.duration();
  if (const Field* f = fields.find("arrival")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *f, "use constant or poisson"));
    s.arrival = OPENLOOP_TRY(parse_arrival_kind(text, where(doc, *f)));
  }
  if (const Field* f = fields.find("max_sessions"))
    s.max_sessions = OPENLOOP_TRY(whole_number(doc, *f, 1, 1u << 30));
  return {};
}

Result<void> read_users(const Doc& doc, const Fields& fields, ScenarioPlan& s) {
  const Field* vus = fields.find("vus");
  if (vus == nullptr) {
    return usage_error(fmt::format("{}: no vus; {} {} scenario needs vus: N (the number of users)",
                                   where(doc, fields.self()), article(s.model), to_string(s.model)));
  }
  s.vus = OPENLOOP_TRY(whole_number(doc, *vus, 1, 10'000'000));
  const Field* duration = fields.find("duration");
  if (duration == nullptr) {
    return usage_error(fmt::format("{}: no duration; give duration: 1m", where(doc, fields.self())));
  }
  s.duration = OPENLOOP_TRY(duration_at(doc, *duration));
  if (s.duration == Nanos(0))
    return usage_error(fmt::format("{}: must be above 0, e.g. 30s", where(doc, *duration)));
  if (s.model != ModelKind::pacing) return {};
  const Field* pacing = fields.find("pacing");
  const Field* max_rate = fields.find("max_rate");
  if ((pacing == nullptr) == (max_rate == nullptr)) {
    return usage_error(
        fmt::format("{}: {}; a pacing scenario needs pacing: 2s (per user) or max_rate: 100/s (in "
                    "all), not both",
                    where(doc, pacing != nullptr ? *max_rate : fields.self()),
                    pacing != nullptr ? "both pacing and max_rate" : "no pacing or max_rate"));
  }
  if (pacing != nullptr) {
    s.pacing = OPENLOOP_TRY(duration_at(doc, *pacing));
    if (s.pacing == Nanos(0))
      return usage_error(fmt::format("{}: must be above 0, e.g. 2s", where(doc, *pacing)));
    return {};
  }
  const std::string text = OPENLOOP_TRY(scalar(doc, *max_rate, "use a rate such as 100/s"));
  s.max_rate = OPENLOOP_TRY(parse_rate(text, where(doc, *max_rate)));
  if (s.max_rate <= 0)
    return usage_error(fmt::format("{}: \"{}\" must be above 0", where(doc, *max_rate), text));
  return {};
}

Result<std::size_t> request_named(const Doc& doc, const YAML::Mark& mark, const std::string& path,
                                  const std::string& name, const WorkloadPlan& plan) {
  if (auto index = plan.find_request(name)) return *index;
  std::vector<std::string_view> names;
  for (const RequestTemplate& r : plan.requests) names.push_back(r.name());
  return usage_error(fmt::format("{}: \"{}\" is not a request of this file; its requests are {}",
                                 doc.where(mark, path), name, fmt::join(names, ", ")));
}

Result<RequestMix> read_mix(const Doc& doc, const Field& f, const WorkloadPlan& plan) {
  const Fields mix = OPENLOOP_TRY(Fields::read_named(doc, f, "a mix (request name: weight)"));
  if (mix.entries().empty()) {
    return usage_error(
        fmt::format("{}: the mix is empty; give request: weight lines, e.g. get_item: 9", where(doc, f)));
  }
  std::vector<RequestMix::Entry> entries;
  for (const auto& [name, weight] : mix.entries()) {
    const std::size_t request = OPENLOOP_TRY(request_named(doc, weight.key_mark, f.path, name, plan));
    entries.push_back(
        {request, OPENLOOP_TRY(positive_number(doc, weight, "a weight is a number above 0, e.g. 9"))});
  }
  return RequestMix(std::move(entries));
}

Result<Step> read_step(const Doc& doc, const Field& item, const ScenarioPlan& s, const WorkloadPlan& plan) {
  if (item.node.IsScalar()) {
    return Step{OPENLOOP_TRY(request_named(doc, item.mark, item.path, item.node.Scalar(), plan)), s.think, {},
                where(doc, item)};
  }
  const Fields step = OPENLOOP_TRY(
      Fields::read(doc, item, {"request", "think", "capture", "check", "on_fail"}, "a step"));
  const Field* request = step.find("request");
  if (request == nullptr) {
    return usage_error(fmt::format(
        "{}: the step names no request; write - NAME or - {{request: NAME, think: 1s}}", where(doc, item)));
  }
  const std::string name = OPENLOOP_TRY(scalar(doc, *request, "use the name of a request"));
  Step out{OPENLOOP_TRY(request_named(doc, request->mark, request->path, name, plan)), s.think, {},
           where(doc, item)};
  if (const Field* think = step.find("think")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *think, "use e.g. 1s, exp:1s or uniform:0.5s..1.5s"));
    out.think = OPENLOOP_TRY(DurationDistribution::parse(text, where(doc, *think)));
  }
  out.flow = OPENLOOP_TRY(read_step_flow(doc, step, plan.variables));
  return out;
}

Result<std::vector<Step>> read_steps(const Doc& doc, const Field& f, const ScenarioPlan& s,
                                     const WorkloadPlan& plan) {
  if (!f.node.IsSequence() || f.node.size() == 0) {
    return usage_error(fmt::format("{}: found {}; steps are a list: - NAME or - {{request: NAME, think: 1s}}",
                                   where(doc, f),
                                   f.node.IsSequence() ? "an empty list" : describe_kind(f.node)));
  }
  std::vector<Step> steps;
  for (std::size_t i = 0; i < f.node.size(); ++i) {
    const YAML::Node node = f.node[i];
    const Field item{fmt::format("{}[{}]", f.path, i + 1), node, node.Mark(), node.Mark()};
    steps.push_back(OPENLOOP_TRY(read_step(doc, item, s, plan)));
  }
  return steps;
}

// `cookies: on|off`: each session's (or iteration's) cookie jar; only steps carry one.
Result<bool> read_cookies(const Doc& doc, const Field& f, const ScenarioPlan& s) {
  constexpr std::string_view k_accepted = "use on (a cookie jar per session, the default) or off";
  const std::string text = OPENLOOP_TRY(scalar(doc, f, k_accepted));
  bool on = false;
  if (text == "on" || text == "true") {
    on = true;
  } else if (text != "off" && text != "false") {
    return usage_error(fmt::format("{}: \"{}\" is not on or off; {}", where(doc, f), text, k_accepted));
  }
  if (s.steps.empty()) {
    return usage_error(fmt::format("{}: a cookie jar belongs to a session's steps; this scenario has a {} "
                                   "(give steps: [NAME, ...], or remove cookies)",
                                   where(doc, f), s.mix.entries().size() > 1 ? "mix" : "single request"));
  }
  return on;
}

Result<void> read_requests(const Doc& doc, const Fields& fields, ScenarioPlan& s, const WorkloadPlan& plan) {
  const Field* mix = fields.find("mix");
  const Field* request = fields.find("request");
  const Field* steps = fields.find("steps");
  const int given = (mix != nullptr ? 1 : 0) + (request != nullptr ? 1 : 0) + (steps != nullptr ? 1 : 0);
  const std::string_view choices = s.model == ModelKind::sessions ? "steps: [NAME, ...]"
                                   : s.model == ModelKind::open
                                       ? "mix: {NAME: weight, ...} or request: NAME"
                                       : "mix: {NAME: weight, ...}, request: NAME or "
                                         "steps: [NAME, ...]";
  if (given != 1) {
    return usage_error(fmt::format("{}: {}; give {}", where(doc, fields.self()),
                                   given == 0 ? "no requests" : "more than one of mix, request and steps",
                                   choices));
  }
  if (mix != nullptr) {
    s.mix = OPENLOOP_TRY(read_mix(doc, *mix, plan));
  } else if (request != nullptr) {
    const std::string name = OPENLOOP_TRY(scalar(doc, *request, "use the name of a request"));
    s.mix = RequestMix({{OPENLOOP_TRY(request_named(doc, request->mark, request->path, name, plan)), 1.0}});
  } else {
    s.steps = OPENLOOP_TRY(read_steps(doc, *steps, s, plan));
  }
  return {};
}

Result<bool> on_off(const Doc& doc, const Field& f) {
  const std::string text = OPENLOOP_TRY(scalar(doc, f, "use true or false"));
  if (text == "true" || text == "on") return true;
  if (text == "false" || text == "off") return false;
  return usage_error(fmt::format("{}: \"{}\" is not accepted; use true or false", where(doc, f), text));
}

// A list of names, or one name.
Result<std::vector<std::string>> names(const Doc& doc, const Field& f) {
  constexpr std::string_view k_accepted = "use a name or a list of names, e.g. [Authorization]";
  if (!f.node.IsSequence()) return std::vector<std::string>{OPENLOOP_TRY(scalar(doc, f, k_accepted))};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < f.node.size(); ++i) {
    const YAML::Node item = f.node[i];
    out.push_back(OPENLOOP_TRY(scalar(doc, Field{fmt::format("{}[{}]", f.path, i + 1), item, item.Mark(), item.Mark()},
                                      k_accepted)));
  }
  return out;
}

// The replay arrival's own keys (the trace, its format, how it is replayed) as a ReplayRequest.
Result<ReplayRequest> replay_request(const Doc& doc, const Fields& r, const Field& file,
                                     const std::filesystem::path& base_dir, std::uint64_t seed) {
  ReplayRequest req;
  const std::string path = OPENLOOP_TRY(scalar(doc, file, "use the path of a trace file (relative to this plan)"));
  const std::filesystem::path p(path);
  req.input.path = p.is_relative() ? (base_dir / p).string() : path;
  req.input.seed = seed;
  if (const Field* f = r.find("format")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *f, "use auto, nginx, apache, har or jsonl"));
    req.input.format = OPENLOOP_TRY(parse_trace_format(text, where(doc, *f)));
  }
  if (const Field* f = r.find("log_format")) {
    req.input.log_format = OPENLOOP_TRY(scalar(doc, *f, "use the log's format in nginx's (or Apache's) syntax"));
    if (req.input.format == TraceFormat::jsonl || req.input.format == TraceFormat::har) {
      return usage_error(fmt::format("{}: applies to nginx and apache logs, not to format {}", where(doc, *f),
                                     to_string(req.input.format)));
    }
    // A log format given names a log: nginx's unless format: apache says Apache's syntax.
    if (req.input.format == TraceFormat::automatic) req.input.format = TraceFormat::nginx;
  }
  if (const Field* f = r.find("skip_bad")) req.input.skip_bad = OPENLOOP_TRY(on_off(doc, *f));
  if (const Field* f = r.find("speed")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *f, "use a factor such as 2 or 0.5"));
    req.options.speed = OPENLOOP_TRY(parse_replay_speed(text, where(doc, *f)));
  }
  if (const Field* f = r.find("max_gap")) {
    req.options.max_gap = OPENLOOP_TRY(duration_at(doc, *f));
    if (req.options.max_gap.count() == 0)
      return usage_error(fmt::format("{}: must be above 0, e.g. 5s", where(doc, *f)));
  }
  if (const Field* f = r.find("from")) req.options.from = OPENLOOP_TRY(duration_at(doc, *f));
  if (const Field* f = r.find("to")) {
    req.options.to = OPENLOOP_TRY(duration_at(doc, *f));
    if (req.options.from && *req.options.to <= *req.options.from)
      return usage_error(fmt::format("{}: to is not after from", where(doc, *f)));
  }
  if (const Field* f = r.find("reorder_window")) req.options.window = OPENLOOP_TRY(duration_at(doc, *f));
  if (const Field* f = r.find("loop")) req.loop = OPENLOOP_TRY(on_off(doc, *f));
  if (const Field* f = r.find("keep_headers")) req.keep_headers = OPENLOOP_TRY(names(doc, *f));
  if (const Field* f = r.find("redact_params")) req.redact_params = OPENLOOP_TRY(names(doc, *f));
  if (const Field* f = r.find("session_key")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *f, "use ip, header:NAME, cookie:NAME or field"));
    req.options.session_key = OPENLOOP_TRY(parse_session_key(text, where(doc, *f)));
  }
  return req;
}

// A trace's errors name the flags of `run --replay`; under a plan's replay arrival the same text names the
// arrival's keys instead, so an error reads alike from both (docs/replay.md).
std::string in_plan_words(std::string message) {
  constexpr std::pair<std::string_view, std::string_view> k_words[] = {{"--replay-log-format", "log_format"},
                                                                       {"--replay-format", "format"},
                                                                       {"--skip-bad", "skip_bad: true"},
                                                                       {"--from/--to", "from/to"}};
  for (const auto& [flag, key] : k_words) {
    for (auto at = message.find(flag); at != std::string::npos; at = message.find(flag, at + key.size()))
      message.replace(at, flag.size(), key);
  }
  return message;
}

// `arrival: {replay: FILE, ...}`: a recorded trace is the open scenario's arrivals and requests, read whole
// and checked now (docs/replay.md). Its length is the trace's (over speed), or `duration` with loop.
Result<void> read_replay(const Doc& doc, const Fields& fields, const Field& arrival,
                         const std::filesystem::path& base_dir, ScenarioPlan& s) {
  const Fields r = OPENLOOP_TRY(Fields::read(doc, arrival,
                                             {"replay", "format", "log_format", "speed", "loop", "max_gap", "from",
                                              "to", "reorder_window", "keep_headers", "redact_params", "skip_bad",
                                              "session_key"},
                                             "a replay arrival"));
  for (const std::string_view key : {"rate", "stages", "start_rate", "mix", "request"}) {
    if (const Field* f = fields.find(key)) {
      const bool timing = key != "mix" && key != "request";
      return usage_error(fmt::format("{}: not with a replay arrival: the trace gives {}; remove {}",
                                     doc.where(f->key_mark, f->path),
                                     timing ? "the schedule (speed: scales its times)" : "the requests", key));
    }
  }
  const Field* file = r.find("replay");
  if (file == nullptr) {
    return usage_error(fmt::format(
        "{}: no replay; a replay arrival is {{replay: FILE, speed: 1, loop: false}} (an nginx or Apache log, "
        "a HAR file or JSONL; see docs/replay.md)",
        where(doc, arrival)));
  }
  ReplayRequest req = OPENLOOP_TRY(replay_request(doc, r, *file, base_dir, s.seed));
  auto scanned = scan_replay(std::move(req));
  if (!scanned) {
    return tl::unexpected(Error{scanned.error().code, fmt::format("{}: {}", where(doc, *file),
                                                                  in_plan_words(scanned.error().message))});
  }
  auto plan = std::make_shared<const ReplayPlan>(std::move(*scanned));
  const Field* duration = fields.find("duration");
  if (plan->request.loop) {
    if (plan->counts.records < 2) {
      return usage_error(fmt::format("{}: the trace has {} record to replay; a loop needs at least two",
                                     where(doc, *r.find("loop")), plan->counts.records));
    }
    if (duration == nullptr) {
      return usage_error(
          fmt::format("{}: no duration; a looped replay lasts duration: 10m", where(doc, fields.self())));
    }
    s.duration = OPENLOOP_TRY(duration_at(doc, *duration));
    if (s.duration == Nanos(0))
      return usage_error(fmt::format("{}: must be above 0, e.g. 10m", where(doc, *duration)));
  } else {
    if (duration != nullptr) {
      return usage_error(fmt::format(
          "{}: a replay lasts its trace's span (over speed); duration sets the length with loop: true, and "
          "from/to select part of the trace",
          where(doc, *duration)));
    }
    s.duration = plan->once_length();
  }
  s.profile = plan->mean_profile(s.duration);
  s.replay = std::move(plan);
  return {};
}

}  // namespace

Result<std::vector<Step>> read_once_steps(const Doc& doc, const Field& field, const WorkloadPlan& plan) {
  std::vector<Step> steps = OPENLOOP_TRY(read_steps(doc, field, ScenarioPlan{}, plan));
  for (const Step& step : steps) {
    if (!step.think.is_zero()) {
      return usage_error(fmt::format("{}: think does not apply to {} steps: they run one after another, once; "
                                     "remove think",
                                     step.where, field.path));
    }
  }
  return steps;
}

Result<ScenarioPlan> read_scenario(const Doc& doc, const Field& field, const std::string& name,
                                   std::size_t index, const WorkloadPlan& plan,
                                   const std::filesystem::path& base_dir) {
  const Fields fields = OPENLOOP_TRY(Fields::read(
      doc, field,
      {"model", "start", "duration", "rate", "session_rate", "stages", "start_rate", "arrival", "seed", "vus",
       "think", "pacing", "max_rate", "max_sessions", "mix", "request", "steps", "cookies", "data"},
      "a scenario"));
  ScenarioPlan s;
  s.name = name;
  s.model = OPENLOOP_TRY(read_model(doc, fields));
  OPENLOOP_TRY_VOID(check_applicable(doc, fields, s.model));
  s.seed = plan.seed + index;
  if (const Field* f = fields.find("seed")) s.seed = OPENLOOP_TRY(whole_number(doc, *f, 0, UINT64_MAX));
  if (const Field* f = fields.find("start")) s.start = OPENLOOP_TRY(duration_at(doc, *f));
  if (const Field* f = fields.find("think")) {
    const std::string text = OPENLOOP_TRY(scalar(doc, *f, "use e.g. 1s, exp:1s or uniform:0.5s..1.5s"));
    s.think = OPENLOOP_TRY(DurationDistribution::parse(text, where(doc, *f)));
  }
  const Field* arrival = fields.find("arrival");
  if (arrival != nullptr && arrival->node.IsMap()) {
    if (s.model != ModelKind::open) {
      return usage_error(fmt::format("{}: a replay is an open scenario's arrival (each record sent at its own "
                                     "time); use model: open",
                                     where(doc, *arrival)));
    }
    OPENLOOP_TRY_VOID(read_replay(doc, fields, *arrival, base_dir, s));
    return s;
  }
  if (s.model == ModelKind::open || s.model == ModelKind::sessions) {
    OPENLOOP_TRY_VOID(read_arrivals(doc, fields, s, s.model == ModelKind::open ? "rate" : "session_rate"));
  } else {
    OPENLOOP_TRY_VOID(read_users(doc, fields, s));
  }
  OPENLOOP_TRY_VOID(read_requests(doc, fields, s, plan));
  if (const Field* f = fields.find("cookies")) s.cookies = OPENLOOP_TRY(read_cookies(doc, *f, s));
  if (const Field* f = fields.find("data")) OPENLOOP_TRY_VOID(check_data(doc, *f, s, plan));
  OPENLOOP_TRY_VOID(check_captured_uses(s, plan, where(doc, fields.self())));
  return s;
}

}  // namespace openloop::workload::yaml
