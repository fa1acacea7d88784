// `openloop simulate` (cli/simulate.cpp), declared apart from command.h so adding it rebuilt no other
// command.
#pragma once

#include "cli/command.h"

namespace openloop::cli {

/// `openloop simulate`: a run's plan against the lab's service model in virtual time (cli/simulate.cpp).
Action setup_simulate(CLI::App& sub);

}  // namespace openloop::cli
