// Parsing of --trigger and the lab settings a stall or dependency trigger applies.
#include "procedures/probe/probe_trigger.h"
#include "procedures/probe/probe_format.h"

#include <fmt/format.h>

#include "core/units.h"
#include "workload/duration_distribution.h"

namespace openloop::procedures {
namespace {

constexpr std::string_view k_forms =
    "use load:RATE (e.g. load:600/s), stall or stall:DURATION (e.g. stall:10s), dependency:+DURATION (raise "
    "the lab's "
    "dependency time, e.g. dependency:+500ms) or dependency:DURATION (set it)";

using workload::DurationDistribution;

// "lognormal:1ms,0.5" → "0.5"; "" when there is no comma.
std::string_view after_comma(std::string_view text) {
  const std::size_t comma = text.find(',');
  return comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
}

Result<std::string> raised(const DurationDistribution& d, std::string_view text, Nanos by,
                           std::string_view what) {
  switch (d.kind()) {
    case DurationDistribution::Kind::constant:
      return DurationDistribution::constant(d.mean() + by).to_string();
    case DurationDistribution::Kind::exponential:
      return DurationDistribution::exponential(d.mean() + by).to_string();
    case DurationDistribution::Kind::lognormal: {
      const auto sigma = after_comma(text);
      return fmt::format("lognormal:{},{}", DurationDistribution::constant(d.mean() + by).to_string(), sigma);
    }
    case DurationDistribution::Kind::uniform: {
      const std::size_t colon = text.find(':'), dots = text.find("..");
      if (colon == std::string_view::npos || dots == std::string_view::npos) break;
      const Nanos lo = OPENLOOP_TRY(parse_duration(text.substr(colon + 1, dots - colon - 1), what));
      const Nanos hi = OPENLOOP_TRY(parse_duration(text.substr(dots + 2), what));
      return DurationDistribution::uniform(lo + by, hi + by).to_string();
    }
  }
  return usage_error(fmt::format("{}: cannot raise the lab's dependency \"{}\"", what, text));
}

}  // namespace

Result<Trigger> parse_trigger(std::string_view text, std::string_view what) {
  Trigger t;
  t.text.assign(text);
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string_view value =
      colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  const auto bad = [&](std::string_view why) {
    return usage_error(fmt::format("{}: \"{}\" {}; {}", what, text, why, k_forms));
  };
  if (kind == "load") {
    t.kind = Trigger::Kind::load;
    auto rate = parse_rate(value, what);
    if (!rate || *rate <= 0) return bad("needs a rate greater than 0");
    t.rate = *rate;
  } else if (kind == "stall") {
    t.kind = Trigger::Kind::stall;
    if (colon != std::string_view::npos) {
      auto length = parse_duration(value, what);
      if (!length || length->count() <= 0) return bad("needs a stall length greater than 0");
      t.length = *length;
    }
  } else if (kind == "dependency") {
    t.kind = Trigger::Kind::dependency;
    t.relative = !value.empty() && value.front() == '+';
    auto amount = parse_duration(t.relative ? value.substr(1) : value, what);
    if (!amount || (t.relative && amount->count() <= 0))
      return bad("needs a duration (+500ms raises, 500ms sets)");
    t.dependency = *amount;
  } else {
    return bad("is not a trigger");
  }
  return t;
}

Result<std::string> dependency_during(std::string_view current, const Trigger& t) {
  constexpr std::string_view what = "the lab's dependency setting";
  if (!t.relative) return DurationDistribution::constant(t.dependency).to_string();
  if (current.empty() || current == "none") return DurationDistribution::constant(t.dependency).to_string();
  const DurationDistribution d = OPENLOOP_TRY(DurationDistribution::parse(current, what));
  return raised(d, current, t.dependency, what);
}

nlohmann::json stall_list_with(const nlohmann::json& current, Nanos uptime, Nanos length) {
  nlohmann::json list = current.is_array() ? current : nlohmann::json::array();
  // Whole nanoseconds: the lab parses "123456789ns" exactly, so the stall starts at the lab time we read.
  list.push_back(fmt::format("{}ns+{}ns", uptime.count(), length.count()));
  return list;
}

std::string describe(const Trigger& t, Nanos trigger_for) {
  switch (t.kind) {
    case Trigger::Kind::load:
      return fmt::format("offered {} for {}", rate_of(t.rate), format_duration(trigger_for));
    case Trigger::Kind::stall:
      return fmt::format("lab stalled for {}",
                         format_duration(t.length.count() > 0 ? t.length : trigger_for));
    case Trigger::Kind::dependency:
      return fmt::format("lab dependency {}{} for {}", t.relative ? "+" : "set to ",
                         format_duration(t.dependency), format_duration(trigger_for));
  }
  return t.text;
}

}  // namespace openloop::procedures
