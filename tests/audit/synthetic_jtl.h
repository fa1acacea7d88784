// Synthetic JMeter CSV JTLs for the audit's tests: closed, paced and open senders against a server that
// stalls.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace openloop::audit::testing {

inline const char* k_jtl_header = "timeStamp,elapsed,label,responseCode,threadName,success\n";

/// One request of a synthetic run: its sender (0-based), send and response end, ms since the run's start.
struct Sample {
  int thread = 0;
  std::int64_t start_ms = 0, end_ms = 0;
};

/// `threads` closed-loop senders (no think time), `service_ms` per request, for `run_ms`; the server holds
/// every request in flight or arriving during [stall_from_ms, stall_to_ms) until stall_to_ms; thread k starts
/// k·service/threads ms in. Listed per thread, as a thread-per-file writer would not, to check that order
/// across threads does not matter.
inline std::vector<Sample> closed_samples(int threads, std::int64_t service_ms, std::int64_t run_ms,
                                          std::int64_t stall_from_ms, std::int64_t stall_to_ms) {
  std::vector<Sample> out;
  for (int k = 0; k < threads; ++k) {
    std::int64_t t = k * service_ms / threads;
    while (t < run_ms) {
      std::int64_t end = t + service_ms;
      if (t < stall_to_ms && end > stall_from_ms) end = std::max(end, stall_to_ms);
      out.push_back({k, t, end});
      t = end;
    }
  }
  return out;
}

/// Sends start at an epoch of 1.7e12 ms.
inline constexpr std::int64_t k_epoch_ms = 1'700'000'000'000LL;

inline std::string closed_jtl(int threads, std::int64_t service_ms, std::int64_t run_ms,
                              std::int64_t stall_from_ms, std::int64_t stall_to_ms) {
  std::string out = k_jtl_header;
  for (const Sample& s : closed_samples(threads, service_ms, run_ms, stall_from_ms, stall_to_ms)) {
    out += fmt::format("{},{},GET /,200,Users 1-{},true\n", k_epoch_ms + s.start_ms, s.end_ms - s.start_ms,
                       s.thread + 1);
  }
  return out;
}

/// The samples as JMeter's XML JTL (docs/audit.md#jmeter), each with a nested redirect sample.
inline std::string as_jmeter_xml(const std::vector<Sample>& samples) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n";
  for (const Sample& s : samples) {
    out += fmt::format(
        "<httpSample t=\"{}\" lt=\"1\" ts=\"{}\" s=\"true\" lb=\"GET /\" rc=\"200\" tn=\"Users 1-{}\">\n"
        "  <httpSample t=\"1\" ts=\"{}\" s=\"true\" lb=\"redirect\" tn=\"Users 1-{}\"/>\n</httpSample>\n",
        s.end_ms - s.start_ms, k_epoch_ms + s.start_ms, s.thread + 1, k_epoch_ms + s.start_ms, s.thread + 1);
  }
  return out + "</testResults>\n";
}

/// The samples as Gatling's simulation.log, 3.0-3.3's layout (a user id per request) when `user_ids`, else
/// 3.4-3.12's; sorted by response end, as Gatling writes them.
inline std::string as_gatling_log(std::vector<Sample> samples, bool user_ids) {
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.end_ms < b.end_ms; });
  std::string out = fmt::format("RUN\tsynthetic.Simulation\tsynthetic\t{}\t \t{}\n", k_epoch_ms,
                                user_ids ? "3.3.1" : "3.9.5");
  for (const Sample& s : samples) {
    out +=
        fmt::format("REQUEST\t{}\thome\t{}\t{}\tOK\t \n", user_ids ? fmt::format("{}\t", s.thread + 1) : "",
                    k_epoch_ms + s.start_ms, k_epoch_ms + s.end_ms);
  }
  return out;
}

/// The samples as k6's --out csv with timeFormat unix_milli and vu in the metadata column, stamped at the
/// response's end as k6 stamps HTTP samples; sorted by that stamp.
inline std::string as_k6_csv(std::vector<Sample> samples) {
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.end_ms < b.end_ms; });
  std::string out =
      "metric_name,timestamp,metric_value,expected_response,name,scenario,status,extra_tags,metadata\n";
  for (const Sample& s : samples) {
    out += fmt::format("http_req_duration,{},{:.6f},true,home,default,200,,vu={}&iter=0\n",
                       k_epoch_ms + s.end_ms, static_cast<double>(s.end_ms - s.start_ms), s.thread + 1);
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
