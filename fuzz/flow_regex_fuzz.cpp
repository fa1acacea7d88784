// Fuzz target: flow steps' regular expressions (src/workload/regex): the first line of the input is a
// pattern, compiled as a plan file's capture would be; the rest is a response body searched with it, match
// after match.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "workload/regex.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openloop::workload;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = input.find('\n');
  const std::string_view pattern = input.substr(0, nl);
  const std::string_view body = nl == std::string_view::npos ? std::string_view{} : input.substr(nl + 1);
  auto re = Regex::compile(pattern, "regex");
  if (!re) return 0;
  RegexMatch match(re->groups());
  std::size_t from = 0;
  for (int i = 0; i < 64 && from <= body.size() && re->find(body, from, match); ++i) {
    for (std::uint32_t g = 0; g <= re->groups(); ++g) {
      if (auto v = match.group(g);
          v && (v->data() < body.data() || v->data() + v->size() > body.data() + body.size()))
        __builtin_trap();
    }
    const std::size_t end = match.end();
    if (end < from) __builtin_trap();  // the search moves forward
    from = end > from ? end : from + 1;
  }
  return 0;
}
