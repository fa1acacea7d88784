// Every error a plan file can produce, with its exact message: file:line:column, the key path, what was found
// and what is accepted. Nothing is half-loaded: each case returns an error and no plan.
#include "workload/scenario_file.h"

#include <gtest/gtest.h>

#include <string>

#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;

namespace {

std::string load_error(std::string_view yaml, const std::filesystem::path& dir = ".") {
  auto plan = load_plan_text(yaml, "plan.yaml", dir);
  EXPECT_FALSE(plan) << yaml;
  if (plan) return {};
  EXPECT_EQ(plan.error().code, ExitCode::usage);
  return plan.error().message;
}

// A valid plan around one scenario; the body's first line is line 7, its keys at column 5.
std::string with_scenario(std::string_view body) {
  std::string out = "target: http://h\nrequests:\n  r: GET /r\n  w: GET /w\nscenarios:\n  s:\n";
  std::size_t begin = 0;
  while (begin < body.size()) {
    const auto end = body.find('\n', begin);
    out += "    " + std::string(body.substr(begin, end == body.npos ? body.npos : end - begin)) + "\n";
    if (end == body.npos) break;
    begin = end + 1;
  }
  return out;
}

// A valid plan around top-level text placed before `requests` (line 2 onwards).
std::string with_top(std::string_view top) {
  return "target: http://h\n" + std::string(top) +
         "requests: {r: GET /r}\nscenarios: {s: {model: closed, vus: 1, duration: 1s, request: r}}\n";
}

// A valid plan whose only request is `request` (line 3 onwards, keys at column 5).
std::string with_request(std::string_view request) {
  std::string out = "target: http://h\nrequests:\n  r:\n";
  std::size_t begin = 0;
  while (begin < request.size()) {
    const auto end = request.find('\n', begin);
    out +=
        "    " + std::string(request.substr(begin, end == request.npos ? request.npos : end - begin)) + "\n";
    if (end == request.npos) break;
    begin = end + 1;
  }
  return out + "scenarios: {s: {model: closed, vus: 1, duration: 1s, request: r}}\n";
}

constexpr std::string_view k_open_keys =
    "model, start, duration, rate, stages, start_rate, arrival, seed, mix, request";
constexpr std::string_view k_scenario_keys =
    "model, start, duration, rate, session_rate, stages, start_rate, arrival, seed, vus, think, pacing, "
    "max_rate, "
    "max_sessions, mix, request, steps, cookies, data";

}  // namespace

TEST(PlanFileErrors, TheDocumentItself) {
  EXPECT_EQ(load_error(""),
            "plan.yaml:1:1: the file is empty; a plan has target, requests and scenarios (see "
            "docs/scenarios.md)");
  EXPECT_EQ(load_error("- a\n- b\n"),
            "plan.yaml:1:1: found a list; a plan file is a mapping of key: value lines");
  EXPECT_EQ(load_error("target: http://h\nrequests: {r: GET /}\nscenarios: [\n"),
            "plan.yaml:4:1: not valid YAML: end of sequence flow not found; a plan file is YAML (see "
            "docs/scenarios.md)");
  EXPECT_EQ(load_error("target: http://h\ntargte: x\n"),
            "plan.yaml:2:1: unknown key \"targte\"; a plan file accepts target, seed, defaults, variables, "
            "requests, setup, teardown, scenarios, observe");
  EXPECT_EQ(load_error("target: http://h\nobserve: host\n"),
            "plan.yaml:2:10: observe: use a list of --observe SPECs, e.g. [host, \"process:nginx\"]");
  EXPECT_EQ(load_error("target: http://h\ntarget: http://g\n"),
            "plan.yaml:2:1: \"target\" is given twice; give each key once");
  EXPECT_EQ(load_error("? [a, b]\n: 1\n"), "plan.yaml:1:3: found a list as a key; keys are plain names");
}

