// The load model a run used: one enum from the plan to the reports (results files spell it as a word).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace openloop::results {

/// Open: arrivals follow the schedule whatever the target does. Closed: `users` each send, wait (think),
/// repeat. Pacing: closed users that start an iteration at most every `pacing` (and/or all together at most
/// `max_rate`). Sessions (partly open): sessions arrive by the schedule; each runs `steps` in order, waiting
/// for each response. Mixed: only for results that combine scenarios of different models; unknown: results read
/// from a .hlog, which does not record the model. A plan is always one of the first four.
enum class Model : std::uint8_t { open, closed, pacing, sessions, mixed, unknown };

/// "open", "closed", "pacing", "sessions", "mixed", "unknown": the word results files use.
const char* to_string(Model m);
/// The model a results file names; nullopt for any other word.
std::optional<Model> parse_model(std::string_view word);
/// Closed and pacing users wait for each response before the next request: their response time is service time.
inline bool waits_for_responses(Model m) { return m == Model::closed || m == Model::pacing; }

}  // namespace openloop::results
