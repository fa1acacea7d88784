// Fuzz target: `openloop audit FILE` on any bytes: format detection, every reader it picks (hey, ab, JMeter
// CSV and XML, k6 JSON and CSV, Gatling, Vegeta, Locust), both passes and the findings, rendered as text and
// JSON.
#include <cstddef>
#include <cstdint>

#include "audit/audit.h"
#include "audit/audit_json.h"
#include "audit/audit_text.h"
#include "audit_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto a =
      openloop::audit::audit_file(openloop::fuzz::audit_input(data, size), openloop::audit::AuditSettings{});
  if (!a) return 0;
  (void)openloop::audit::render_text(*a);
  (void)openloop::audit::to_json(*a).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}