TEST(PlanFileErrors, MissingSections) {
  EXPECT_EQ(load_error("seed: 1\n"),
            "plan.yaml:1:1: no target; a plan starts with target: http://host:port (the base URL)");
  EXPECT_EQ(load_error("target: http://h\n"),
            "plan.yaml:1:1: no requests; name at least one, e.g. requests: {get_item: GET /item/1}");
  EXPECT_EQ(load_error("target: http://h\nrequests: {}\n"),
            "plan.yaml:2:11: requests: no requests; name at least one");
  EXPECT_EQ(
      load_error("target: http://h\nrequests: {r: GET /}\n"),
      "plan.yaml:1:1: no scenarios; give at least one, e.g. scenarios: {browse: {model: open, rate: 100/s, "
      "duration: 1m, request: get_item}}");
  EXPECT_EQ(
      load_error("target: http://h\nrequests: {r: GET /}\nscenarios:\n"),
      "plan.yaml:3:1: scenarios: found nothing; scenarios (name: scenario) is a mapping of key: value lines");
}

TEST(PlanFileErrors, TargetAndSeed) {
  EXPECT_EQ(
      load_error("target: ftp://h\n"),
      "plan.yaml:1:9: target 'ftp://h': unsupported scheme 'ftp'; expected http://host[:port][/path][?query] "
      "or https://...");
  EXPECT_EQ(load_error("target: http://h/api?x=1\n"),
            "plan.yaml:1:9: target: \"http://h/api?x=1\" has a query; the target is a base URL (scheme, "
            "host, port, "
            "path): put queries in the requests' paths");
  EXPECT_EQ(load_error("target: [http://h]\n"),
            "plan.yaml:1:9: target: found a list; use a URL such as http://127.0.0.1:8080");
  EXPECT_EQ(load_error(with_top("seed: -1\n")),
            "plan.yaml:2:7: seed: \"-1\" is not accepted; use a whole number from 0 to 18446744073709551615");
}

// The bounds and wording of --max-streams, --h2-window and --connections.
TEST(PlanFileErrors, Http2Defaults) {
  EXPECT_EQ(load_error(with_top("defaults: {max_streams: 0}\n")),
            "plan.yaml:2:25: defaults.max_streams: \"0\" is not accepted; give 1 to 1048576 streams per connection "
            "(HTTP/2 allows no more)");
  EXPECT_EQ(load_error(with_top("defaults: {max_streams: 1048577}\n")),
            "plan.yaml:2:25: defaults.max_streams: \"1048577\" is not accepted; give 1 to 1048576 streams per "
            "connection (HTTP/2 allows no more)");
  EXPECT_EQ(load_error(with_top("defaults: {h2_window: 2147483648}\n")),
            "plan.yaml:2:23: defaults.h2_window: \"2147483648\" is not accepted; give a window of 1 to 2147483647 "
            "bytes (2^31 - 1, HTTP/2's largest)");
  EXPECT_EQ(load_error(with_top("defaults: {h2_window: 64k}\n")),
            "plan.yaml:2:23: defaults.h2_window: \"64k\" is not accepted; give a window of 1 to 2147483647 "
            "bytes (2^31 - 1, HTTP/2's largest)");
  EXPECT_EQ(load_error(with_top("defaults: {connections: -1}\n")),
            "plan.yaml:2:25: defaults.connections: \"-1\" is not accepted; give 1 to 10000000 connections, or "
            "leave it out for the default");
}

