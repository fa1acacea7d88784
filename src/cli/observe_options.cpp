// --observe: registered once for every command that sends load.
#include "cli/observe_options.h"

#include "cli/run_options.h"

namespace openloop::cli {

void add_observe_option(CLI::App& sub, std::vector<std::string>& specs) {
  sub.add_option("--observe", specs,
                 "Sample the target's USE signals every 100 ms beside the run, one value per interval "
                 "(repeatable): pid:N, process:NAME, host, cgroup:PATH, lab, lab:URL, "
                 "prometheus:URL[#metric,...], self (openloop itself: always added). See docs/observe.md")
      ->type_name("SPEC")
      ->group(help_group::outputs);
}

Result<std::unique_ptr<observe::Observer>> make_observer(const std::vector<std::string>& specs,
                                                         const std::string& target) {
  return observe::Observer::create(specs, target);
}

}  // namespace openloop::cli
