// JUnit XML: the document (escaped to well-formed XML 1.0 whatever the input bytes) and the run's cases.
#include "report/junit.h"

#include <cstdint>
#include <ctime>

#include <fmt/format.h>

#include "core/redact.h"
#include "report/text_format.h"
#include "results/judging/generator_tail.h"
#include "results/run_results.h"

namespace openloop::report {

namespace {

const char* element(JunitCase::Status s) {
  switch (s) {
    case JunitCase::Status::failed:
      return "failure";
    case JunitCase::Status::error:
      return "error";
    case JunitCase::Status::skipped:
      return "skipped";
    case JunitCase::Status::passed:
      break;
  }
  return "";
}

std::string seconds(double s) {
  return fmt::format("{:.3f}", s > 0 ? s : 0.0);
}

// An attribute value (newlines and tabs kept as references), and element text.
std::string xml_escape(std::string_view text) {
  return xml::escape(text, true);
}
std::string text_escape(std::string_view text) {
  return xml::escape(text, false);
}

}  // namespace

std::string render_junit(const JunitReport& r) {
  std::size_t failures = 0, errors = 0, skipped = 0;
  for (const auto& c : r.cases) {
    failures += c.status == JunitCase::Status::failed;
    errors += c.status == JunitCase::Status::error;
    skipped += c.status == JunitCase::Status::skipped;
  }
  const std::string counts = fmt::format(R"(tests="{}" failures="{}" errors="{}" skipped="{}" time="{}")",
                                         r.cases.size(), failures, errors, skipped, seconds(r.time_s));
  const std::string suite = xml_escape(r.suite);
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += fmt::format("<testsuites name=\"{}\" {}>\n", suite, counts);
  x += fmt::format("  <testsuite name=\"{}\" {}", suite, counts);
  if (!r.timestamp.empty()) x += fmt::format(" timestamp=\"{}\"", xml_escape(r.timestamp));
  x += ">\n";
  if (!r.properties.empty()) {
    x += "    <properties>\n";
    for (const auto& [name, value] : r.properties)
      x += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name), xml_escape(value));
    x += "    </properties>\n";
  }
  for (const auto& c : r.cases) {
    x += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"0.000\"", xml_escape(c.name), suite);
    if (c.status == JunitCase::Status::passed && c.detail.empty()) {
      x += "/>\n";
      continue;
    }
    x += ">\n";
    if (c.status == JunitCase::Status::passed) {
      x += fmt::format("      <system-out>{}</system-out>\n", text_escape(c.detail));
    } else {
      const char* el = element(c.status);
      x += fmt::format("      <{} message=\"{}\"", el, xml_escape(c.message));
      if (c.status == JunitCase::Status::skipped) {
        x += "/>\n";
      } else {
        x += fmt::format(" type=\"{}\">{}</{}>\n", el, text_escape(c.detail), el);
      }
    }
    x += "    </testcase>\n";
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

std::string junit_timestamp(double unix_s) {
  if (!(unix_s > 0)) return "";
  const auto t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return "";
  char buf[32];
  if (std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm) == 0) return "";
  return buf;
}

JunitCase junit_slo_case(const results::SloResult& s, std::string_view prefix) {
  JunitCase c;
  c.name = fmt::format("{}{}{}", prefix, s.slo.text, s.slo.is_default ? " (default)" : "");
  const std::string bound = fmt::format("{} {}", results::op_text(s.slo.op), s.threshold_text);
  if (!s.evaluated) {
    c.status = JunitCase::Status::failed;
    c.message = fmt::format("{}: not evaluated: {}", s.slo.text, s.measured_text);
  } else if (!s.met) {
    c.status = JunitCase::Status::failed;
    c.message = fmt::format("{}: measured {}, bound {}", s.slo.text, s.measured_text, bound);
  }
  c.detail = c.status == JunitCase::Status::passed
                 ? fmt::format("measured {}, bound {}", s.measured_text, bound)
                 : c.message;
  return c;
}

JunitCase junit_verdict_case(std::string name, bool valid, const std::vector<std::string>& reasons) {
  JunitCase c;
  c.name = std::move(name);
  if (valid) return c;
  c.status = JunitCase::Status::failed;
  c.message = fmt::format("INVALID: {}", reasons.empty() ? std::string("no reason given") : reasons.front());
  if (reasons.size() > 1) c.message += fmt::format(" (and {} more)", reasons.size() - 1);
  for (const auto& reason : reasons) c.detail += "- " + reason + "\n";
  return c;
}

JunitReport junit_for_run(const results::RunResults& r, std::string suite) {
  JunitReport j;
  j.suite = std::move(suite);
  const auto& info = r.info;
  j.properties = {{"target", redact_url(info.target)}};
  if (!info.source.empty()) j.properties.emplace_back("source", info.source);
  j.properties.emplace_back("model", results::to_string(info.model));
  if (info.model == results::Model::open) j.properties.emplace_back("offered_rps", fmt::format("{:.1f}", r.offered_rps()));
  if (info.users > 0) j.properties.emplace_back("users", fmt::format("{}", info.users));
  j.properties.emplace_back("duration_s", fmt::format("{:g}", info.duration_s));
  j.properties.emplace_back("measured_s", fmt::format("{:.3f}", r.measured_s));
  j.properties.emplace_back("warmup_s", fmt::format("{:g}", info.warmup_s));
  j.time_s = r.measured_s + info.warmup_s;
  j.timestamp = junit_timestamp(info.start_unix_s);

  for (const auto& s : r.slos) {
    JunitCase c = junit_slo_case(s);
    if (!r.aborted_by_slo.empty() && r.aborted_by_slo == s.slo.text)
      c.message += " (certain to fail: --abort-on-slo stopped the run)";
    if (const std::string note = results::slo_lateness_note(s, r); !note.empty()) {
      c.message += " (" + note + ")";
      c.detail = c.message;
    }
    j.cases.push_back(std::move(c));
  }
  JunitCase verdict = junit_verdict_case("run verdict", r.verdict.valid, r.verdict.reasons);
  if (r.interrupted) {
    verdict.status = JunitCase::Status::error;
    verdict.message = fmt::format("interrupted after {:.1f} s of {:g} s measured: results are partial",
                                  r.measured_s, info.duration_s);
    verdict.detail = verdict.message + "\n";
  } else if (r.unreachable()) {
    verdict.status = JunitCase::Status::error;
    verdict.message =
        fmt::format("no response from {}: every request failed to connect", redact_url(info.target));
    verdict.detail.clear();
    for (const auto& [kind, example] : r.error_examples) verdict.detail += kind + ": " + example + "\n";
  }
  j.cases.push_back(std::move(verdict));
  return j;
}

}  // namespace openloop::report
