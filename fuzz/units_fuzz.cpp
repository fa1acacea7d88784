// Fuzz target: the strings users type (src/core/units rates and durations, stages, distributions, status
// ranges, SLOs) and the formatting of what they parse to.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/units.h"
#include "results/judging/slo.h"
#include "workload/duration_distribution.h"
#include "workload/rate_profile.h"
#include "workload/request_template.h"

// Input: byte 0 picks the parser; the rest is the text.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 6) {
    case 0:
      if (auto rate = openloop::parse_rate(text, "--rate")) (void)openloop::format_rate(*rate);
      break;
    case 1:
      if (auto d = openloop::parse_duration(text, "--duration")) (void)openloop::format_duration(*d);
      break;
    case 2:
      if (auto p = openloop::workload::RateProfile::parse_stages(text, "--stages")) {
        (void)p->cumulative(p->duration() / 2);
        (void)p->rate_at(p->duration() / 3);
      }
      break;
    case 3:
      (void)openloop::workload::DurationDistribution::parse(text, "--think");
      break;
    case 4:
      (void)openloop::workload::parse_status_range(text, "--success");
      break;
    default:
      (void)openloop::results::parse_slo(text, "--slo");
      break;
  }
  return 0;
}
