// The open-model run that would answer the question the audited run asked, and the one-line verdict.
#pragma once

#include <string>

#include "audit/findings.h"

namespace openloop::audit {

/// The rate is the healthy stretches' achieved rate (what the test meant to offer: a closed loop's rate when
/// nothing held it back); the duration the file's span rounded up to a second. `target`: the URL to print
/// (empty: a placeholder, TARGET).
HonestRun honest_run(const AuditResult& a, const std::string& target);

/// One sentence: what the run's p99 was, under which model, and what arrivals at the same rate would have
/// seen (the corrected p99, an estimate), when a correction applies.
std::string verdict(const AuditResult& a);

}  // namespace openloop::audit