TEST(PlanFileErrors, Defaults) {
  EXPECT_EQ(load_error(with_top("defaults: {timeout: 2s, retries: 3}\n")),
            "plan.yaml:2:25: defaults: unknown key \"retries\"; defaults accepts headers, timeout, success, "
            "protocol, "
            "max_streams, h2_window, connections, grpc, grpc_success");
  EXPECT_EQ(
      load_error(with_top("defaults: {timeout: soon}\n")),
      "plan.yaml:2:21: defaults.timeout: \"soon\" is not a duration; use e.g. 250ms, 30s, 2m, 1h30m (units: "
      "ns, us, ms, s, m, h)");
  EXPECT_EQ(load_error(with_top("defaults: {timeout: 0}\n")),
            "plan.yaml:2:21: defaults.timeout: must be above 0, e.g. 2s");
  EXPECT_EQ(
      load_error(with_top("defaults: {success: 2xx}\n")),
      "plan.yaml:2:21: defaults.success: \"2xx\" is not a status range; use e.g. 200-299 or 201 (statuses "
      "100-599)");
  EXPECT_EQ(load_error(with_top("defaults: {headers: [Accept]}\n")),
            "plan.yaml:2:21: defaults.headers: found a list; headers (Name: value lines) is a mapping of "
            "key: value "
            "lines");
  EXPECT_EQ(load_error(with_top("defaults: {headers: {Accept: [a, b]}}\n")),
            "plan.yaml:2:30: defaults.headers.Accept: found a list; a header value is one line of text");
  EXPECT_EQ(
      load_error(with_top("defaults: {headers: {\"X Y\": 1}}\n")),
      "plan.yaml:2:29: defaults.headers.X Y: header 'X Y: 1': name 'X Y' is not a token; a header name is "
      "made of letters, digits and !#$%&'*+-.^_`|~");
}

TEST(PlanFileErrors, Variables) {
  EXPECT_EQ(
      load_error(with_top("variables: {sku: zipf(10)}\n")),
      "plan.yaml:2:18: variables.sku: \"zipf(10)\": zipf takes N (the number of keys) and S (the exponent); "
      "accepted: zipf(N, S), uniform(A, B), sequence(START), choice(V1, V2, ...), csv(FILE, COLUMN[, "
      "random])");
  EXPECT_EQ(
      load_error(with_top("variables: {2x: sequence(1)}\n")),
      "plan.yaml:2:13: variables.2x: \"2x\" is not a variable name; use letters, digits and _ (not starting "
      "with a digit), e.g. sku or user_id");
  EXPECT_EQ(load_error(with_top("variables: {sku: [1, 2]}\n")),
            "plan.yaml:2:18: variables.sku: found a list; use a generator such as zipf(10000, 1.1)");
  EXPECT_EQ(load_error(with_top("variables: {u: \"csv(none.csv, id)\"}\n"), "/nonexistent-dir")
                .rfind("plan.yaml:2:16: variables.u: \"csv(none.csv, id)\": ", 0),
            0U);
}

