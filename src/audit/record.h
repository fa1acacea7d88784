// One request as another tool's results file records it: when it was sent, how long it took, who sent it.
#pragma once

#include <cstdint>
#include <string>

#include "core/time.h"

namespace openloop::audit {

/// A request read from a results file. Times are the tool's own: `start` is when the tool sent (not when it
/// meant to send: no closed-loop tool records that), `duration` its response time from that send.
struct Record {
  Nanos start{0};      ///< since the Unix epoch, or since the run's start when the file holds only offsets
  Nanos duration{0};   ///< ≥ 0
  std::string thread;  ///< the sender (JMeter thread, k6 VU, Gatling user); empty when the file does not say
  bool ok = true;      ///< the tool's own success flag (or a 2xx/3xx status where it has none)
  std::string label;   ///< the request's name or URL; empty when the file has none
  std::int64_t seq = -1;  ///< the tool's number for this send in its schedule (Vegeta's `seq`); −1: none
};

}  // namespace openloop::audit
