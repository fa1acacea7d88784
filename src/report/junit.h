// JUnit XML reports for CI (--junit FILE): a small struct each command fills (run, ramp, probe) and its
// writer.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "results/judging/slo.h"

namespace openloop::results {
struct RunResults;
}

namespace openloop::report {

/// One <testcase>: an SLO, a verdict, a capacity finding.
struct JunitCase {
  enum class Status : unsigned char { passed, failed, error, skipped };
  std::string name;
  Status status = Status::passed;
  std::string message;  ///< failed/error/skipped: the one-line message attribute (measured value and bound)
  std::string
      detail;  ///< failed/error: the element's text (e.g. the reasons, one a line); passed: system-out
};

/// One <testsuite> inside <testsuites>.
struct JunitReport {
  std::string suite;  ///< e.g. "openloop run"; also every testcase's classname
  /// <properties>: run facts (target redacted, offered rate, duration, ...), in this order.
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<JunitCase> cases;
  double time_s = 0;      ///< the suite's time attribute (seconds, >= 0)
  std::string timestamp;  ///< ISO 8601 without zone ("2026-12-01T17:08:45"), or empty
};

/// The document: <?xml?> declaration, <testsuites> with one <testsuite> (tests/failures/errors/skipped
/// counts, time, timestamp), <properties>, then the cases in order. Valid against the common JUnit schema
/// (Jenkins / Surefire: tests/report/junit.xsd). Never fails.
std::string render_junit(const JunitReport& r);

/// Seconds since the Unix epoch as a JunitReport::timestamp (UTC); empty for 0 or less (unknown).
std::string junit_timestamp(double unix_s);

/// `openloop run`'s report (also a scenario file's run): one case per --slo (met passes; not met or not
/// evaluated fails with the measured value and the bound), then the verdict case ("run verdict": INVALID
/// fails listing the reasons; interrupted or target unreachable is an error). Properties: target (redacted),
/// source, model, offered rate, planned and measured duration, warm-up.
JunitReport junit_for_run(const results::RunResults& r, std::string suite = "openloop run");

/// One case for an SLO judged on a run: "SLO p99<=200ms" ("(default)" added for the default SLO), failing
/// with "p99 measured 212ms, bound <= 200ms" when not met, or "not evaluated: no samples".
JunitCase junit_slo_case(const results::SloResult& s, std::string_view prefix = "SLO ");

/// A verdict case named `name`: valid passes; otherwise a failure "INVALID: N reasons" whose text lists them.
JunitCase junit_verdict_case(std::string name, bool valid, const std::vector<std::string>& reasons);

}  // namespace openloop::report