TEST(PlanFileErrors, Requests) {
  EXPECT_EQ(load_error("target: http://h\nrequests: {\"get item\": GET /}\n"),
            "plan.yaml:2:12: requests.get item: \"get item\" is not a request name; use letters, digits, _, "
            "- and .");
  EXPECT_EQ(
      load_error("target: http://h\nrequests: {r: /item}\n"),
      "plan.yaml:2:15: requests.r: \"/item\" is not a request; write \"GET /path\" or a mapping with method, "
      "path, headers, body, expect");
  // Found by the scenario fuzzer: a quoted shorthand with nothing after the method's space threw out_of_range.
  EXPECT_EQ(
      load_error("target: http://h\nrequests: {r: \"GET   \"}\n"),
      "plan.yaml:2:15: requests.r: \"GET   \" is not a request; write \"GET /path\" or a mapping with method, "
      "path, headers, body, expect");
  EXPECT_EQ(
      load_error("target: http://h\nrequests: {r: \" /item\"}\n"),
      "plan.yaml:2:15: requests.r: \" /item\" is not a request; write \"GET /path\" or a mapping with method, "
      "path, headers, body, expect");
  EXPECT_EQ(load_error(with_request("path: /\nquery: a=1")),
            "plan.yaml:5:5: requests.r: unknown key \"query\"; a request accepts method, path, headers, "
            "body, expect");
  EXPECT_EQ(load_error(with_request("method: GET")),
            "plan.yaml:4:5: requests.r: no path; give path: /item/{{sku}}");
  EXPECT_EQ(
      load_error(with_request("path: /item/{{sku}}")),
      "plan.yaml:4:11: requests.r.path: unknown variable \"sku\" in {{sku}}; declared variables: none; or "
      "write a generator inline, e.g. {{zipf(1000, 1.1)}}");
  EXPECT_EQ(load_error(with_request("path: item")),
            "plan.yaml:4:11: requests.r.path: \"item\" must begin with /, e.g. /item/{{sku}}");
  EXPECT_EQ(load_error(with_request("method: GE T\npath: /")),
            "plan.yaml:4:13: requests.r.method: method 'GE T' is not a token; use e.g. GET, POST, PUT, "
            "DELETE (made "
            "of letters, digits and !#$%&'*+-.^_`|~)");
  EXPECT_EQ(
      load_error(with_request("path: /\nexpect: ok")),
      "plan.yaml:5:13: requests.r.expect: \"ok\" is not a status range; use e.g. 200-299 or 201 (statuses "
      "100-599)");
  EXPECT_EQ(load_error(with_request("path: /\nheaders: {X-A: {b: 1}}")),
            "plan.yaml:5:20: requests.r.headers.X-A: found a mapping; a header value is one line of text");
  EXPECT_EQ(
      load_error(with_request("path: /\nheaders: {Content-Length: 3}")),
      "plan.yaml:5:31: requests.r.headers.Content-Length: Content-Length is computed for every request from "
      "the rendered body; remove the header");
  EXPECT_EQ(load_error(with_request("path: /\nbody: {a: 1}")),
            "plan.yaml:5:11: requests.r.body: found a mapping; a body is text (use | for several lines)");
}

TEST(PlanFileErrors, ScenarioShapeAndModel) {
  EXPECT_EQ(load_error(with_scenario("- model: open")),
            "plan.yaml:7:5: scenarios.s: found a list; a scenario is a mapping of key: value lines");
  EXPECT_EQ(
      load_error(with_scenario("vus: 1")),
      "plan.yaml:7:5: scenarios.s: no model; use open (arrivals on a schedule), closed (users that wait), "
      "pacing (users with an iteration rate) or sessions (sessions arrive on a schedule, steps wait)");
  EXPECT_EQ(
      load_error(with_scenario("model: ramping")),
      "plan.yaml:7:12: scenarios.s.model: \"ramping\" is not a model; use open (arrivals on a schedule), "
      "closed (users that wait), pacing (users with an iteration rate) or sessions (sessions arrive on a "
      "schedule, steps wait)");
  EXPECT_EQ(
      load_error(with_scenario("model: open\nrtae: 5/s")),
      "plan.yaml:8:5: scenarios.s: unknown key \"rtae\"; a scenario accepts " + std::string(k_scenario_keys));
  EXPECT_EQ(
      load_error(with_scenario("model: open\nvus: 10")),
      "plan.yaml:8:5: scenarios.s: \"vus\" does not apply to an open scenario (it is for closed, pacing); an "
      "open scenario accepts " +
          std::string(k_open_keys));
  EXPECT_EQ(load_error("target: http://h\nrequests: {r: GET /}\nscenarios: {\"a b\": {model: open}}\n"),
            "plan.yaml:3:13: scenarios.a b: \"a b\" is not a scenario name; use letters, digits, _, - and .");
  EXPECT_EQ(load_error(with_scenario("model: open\nrate: 1/s\nduration: 1s\nrequest: r\nseed: x")),
            "plan.yaml:11:11: scenarios.s.seed: \"x\" is not accepted; use a whole number from 0 to "
            "18446744073709551615");
  EXPECT_EQ(load_error(with_scenario("model: closed\nvus: 1\nduration: 1s\nrequest: r\nstart: later")),
            "plan.yaml:11:12: scenarios.s.start: \"later\" is not a duration; use e.g. 250ms, 30s, 2m, 1h30m "
            "(units: "
            "ns, us, ms, s, m, h)");
}

