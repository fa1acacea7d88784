// `openloop lab`: placeholder until the lab lands.
#include "cli/command.h"

namespace openloop::cli {
Action setup_lab(CLI::App& sub) {
  (void)sub;
  return [] { return 4; };
}
}  // namespace openloop::cli
