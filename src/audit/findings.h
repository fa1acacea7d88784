// What an audit finds in a results file: the types every finding is reported in (text, JSON).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "audit/line_source.h"
#include "core/time.h"

namespace openloop::audit {

/// The load model the file shows the tool applied.
enum class LoadModel {
  closed,  ///< each sender's next request waits for its previous response (and a think time)
  paced,   ///< each sender sends on its own schedule, but never while a response is outstanding
  open,    ///< sends on a schedule whatever the latency (a sender's requests overlap)
  unknown  ///< too few requests per sender to tell
};
const char* load_model_name(LoadModel m);

/// Response-time percentiles, nanoseconds.
struct PercentileSet {
  std::int64_t count = 0;
  Nanos p50{0}, p90{0}, p99{0}, p999{0}, max{0};
};

struct ModelFinding {
  LoadModel model = LoadModel::unknown;
  std::string evidence;             ///< one sentence: what in the file shows the model
  std::int64_t senders = 0;         ///< senders with a name (or reconstructed chains) with ≥ 1 request
  std::int64_t pairs = 0;           ///< consecutive requests of one sender
  double back_to_back_share = 0;    ///< of pairs: the next sent within a tolerance of the response's end
  double overlap_share = 0;         ///< of pairs: the next sent before the previous response ended
  double think_response_slope = 0;  ///< least-squares slope of think time on response time (paced: ≈ −1)
};

/// Little's law for a closed loop, N = X·(R + Z), over the whole file.
struct LittleFinding {
  double x_per_s = 0;    ///< X: completions per second over the file's span
  Nanos r_mean{0};       ///< R: mean response time
  Nanos z_mean{0};       ///< Z: mean think time between a response and the same sender's next send
  double n = 0;          ///< N = X·(R + Z): the concurrency the throughput and times imply
  double in_flight = 0;  ///< X·R: requests outstanding on average
  std::string z_source;  ///< how Z was found ("the senders' gaps", "assumed 0: ...")
};

/// One slice of the run by send time.
struct FeedbackBin {
  Nanos offset{0};  ///< start of the bin since the first send
  std::int64_t sent = 0;
  double sent_per_s = 0;
  Nanos p99{0};  ///< of the responses to the requests sent in the bin (0 when none)
};

/// Offered rate against latency over time.
struct FeedbackFinding {
  Nanos bin_width{0};
  std::vector<FeedbackBin> bins;
  bool seen = false;  ///< the rate fell by ≥ 20 % where p99 rose at least twofold
  double healthy_rate = 0,
         worst_rate = 0;  ///< per second: the bins' median, and the bin with the highest p99
  Nanos healthy_p99{0}, worst_p99{0};
  std::string sentence;  ///< "arrivals fell 61 % while p99 rose from 40 ms to 1.9 s", or why not
};

/// Coordinated omission: what the senders' blocking hid, corrected the HdrHistogram way.
struct OmissionFinding {
  bool applicable = false;
  std::string why;             ///< the expected interval used and why; or why no correction applies
  Nanos expected_interval{0};  ///< median over senders of their own expected interval
  std::int64_t blocked = 0;    ///< requests that held their sender for ≥ 2 of its expected intervals
  std::int64_t missing = 0;    ///< sends those blocks kept from happening (backfilled samples)
  PercentileSet uncorrected, corrected;
};

/// An open-model tool's own lateness: how late its sends left against the schedule its numbered sends imply.
struct SendLatenessFinding {
  bool applicable = false;
  std::string why;                      ///< how the schedule was fitted; or why there is none
  Nanos interval{0};                    ///< the fitted schedule's interval
  double rate = 0;                      ///< per second (1 / interval)
  std::int64_t late_over_interval = 0;  ///< sends later than one interval
  PercentileSet lateness;
  std::string
      sentence;  ///< "Vegeta sent p99 38 ms late against its 1000/s schedule; 412 sends more than ..."
};

/// The run that would answer the question honestly.
struct HonestRun {
  double rate = 0;          ///< per second
  std::string rate_source;  ///< "the achieved rate of the healthy stretches", ...
  Nanos duration{0};
  std::string command;  ///< `openloop run TARGET --rate R/s -d D ...`
};

struct AuditResult {
  std::string path, tool;
  std::int64_t records = 0, failures = 0;
  BadLines bad;
  std::int64_t out_of_order = 0;
  Nanos span{0};  ///< first send to last response end
  ModelFinding model;
  LittleFinding little;
  FeedbackFinding feedback;
  OmissionFinding omission;
  SendLatenessFinding lateness;
  HonestRun honest;
  std::string verdict;
  std::vector<std::string> limits;  ///< what this file cannot show, one sentence each
};

}  // namespace openloop::audit