TEST(PlanFileErrors, OpenArrivals) {
  EXPECT_EQ(load_error(with_scenario("model: open\nrequest: r")),
            "plan.yaml:7:5: scenarios.s: no rate or stages; give rate: 100/s with duration: 1m, or stages: "
            "30s:100/s,1m:500/s");
  EXPECT_EQ(load_error(with_scenario("model: open\nrate: 5/s\nstages: 10s:5/s\nrequest: r")),
            "plan.yaml:9:13: scenarios.s.stages: give rate or stages, not both");
  EXPECT_EQ(load_error(with_scenario("model: open\nrate: fast\nduration: 1s\nrequest: r")),
            "plan.yaml:8:11: scenarios.s.rate: \"fast\" is not a rate; use e.g. 500/s, 30000/m (or 500, "
            "meaning per "
            "second)");
  EXPECT_EQ(load_error(with_scenario("model: open\nrate: 0/s\nduration: 1s\nrequest: r")),
            "plan.yaml:8:11: scenarios.s.rate: \"0/s\" must be above 0");
  EXPECT_EQ(load_error(with_scenario("model: open\nrate: 5/s\nrequest: r")),
            "plan.yaml:7:5: scenarios.s: no duration; with rate give duration: 1m (or use stages)");
  EXPECT_EQ(load_error(with_scenario("model: open\nrate: 5/s\nduration: 0\nrequest: r")),
            "plan.yaml:9:15: scenarios.s.duration: must be above 0, e.g. 30s");
  EXPECT_EQ(load_error(with_scenario("model: open\nrate: 5/s\nstart_rate: 1/s\nduration: 1s\nrequest: r")),
            "plan.yaml:9:17: scenarios.s.start_rate: start_rate applies to stages only; remove it");
  EXPECT_EQ(load_error(with_scenario("model: open\nstages: 10s:5/s\nduration: 10s\nrequest: r")),
            "plan.yaml:9:15: scenarios.s.duration: with stages the duration is their total; remove duration");
  EXPECT_EQ(
      load_error(with_scenario("model: open\narrival: bursty\nrate: 1/s\nduration: 1s\nrequest: r")),
      "plan.yaml:8:14: scenarios.s.arrival: \"bursty\" is not an arrival process; use constant or poisson");
}

TEST(PlanFileErrors, Stages) {
  EXPECT_EQ(
      load_error(with_scenario("model: open\nstages: 10s-5/s\nrequest: r")),
      "plan.yaml:8:13: scenarios.s.stages: item 1 \"10s-5/s\": missing ':' between duration and rate; stages "
      "are duration:rate items separated by commas, e.g. 30s:100/s,1m:500/s,30s:0/s");
  EXPECT_EQ(
      load_error(with_scenario("model: open\nstages: []\nrequest: r")),
      "plan.yaml:8:13: scenarios.s.stages: found an empty list; stages are \"30s:100/s,1m:500/s\" or a list "
      "of {duration: 30s, target: 100/s}");
  EXPECT_EQ(
      load_error(with_scenario("model: open\nstages: {a: 1}\nrequest: r")),
      "plan.yaml:8:13: scenarios.s.stages: found a mapping; stages are \"30s:100/s,1m:500/s\" or a list of "
      "{duration: 30s, target: 100/s}");
  EXPECT_EQ(
      load_error(with_scenario("model: open\nstages:\n  - {duration: 10s}\nrequest: r")),
      "plan.yaml:9:9: scenarios.s.stages[1]: a stage needs duration and target, e.g. {duration: 30s, target: "
      "100/s}");
  EXPECT_EQ(load_error(with_scenario(
                "model: open\nstages:\n  - {duration: 10s, target: 5/s, hold: 1s}\nrequest: r")),
            "plan.yaml:9:38: scenarios.s.stages[1]: unknown key \"hold\"; a stage accepts duration, target");
  EXPECT_EQ(load_error(with_scenario("model: open\nstages:\n  - {duration: 10s, target: lots}\nrequest: r")),
            "plan.yaml:9:33: scenarios.s.stages[1].target: \"lots\" is not a rate; use e.g. 500/s, 30000/m "
            "(or 500, "
            "meaning per second)");
  EXPECT_EQ(
      load_error(with_scenario("model: open\nstages:\n  - {duration: 0, target: 5/s}\nrequest: r")),
      "plan.yaml:9:7: scenarios.s.stages: the stages add up to zero duration; give at least one stage a "
      "duration");
}

