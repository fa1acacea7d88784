// The run pipeline's non-template parts.
#include "cli/run_pipeline.h"

#include <fmt/format.h>

namespace openloop::cli {

int report_error(const std::string& command, const Error& e) {
  fmt::print(stderr, "{}: {}\n", command, e.message);
  return static_cast<int>(e.code);
}

std::string json_text(const nlohmann::json& j) {
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace openloop::cli
