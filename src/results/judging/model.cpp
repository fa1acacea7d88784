// Names of the load models.
#include "results/judging/model.h"

namespace openloop::results {

const char* to_string(Model m) {
  switch (m) {
    case Model::open:
      return "open";
    case Model::closed:
      return "closed";
    case Model::pacing:
      return "pacing";
    case Model::sessions:
      return "sessions";
    case Model::mixed:
      return "mixed";
    case Model::unknown:
      return "unknown";
  }
  return "open";
}

std::optional<Model> parse_model(std::string_view word) {
  for (const Model m : {Model::open, Model::closed, Model::pacing, Model::sessions, Model::mixed, Model::unknown}) {
    if (word == to_string(m)) return m;
  }
  return std::nullopt;
}

}  // namespace openloop::results
