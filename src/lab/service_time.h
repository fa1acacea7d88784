// The lab's service-time distributions are the workload module's duration distributions (one parser, one
// sampler).
#pragma once

#include "workload/duration_distribution.h"

namespace openloop::lab {
using ServiceTime = workload::DurationDistribution;
}  // namespace openloop::lab
