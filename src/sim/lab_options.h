// `--lab '<lab options>'`: the lab service's own flags, as one string, parsed by the lab's settings table.
#pragma once

#include <string_view>

#include "core/error.h"
#include "lab/model_config.h"

namespace openloop::sim {

/// Parses the flags of `openloop lab` from one string ("--workers 4 --service exp:10ms --queue lifo"), each
/// with lab::apply_setting, so every lab flag means what it means to the lab server: "--NAME VALUE",
/// "--NAME=VALUE", or "--NAME" alone for a switch (--cancel). `what` names the input in errors ("--lab").
/// Settings the simulation has no use for (--listen, --duration, --header-timeout) are accepted and have no
/// effect. Errors (usage): an unknown option (listing the accepted ones), a missing or bad value (the lab's
/// own message), --burn (it spends real CPU for service time; simulated service takes virtual time), --auth (the
/// login flow is the lab server's only).
Result<lab::LabConfig> parse_lab_options(std::string_view text, std::string_view what);

}  // namespace openloop::sim
