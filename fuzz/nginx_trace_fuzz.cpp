// Fuzz target: nginx access log lines (src/workload/nginx_log_format + nginx_trace) in the combined format
// and in a $msec / $request_time / header format, read as a trace.
#include "trace_lines.h"
#include "workload/nginx_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openloop::workload;
  for (
      std::string_view format :
      {k_nginx_combined,
       std::string_view(
           R"($remote_addr [$time_local] "$request" $status $msec $request_time "$http_user_agent" "$request_body")")}) {
    auto compiled = NginxLogFormat::parse(format, "fuzz");
    auto parser = NginxTraceParser::create(std::move(*compiled), 1, "fuzz");
    openloop::fuzz::read_all(line_splitter("fuzz", openloop::fuzz::stream_of(data, size)),
                             std::make_unique<NginxTraceParser>(std::move(*parser)));
  }
  return 0;
}
