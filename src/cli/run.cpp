// `openloop run`: placeholder until the engine lands.
#include "cli/command.h"

namespace openloop::cli {
Action setup_run(CLI::App& sub) {
  (void)sub;
  return [] { return 4; };
}
}  // namespace openloop::cli