TEST(PlanFileErrors, Users) {
  EXPECT_EQ(load_error(with_scenario("model: closed\nduration: 1s\nrequest: r")),
            "plan.yaml:7:5: scenarios.s: no vus; a closed scenario needs vus: N (the number of users)");
  EXPECT_EQ(load_error(with_scenario("model: closed\nvus: 0\nduration: 1s\nrequest: r")),
            "plan.yaml:8:10: scenarios.s.vus: \"0\" is not accepted; use a whole number from 1 to 10000000");
  EXPECT_EQ(load_error(with_scenario("model: closed\nvus: 2\nrequest: r")),
            "plan.yaml:7:5: scenarios.s: no duration; give duration: 1m");
  EXPECT_EQ(load_error(with_scenario("model: closed\nvus: 2\nduration: 1s\nthink: sometimes\nrequest: r")),
            "plan.yaml:10:12: scenarios.s.think: \"sometimes\" is not a duration distribution (\"sometimes\" "
            "is not a "
            "duration such as 250us, 1ms or 2s); accepted: a duration (1s, 250ms, 0), exp:MEAN, "
            "lognormal:MEAN,SIGMA, "
            "uniform:MIN..MAX");
  EXPECT_EQ(
      load_error(with_scenario("model: pacing\nvus: 2\nduration: 1s\nrequest: r")),
      "plan.yaml:7:5: scenarios.s: no pacing or max_rate; a pacing scenario needs pacing: 2s (per user) or "
      "max_rate: 100/s (in all), not both");
  EXPECT_EQ(
      load_error(with_scenario("model: pacing\nvus: 2\nduration: 1s\npacing: 1s\nmax_rate: 5/s\nrequest: r")),
      "plan.yaml:11:15: scenarios.s.max_rate: both pacing and max_rate; a pacing scenario needs pacing: 2s "
      "(per "
      "user) or max_rate: 100/s (in all), not both");
  EXPECT_EQ(load_error(with_scenario("model: pacing\nvus: 2\nduration: 1s\npacing: 0\nrequest: r")),
            "plan.yaml:10:13: scenarios.s.pacing: must be above 0, e.g. 2s");
  EXPECT_EQ(load_error(with_scenario("model: pacing\nvus: 2\nduration: 1s\nmax_rate: 0/s\nrequest: r")),
            "plan.yaml:10:15: scenarios.s.max_rate: \"0/s\" must be above 0");
  EXPECT_EQ(load_error(with_scenario(
                "model: sessions\nsession_rate: 1/s\nduration: 1s\nmax_sessions: 0\nsteps: [r]")),
            "plan.yaml:10:19: scenarios.s.max_sessions: \"0\" is not accepted; use a whole number from 1 to "
            "1073741824");
}

