// Fuzz target: Apache access log lines (src/workload/apache_log_format, read by nginx_trace) in the default
// combined/common formats and a %{msec}t / %D one; the first line of the input is also tried as a LogFormat.
#include "trace_lines.h"
#include "workload/apache_log_format.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openloop::workload;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (std::string_view format :
       {std::string_view(), std::string_view(R"(%h %{end:msec}t %D "%m %U%q %H" %>s %b "%{Cookie}i")"),
        text.substr(0, text.find('\n'))}) {
    auto parser = apache_trace_parser(format, 1, "fuzz");
    if (!parser) continue;
    openloop::fuzz::read_all(line_splitter("fuzz", openloop::fuzz::stream_of(data, size)),
                             std::move(*parser));
  }
  return 0;
}
