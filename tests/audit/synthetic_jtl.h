// Synthetic JMeter CSV JTLs for the audit's tests: closed, paced and open senders against a server that
// stalls.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace openloop::audit::testing {

inline const char* k_jtl_header = "timeStamp,elapsed,label,responseCode,threadName,success\n";

/// `threads` closed-loop senders (no think time), `service_ms` per request, for `run_ms`; the server holds
/// every request in flight or arriving during [stall_from_ms, stall_to_ms) until stall_to_ms. Sends start at
/// an epoch of 1.7e12 ms; thread k starts k·service/threads ms in. Rows are written per thread, as a
/// thread-per-file writer would not, to check that order across threads does not matter.
inline std::string closed_jtl(int threads, std::int64_t service_ms, std::int64_t run_ms,
                              std::int64_t stall_from_ms, std::int64_t stall_to_ms) {
  std::string out = k_jtl_header;
  const std::int64_t epoch = 1'700'000'000'000LL;
  for (int k = 0; k < threads; ++k) {
    std::int64_t t = k * service_ms / threads;
    while (t < run_ms) {
      std::int64_t end = t + service_ms;
      if (t < stall_to_ms && end > stall_from_ms) end = std::max(end, stall_to_ms);
      out += fmt::format("{},{},GET /,200,Users 1-{},true\n", epoch + t, end - t, k + 1);
      t = end;
    }
  }
  return out;
}

/// One paced sender: a send every `pace_ms`, response times cycling through 5..14 ms.
inline std::string paced_jtl(int requests, std::int64_t pace_ms) {
  std::string out = k_jtl_header;
  for (int i = 0; i < requests; ++i) {
    out += fmt::format("{},{},GET /,200,Paced 1-1,true\n", 1'700'000'000'000LL + i * pace_ms, 5 + i % 10);
  }
  return out;
}

/// One "sender" whose sends overlap: a send every 5 ms, each taking 20 ms.
inline std::string open_jtl(int requests) {
  std::string out = k_jtl_header;
  for (int i = 0; i < requests; ++i) {
    out += fmt::format("{},20,GET /,200,Arrivals 1-1,true\n", 1'700'000'000'000LL + i * 5);
  }
  return out;
}

}  // namespace openloop::audit::testing
