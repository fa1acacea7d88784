// Server-rendered parts of the HTML report: readable without JavaScript, every number from the results.
#include "report/html/html_sections.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/grpc_status.h"
#include "report/html/html_plan.h"
#include "report/summary.h"
#include "report/text_format.h"
#include "results/judging/generator_tail.h"
#include "results/used_protocol.h"

namespace openloop::report::html {
namespace {

using results::LatencySummary;

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "–"
                    : fmt::format("{:.2f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

// What a closed loop hid in this run: "" unless some measured second completed requests. The requests it
// sent against what users arriving independently at its best second's rate would have sent over the same time
// (the requests it never sent while the server was slow, whose waiting is in no latency here).
std::string closed_loop_hides(const results::RunResults& r) {
  if (r.info.model != results::Model::closed) return "";
  double best_rate = 0, seconds = 0;
  std::uint64_t sent = 0;
  for (const auto& i : r.intervals) {
    if (!(i.length_s > 0)) continue;
    seconds += i.length_s;
    sent += i.counters.completed;
    best_rate = std::max(best_rate, static_cast<double>(i.counters.completed) / i.length_s);
  }
  if (!(best_rate > 0)) return "";
  const auto would = static_cast<std::uint64_t>(std::llround(best_rate * seconds));
  // A second somewhat better than the rest is noise, not a slowdown: within 10 % the loop was not held back.
  if (static_cast<double>(would) <= 1.1 * static_cast<double>(sent)) {
    return fmt::format("The closed loop completed {} requests in {:g} s at a steady rate (best second {:.0f}/s): "
                       "the server never slowed it here, so it hid nothing this time.",
                       sent, seconds, best_rate);
  }
  return fmt::format(
      "A closed loop completed {} requests during this run; users arriving independently at the rate of its best "
      "second ({:.0f}/s) would have sent {} over the same {:g} s. The {} it never sent are the requests that "
      "would have waited while the server was slow, and none of their waiting is in these latencies.",
      sent, best_rate, would, seconds, would - sent);
}

std::string tile(std::string_view label, const std::string& value, const std::string& note,
                 bool bad = false) {
  return fmt::format(
      "<div class=\"tile{}\"><div class=\"label\">{}</div><div class=\"value\">{}</div>"
      "<div class=\"note\">{}</div></div>\n",
      bad ? " bad" : "", escape(label), escape(value), escape(note));
}

std::string outcome_row(std::string_view name, std::uint64_t n, std::uint64_t intended,
                        std::string_view what) {
  return fmt::format("<tr><th>{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                     escape(name), n, percent(n, intended), escape(what));
}

std::string outcome_rows(const results::RunResults& r) {
  const auto& c = r.totals;
  std::string kinds;
  for (std::size_t i = 0; i < results::k_error_kinds; ++i) {
    if (c.errors[i] != 0) {
      kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ",
                           results::to_string(static_cast<results::ErrorKind>(i)), c.errors[i]);
    }
  }
  std::string statuses;
  const char* names[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < c.status_class.size(); ++i) {
    if (c.status_class[i] != 0)
      statuses += fmt::format("{}{} {}", statuses.empty() ? "" : ", ", names[i], c.status_class[i]);
  }
  if (c.grpc_calls() > 0) {
    // gRPC calls: the outcome is the gRPC status by name; the HTTP status (200) follows in brackets.
    std::string grpc;
    for (std::size_t i = 0; i < c.grpc_status.size(); ++i) {
      if (c.grpc_status[i] != 0)
        grpc += fmt::format("{}{} {}", grpc.empty() ? "" : ", ", grpc_status_name(static_cast<int>(i)),
                            c.grpc_status[i]);
    }
    statuses = fmt::format("gRPC {} (HTTP {}); {} response messages, {} bytes", grpc, statuses,
                           c.grpc_messages_in, c.grpc_message_bytes_in);
  }
  std::string out;
  out += outcome_row("intended", c.intended, c.intended, "arrivals the schedule asked for");
  out += outcome_row("sent", c.sent, c.intended, "handed to the network");
  out += outcome_row("ok", c.ok, c.intended, "success status within the deadline (goodput)");
  out += outcome_row("error status", c.completed - c.ok, c.intended,
                     statuses.empty() ? "completed, not a success status" : "statuses: " + statuses);
  out += outcome_row("timeouts", c.timeouts, c.intended, "the client's deadline passed first");
  out += outcome_row("errors", c.errors_total(), c.intended, kinds.empty() ? "no usable response" : kinds);
  out += outcome_row("dropped", c.dropped, c.intended, "no free connection: never sent");
  out += outcome_row("unfinished", c.unfinished, c.intended, "still in flight when the run ended");
  if (c.slot_waits > 0) {
    out += outcome_row(
        "waited for a slot", c.slot_waits, c.intended,
        "queued for a free connection or HTTP/2 stream (--on-saturation queue) before being sent; "
        "not an outcome: each ended as above");
  }
  if (c.resent > 0) {
    out += fmt::format(
        "<tr><th>resent</th><td class=\"num\">{}</td><td></td><td>{}</td></tr>\n", c.resent,
        escape("attempts sent again that the server never processed (HTTP/2 REFUSED_STREAM or above a "
               "GOAWAY), outside the retry budget; not an outcome: each request above ended once"));
  }
  return out;
}

std::string latency_row(std::string_view name, const LatencySummary& s) {
  if (s.count == 0)
    return fmt::format("<tr><th>{}</th><td colspan=\"8\">no samples</td></tr>\n", escape(name));
  return fmt::format(
      "<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</"
      "td></tr>\n",
      escape(name), format_latency(s.p50), format_latency(s.p90), format_latency(s.p99),
      format_latency(s.p999), format_latency(s.p9999), format_latency(s.max),
      format_latency(static_cast<std::int64_t>(s.mean)), s.count);
}

}  // namespace

std::string verdict_section(const ReportInput& in) {
  const auto& r = in.results;
  if (!in.has_counts) {
    return "<section class=\"verdict unknown\"><div class=\"badge\">NO VERDICT</div><div><p "
           "class=\"lead\">This "
           "report was made from an HdrHistogram interval log, which holds latency histograms only: no "
           "counts of "
           "intended, dropped or failed requests, so nobody can tell from it whether the planned load was "
           "applied."
           "</p></div></section>\n";
  }
  std::string body;
  if (r.verdict.valid) {
    body =
        "<p class=\"lead\">The generator applied the load it was asked to, so the numbers below describe the "
        "target under that load. VALID says nothing about how the target did:</p>\n";
  } else {
    body =
        "<p class=\"lead\">The generator did <b>not</b> apply the planned load, so the latencies below do "
        "not "
        "describe the target at that load. Reasons:</p>\n<ul>\n";
    for (const auto& reason : r.verdict.reasons) body += "<li>" + escape(reason) + "</li>\n";
    body += "</ul>\n";
  }
  // The verdict is about the generator; the target's outcome is the second headline, impossible to miss.
  if (const std::string target = target_headline(r); !target.empty()) {
    const bool bad = r.totals.intended > 0 &&
                     static_cast<double>(r.totals.ok) < 0.99 * static_cast<double>(r.totals.intended);
    body += fmt::format("<p class=\"lead target\"{}>{}</p>\n",
                        bad ? " style=\"color: var(--invalid); font-weight: 700\"" : "", escape(target));
  }
  if (r.interrupted)
    body += "<p class=\"note\">Interrupted: the results cover the part of the run that happened.</p>\n";
  if (r.info.model == results::Model::closed) {
    body += fmt::format(
        "<p class=\"note\"><b>CLOSED model</b> ({} users, each waiting for its response before sending "
        "again). A closed loop slows down with the server and never sends the requests that would "
        "have waited, so stalls and queueing are hidden (coordinated omission); response time here "
        "equals service time.</p>\n",
        r.info.users);
    if (const std::string hides = closed_loop_hides(r); !hides.empty())
      body += "<p class=\"note\">" + escape(hides) + "</p>\n";
  }
  return fmt::format("<section class=\"verdict {}\"><div class=\"badge\">{}</div><div>{}</div></section>\n",
                     r.verdict.valid ? "valid" : "invalid", r.verdict.valid ? "VALID" : "INVALID", body);
}

std::string slo_section(const ReportInput& in) {
  const auto& r = in.results;
  if (r.slos.empty() && r.aborted_by_slo.empty()) return {};
  std::size_t failed = 0;
  std::string rows;
  for (const auto& s : r.slos) {
    const bool met = s.evaluated && s.met;
    failed += met ? 0 : 1;
    const std::string result = met ? "met" : s.evaluated ? "FAILED" : "FAILED: " + s.measured_text;
    rows += fmt::format(
        "<tr><th>{}</th><td class=\"num\">{}</td><td class=\"num\">{} {}</td><td{}>{}</td></tr>\n",
        escape(s.slo.is_default ? "default SLO " + s.slo.text : s.slo.text),
        escape(s.evaluated ? s.measured_text : "–"), escape(results::op_text(s.slo.op)),
        escape(s.threshold_text), met ? "" : " style=\"color: var(--invalid); font-weight: 700\"",
        escape(result));
    // A failed latency objective that is mostly openloop's own send lateness says so under its row, as in the
    // summary and the JUnit file.
    if (const std::string note = results::slo_lateness_note(s, r); !note.empty())
      rows += fmt::format("<tr class=\"slo-note\"><td colspan=\"4\" class=\"caption\">{}</td></tr>\n", escape(note));
  }
  const bool by_default = r.slos.size() == 1 && r.slos.front().slo.is_default;
  std::string out = fmt::format("<section class=\"panel\"><h2>Service-level objectives: {}</h2>\n",
                                by_default    ? fmt::format("default SLO {}", failed == 0 ? "met" : "not met")
                                : failed == 0 ? fmt::format("all {} met", r.slos.size())
                                              : fmt::format("{} of {} not met", failed, r.slos.size()));
  if (by_default) {
    out +=
        "<p class=\"lead\">No --slo was given, so the run was judged on the default objective, goodput "
        "&ge; 99% of intended requests (exit 1 when it fails); <code>--slo none</code> measures without "
        "judging.</p>\n";
  }
  if (!r.aborted_by_slo.empty()) {
    out += fmt::format(
        "<p class=\"lead\">Stopped early (--abort-on-slo): <b>{}</b> was certain to fail whatever the "
        "rest of the run did; the numbers cover the part that ran.</p>\n",
        escape(r.aborted_by_slo));
  }
  if (!r.slos.empty()) {
    out +=
        "<table class=\"outcomes\">\n<tr><th>objective</th><th>measured</th><th>threshold</th>"
        "<th>result</th></tr>\n" +
        rows + "</table>\n";
  }
  out += r.verdict.valid
             ? "<p class=\"caption\">Latencies are response times (from each request's intended time) over "
               "the whole measured period, from the merged histograms; shares are of intended requests. An "
               "objective naming a request is judged on that request alone.</p>\n"
         : r.unreachable()
             ? "<p class=\"caption\">The run is INVALID: the target was never reached (every attempt failed "
               "to connect), so nothing about it was measured.</p>\n"
             : "<p class=\"caption\">The run is INVALID: the generator did not apply the planned load, so "
               "these numbers describe the rig, not the target.</p>\n";
  return out + "</section>\n";
}

std::string headline_section(const ReportInput& in) {
  const auto& r = in.results;
  const auto rt = LatencySummary::of(r.response_time);
  std::string tiles;
  if (!in.has_counts) {
    tiles += tile("Samples", std::to_string(rt.count), fmt::format("over {}", format_seconds(r.measured_s)));
    tiles += tile("Response p50", format_latency(rt.p50), "half the requests were faster");
    tiles += tile("Response p99", format_latency(rt.p99), "1 in 100 was slower");
    tiles += tile("Response max", format_latency(rt.max), fmt::format("p99.9 {}", format_latency(rt.p999)));
    return "<section class=\"tiles\">\n" + tiles + "</section>\n";
  }
  const auto& c = r.totals;
  const bool open = r.info.model == results::Model::open;
  const std::uint64_t not_ok = c.intended - c.ok;
  const std::string offered_note =
      open ? fmt::format("planned {}", format_per_second(r.info.offered_rps))
      : r.info.model == results::Model::sessions
          ? fmt::format("sessions planned at {}", format_per_second(r.info.offered_rps))
      : r.info.model == results::Model::mixed ? std::string("several models: see By scenario")
                                              : std::string("closed loop: no schedule");
  tiles += tile("Offered", format_per_second(r.offered_rps()), offered_note);
  tiles +=
      tile("Sent", format_per_second(r.sent_rps()), fmt::format("{} of offered", percent(c.sent, c.intended)),
           c.intended > 0 && static_cast<double>(c.sent) < 0.99 * static_cast<double>(c.intended));
  tiles += tile("Goodput", format_per_second(r.goodput_rps()),
                fmt::format("throughput {}", format_per_second(r.throughput_rps())));
  tiles += tile("Response p99", rt.count ? format_latency(rt.p99) : "–",
                fmt::format("p50 {}", format_latency(rt.p50)));
  tiles += tile("Response max", rt.count ? format_latency(rt.max) : "–",
                fmt::format("p99.9 {}", format_latency(rt.p999)));
  tiles += tile("Not ok", percent(not_ok, c.intended),
                fmt::format("timeouts {} · errors {} · dropped {}", c.timeouts, c.errors_total(), c.dropped),
                c.intended > 0 && static_cast<double>(not_ok) > 0.01 * static_cast<double>(c.intended));
  return "<section class=\"tiles\">\n" + tiles + "</section>\n";
}

std::string plan_and_outcomes_section(const ReportInput& in) {
  if (!in.has_counts) return {};
  const auto& r = in.results;
  // A scenario file's combined run carries its first scenario's plan; By scenario shows every scenario.
  const std::string title = r.scenarios.size() > 1
                                ? "Plan of the first scenario, " + escape(r.scenarios.front().name)
                                : std::string("Plan");
  std::string out =
      "<section class=\"two\">\n<div class=\"panel\"><h2>" + title + "</h2>\n<table class=\"kv\">\n";
  out += plan_rows(r.info.plan);
  // What the connections spoke (over https with auto, the server's ALPN choice), beside what the plan asked.
  if (const auto& g = r.generator; g.connections_h1 + g.connections_h2 > 0) {
    out += fmt::format("<tr><th>protocol used</th><td>{} (connections: h1 {}, h2 {})</td></tr>\n",
                       escape(results::used_protocol(g)), g.connections_h1, g.connections_h2);
  }
  out +=
      "</table></div>\n<div class=\"panel\"><h2>What happened to every request</h2>\n<table "
      "class=\"outcomes\">\n";
  out += outcome_rows(r);
  out += fmt::format(
      "</table>\n<p class=\"caption\">Every intended request ends as exactly one of ok, error status, "
      "timeout, error, dropped or unfinished. Measured for {}; the warm-up ({} requests over {}) is "
      "left out of every number.</p></div>\n</section>\n",
      format_seconds(r.measured_s), r.warmup.intended, format_seconds(r.info.warmup_s));
  return out;
}

std::string latency_section(const ReportInput& in) {
  const auto& r = in.results;
  std::string out =
      "<section class=\"panel\"><h2>Latency</h2>\n<table class=\"latency\">\n<tr><th></th><th>p50</th>"
      "<th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>max</th><th>mean</th><th>count</th></tr>\n";
  out += latency_row(r.info.model == results::Model::closed ? "response time (= service)" : "response time",
                     LatencySummary::of(r.response_time));
  out += latency_row("service time", LatencySummary::of(r.service_time));
  out += latency_row("send lateness", LatencySummary::of(r.send_lateness));
  const bool waited = r.slot_wait.total_count() > 0;
  if (waited) out += latency_row("slot wait", LatencySummary::of(r.slot_wait));
  out +=
      "</table>\n<p class=\"caption\"><b>Response time</b> runs from the moment a request was <i>due</i> on "
      "the "
      "schedule to its response: what a user arriving then experienced, including any wait before it could "
      "be "
      "sent. <b>Service time</b> runs from the actual send: what most load tools report. <b>Send "
      "lateness</b> is "
      "the generator's own delay in sending; it should stay tiny. pN is the time N% of requests stayed under "
      "(p99: all but the slowest 1 in 100). Timeouts count at the deadline.";
  if (waited) {
    out +=
        " <b>Slot wait</b>: how long the arrivals that found every connection or stream busy waited for one "
        "(part of their response time, not of their service time).";
  }
  out += "</p>\n</section>\n";
  return out;
}

std::string server_timing_section(const ReportInput& in) {
  const auto& st = in.results.server_timing;
  if (st.empty()) return {};
  std::string out =
      "<section class=\"panel\"><h2>Server-Timing: the server's time and the rest</h2>\n<table "
      "class=\"latency\" id=\"server-timing\">\n<tr><th></th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</"
      "th><th>p99.99</th><th>max</th><th>mean</th><th>count</th></tr>\n";
  out += latency_row("server-reported time", LatencySummary::of(st.server_time));
  out += latency_row("outside the server", LatencySummary::of(st.outside_server));
  const auto& plan = in.results.info.plan;
  const auto metric = plan.is_object() ? plan.value("server_timing_metric", std::string()) : std::string();
  out += fmt::format(
      "</table>\n<p class=\"caption\">From the <code>Server-Timing</code> header of {} responses: the "
      "<b>server-reported time</b> is {}; <b>outside the server</b> is the response time (from the intended "
      "time) minus it: the client, the network and any queueing before the server's timer started. {} "
      "responses reported more than the whole response took (counted as 0 outside); {} headers were "
      "unreadable and {} carried no duration (both set aside). Two significant digits.</p>\n</section>\n",
      st.count(),
      metric.empty() ? "the sum of every metric's <code>dur</code>"
                     : fmt::format("the <code>dur</code> of metric <code>{}</code>", escape(metric)),
      st.negative, st.malformed, st.no_duration);
  return out;
}

std::string phases_section(const ReportInput& in) {
  const auto& r = in.results;
  if (r.phases.empty() && r.dns_ns < 0 && !r.logged) return {};
  std::string out =
      "<section class=\"panel\"><h2>Phases: where a request's time goes</h2>\n<table class=\"latency\" "
      "id=\"phases\">\n<tr><th></th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</"
      "th><th>max</th>"
      "<th>mean</th><th>count</th></tr>\n";
  const char* labels[] = {"connect", "TLS handshake", "time to first byte", "body read"};
  for (const bool fresh : {true, false}) {
    for (std::size_t i = 0; i < results::k_phases; ++i) {
      const auto s = LatencySummary::of(r.phases.at(fresh, static_cast<results::Phase>(i)));
      if (s.count == 0) continue;
      out += latency_row(fmt::format("{}: {}", fresh ? "new connection" : "reused connection", labels[i]), s);
    }
  }
  out += "</table>\n<p class=\"caption\">";
  if (r.dns_ns >= 0)
    out += fmt::format("<b>DNS</b>: {}, resolved once before the run (no request resolves again). ",
                       format_latency(r.dns_ns));
  out +=
      "Phases as curl and k6 name them, for every attempt: those that received a response, and those that "
      "failed or timed out for the phases they completed (a connect, a handshake, a first byte). A <i>new "
      "connection</i> row "
      "counts the first request each connection carried, with that connection's setup: <b>connect</b> and "
      "<b>TLS handshake</b> (the request waited for them, or the connection was opened ahead by the "
      "pre-warm); "
      "a <i>reused connection</i> had carried a request before. <b>Time to first byte</b> runs from the send "
      "to "
      "the first response byte, <b>body read</b> from there to the last (0 when the whole response came in "
      "one "
      "read). Two significant digits.";
  if (r.logged) {
    out +=
        fmt::format(" Per-request log: {} lines written, {} records dropped.", r.log_written, r.log_dropped);
  }
  out += "</p>\n</section>\n";
  return out;
}

}  // namespace openloop::report::html
