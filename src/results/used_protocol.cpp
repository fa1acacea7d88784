#include "results/used_protocol.h"

#include "results/run_results.h"

namespace openloop::results {

std::string used_protocol(const GeneratorStats& g) {
  if (g.connections_h1 > 0 && g.connections_h2 > 0) return "h1+h2";
  if (g.connections_h2 > 0) return "h2";
  return g.connections_h1 > 0 ? "h1" : "none";
}

}  // namespace openloop::results
