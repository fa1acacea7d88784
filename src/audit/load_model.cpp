// Which load model a file shows.
#include "audit/load_model.h"

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::audit {

const char* load_model_name(LoadModel m) {
  switch (m) {
    case LoadModel::closed:
      return "closed";
    case LoadModel::paced:
      return "paced";
    case LoadModel::open:
      return "open";
    case LoadModel::unknown:
      break;
  }
  return "unknown";
}

ModelFinding classify_model(const std::map<std::string, SenderStats>& senders, const ReaderTraits& traits,
                            bool chained, std::int64_t records) {
  ModelFinding f;
  std::int64_t back_to_back = 0, overlaps = 0, waits = 0;
  double sr = 0, sz = 0, srr = 0, srz = 0;
  for (const auto& [name, s] : senders) {
    ++f.senders;
    f.pairs += s.pairs();
    back_to_back += s.back_to_back();
    overlaps += s.overlaps();
    waits += s.waits();
    sr += s.sum_r;
    sz += s.sum_z;
    srr += s.sum_rr;
    srz += s.sum_rz;
  }
  if (f.pairs < 10) {
    if (traits.tool_model == ToolModel::closed) {
      f.model = LoadModel::closed;
      f.evidence = fmt::format(
          "{} is a closed-loop tool (each sender waits for its response); this file {} so the model is the "
          "tool's, not measured",
          traits.tool,
          senders.empty() ? "names no sender and its send stamps are too coarse to chain sends to responses"
                          : "has too few requests per sender to show it");
    } else if (traits.tool_model == ToolModel::open) {
      f.model = LoadModel::open;
      f.evidence = fmt::format(
          "{} sends on its own schedule whatever the responses (an open model by "
          "construction); its file names no sender to show more",
          traits.tool);
    } else {
      f.evidence = senders.empty() ? "the file names no sender, so the load model cannot be told"
                                   : "too few requests per sender to tell the load model";
    }
    return f;
  }
  const double denominator = chained ? static_cast<double>(records) : static_cast<double>(f.pairs);
  f.back_to_back_share = static_cast<double>(back_to_back) / denominator;
  f.overlap_share = static_cast<double>(overlaps) / static_cast<double>(f.pairs);
  const double n = static_cast<double>(waits);
  const double var_r = n > 1 ? srr / n - (sr / n) * (sr / n) : 0;
  f.think_response_slope = var_r > 0 ? (srz / n - (sr / n) * (sz / n)) / var_r : 0;
  const std::string who = chained ? fmt::format(
                                        "{} names no sender: each send was chained to the response that "
                                        "ended just before it",
                                        traits.tool)
                                  : fmt::format("{} senders", f.senders);
  if (f.overlap_share > 0.05) {
    f.model = LoadModel::open;
    f.evidence = fmt::format(
        "{:.0f} % of a sender's requests were sent before its previous response ended: sends "
        "follow a schedule, not the responses",
        100 * f.overlap_share);
  } else if (f.back_to_back_share >= 0.5) {
    f.model = LoadModel::closed;
    f.evidence = fmt::format(
        "{:.0f} % of requests were sent back to back, as the previous response of the same "
        "sender ended ({})",
        100 * f.back_to_back_share, who);
  } else if (chained) {
    f.evidence = fmt::format(
        "only {:.0f} % of sends followed a response's end: {} paced (-q) or its stamps hide "
        "the model, and {} names no worker",
        100 * f.back_to_back_share, traits.tool, traits.tool);
  } else if (f.think_response_slope <= -0.5) {
    f.model = LoadModel::paced;
    f.evidence = fmt::format(
        "each sender waited for its response, and its think time shrank as the response time "
        "grew (slope {:.2f}): a fixed pace, never exceeded while a response is out",
        f.think_response_slope);
  } else {
    f.model = LoadModel::closed;
    f.evidence = fmt::format(
        "each of the {} senders waited for its response, then a think time (slope of think "
        "on response time {:.2f}: not a fixed pace)",
        f.senders, f.think_response_slope);
  }
  return f;
}

}  // namespace openloop::audit
