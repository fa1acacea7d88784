// Fuzz target: flow steps' JSON paths (src/workload/json_path): the first line of the input is a path, parsed
// as a plan file's capture would be; the rest is a response body the path is looked up in, and a found value
// is decoded.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "workload/json_path.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openloop::workload;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = input.find('\n');
  const std::string_view path_text = input.substr(0, nl);
  const std::string_view body = nl == std::string_view::npos ? std::string_view{} : input.substr(nl + 1);
  auto path = JsonPath::parse(path_text, "json");
  if (!path) {
    // A refused path says what it was given.
    if (path.error().message.empty()) __builtin_trap();
    return 0;
  }
  if (auto value = json_find(body, *path)) {
    // A found value is a view into the body.
    if (!value->raw.empty() && (value->raw.data() < body.data() ||
                                value->raw.data() + value->raw.size() > body.data() + body.size()))
      __builtin_trap();
    std::string text;
    (void)json_text(*value, text);
  }
  return 0;
}
