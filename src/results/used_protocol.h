// The protocol a run actually spoke, from its connections' counts (over TLS, the server's ALPN choice): named
// the same way by the results file, merge's refusal and compare's note.
#pragma once

#include <string>

namespace openloop::results {

struct GeneratorStats;

/// "h1", "h2", "h1+h2" (ALPN chose both), or "none" (no connection became ready, or a file written before
/// protocols were counted).
std::string used_protocol(const GeneratorStats& g);

}  // namespace openloop::results