TEST(PlanFileErrors, RequestsOfAScenario) {
  const std::string open = "model: open\nrate: 1/s\nduration: 1s\n";
  EXPECT_EQ(load_error(with_scenario(open)),
            "plan.yaml:7:5: scenarios.s: no requests; give mix: {NAME: weight, ...} or request: NAME");
  EXPECT_EQ(
      load_error(with_scenario(open + "request: r\nmix: {r: 1}")),
      "plan.yaml:7:5: scenarios.s: more than one of mix, request and steps; give mix: {NAME: weight, ...} or "
      "request: NAME");
  EXPECT_EQ(
      load_error(with_scenario(open + "request: x")),
      "plan.yaml:10:14: scenarios.s.request: \"x\" is not a request of this file; its requests are r, w");
  EXPECT_EQ(
      load_error(with_scenario(open + "mix: {}")),
      "plan.yaml:10:10: scenarios.s.mix: the mix is empty; give request: weight lines, e.g. get_item: 9");
  EXPECT_EQ(load_error(with_scenario(open + "mix: {r: 1, x: 2}")),
            "plan.yaml:10:17: scenarios.s.mix: \"x\" is not a request of this file; its requests are r, w");
  EXPECT_EQ(load_error(with_scenario(open + "mix: {r: 1, w: -2}")),
            "plan.yaml:10:20: scenarios.s.mix.w: \"-2\" is not a number above 0; a weight is a number above "
            "0, e.g. "
            "9");
  EXPECT_EQ(
      load_error(with_scenario(open + "steps: [r]")),
      "plan.yaml:10:5: scenarios.s: \"steps\" does not apply to an open scenario (it is for closed, pacing, "
      "sessions); an open scenario accepts " +
          std::string(k_open_keys));
}

TEST(PlanFileErrors, Steps) {
  const std::string sessions = "model: sessions\nsession_rate: 1/s\nduration: 1s\n";
  EXPECT_EQ(load_error(with_scenario(sessions)),
            "plan.yaml:7:5: scenarios.s: no requests; give steps: [NAME, ...]");
  EXPECT_EQ(load_error(with_scenario(sessions + "steps: []")),
            "plan.yaml:10:12: scenarios.s.steps: found an empty list; steps are a list: - NAME or - "
            "{request: NAME, "
            "think: 1s}");
  EXPECT_EQ(
      load_error(with_scenario(sessions + "steps: r")),
      "plan.yaml:10:12: scenarios.s.steps: found a value; steps are a list: - NAME or - {request: NAME, "
      "think: 1s}");
  EXPECT_EQ(
      load_error(with_scenario(sessions + "steps: [r, nope]")),
      "plan.yaml:10:16: scenarios.s.steps[2]: \"nope\" is not a request of this file; its requests are r, w");
  EXPECT_EQ(
      load_error(with_scenario(sessions + "steps: [{think: 1s}]")),
      "plan.yaml:10:13: scenarios.s.steps[1]: the step names no request; write - NAME or - {request: NAME, "
      "think: 1s}");
  EXPECT_EQ(load_error(with_scenario(sessions + "steps: [{request: r, wait: 1s}]")),
            "plan.yaml:10:26: scenarios.s.steps[1]: unknown key \"wait\"; a step accepts request, think, "
            "capture, check, on_fail");
  EXPECT_EQ(load_error(with_scenario(sessions + "steps: [{request: r, think: long}]")),
            "plan.yaml:10:33: scenarios.s.steps[1].think: \"long\" is not a duration distribution (\"long\" "
            "is not a "
            "duration such as 250us, 1ms or 2s); accepted: a duration (1s, 250ms, 0), exp:MEAN, "
            "lognormal:MEAN,SIGMA, "
            "uniform:MIN..MAX");
  EXPECT_EQ(
      load_error(with_scenario(sessions + "mix: {r: 1}")),
      "plan.yaml:10:5: scenarios.s: \"mix\" does not apply to a sessions scenario (it is for open, closed, "
      "pacing); a sessions scenario accepts model, start, duration, session_rate, stages, start_rate, "
      "arrival, "
      "seed, max_sessions, think, steps, cookies, data");
}
