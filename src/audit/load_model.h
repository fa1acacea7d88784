// Which load model a file shows: from each sender's back-to-back sends, overlaps and think times.
#pragma once

#include <map>
#include <string>

#include "audit/findings.h"
#include "audit/record_reader.h"
#include "audit/sender_stats.h"

namespace openloop::audit {

/// Classifies the senders' evidence: overlapping sends (> 5 % of pairs) → open; most sends back to back (≥ 50
/// %) → closed; think time falling as response time rises (slope ≤ −0.5) → paced; waits otherwise → closed
/// with think time. With fewer than 10 pairs, or no senders, the tool's own model is reported as such.
/// `chained`: the senders were reconstructed from back-to-back sends, so the share is of all records.
ModelFinding classify_model(const std::map<std::string, SenderStats>& senders, const ReaderTraits& traits,
                            bool chained, std::int64_t records);

}  // namespace openloop::audit
