// Tests for RequestTemplate: exact bytes (as http::render_request would write them), one value per variable
// per request, keys, no allocation once warm, and every compile error with its message.
#include "workload/request_template.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "http/request.h"
#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;
using openloop::workload::test_util::render_http1;

// Counts heap allocations made by this test binary, to check that rendering allocates nothing once warm.
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// GCC pairs the inlined free() below with `new` at call sites and warns; the pairing is right (malloc/free).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
// The nothrow form too (std::stable_sort's temporary buffer uses it): otherwise a sanitizer's own operator
// new allocates what the free() above releases, which ASan reports as a mismatch.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
#pragma GCC diagnostic pop

namespace {

net::Url base_url(std::string_view text = "http://example.test:8080") {
  return *net::parse_url(text);
}

TemplateText text(std::string value, std::string where) {
  return TemplateText{std::move(value), std::move(where)};
}

RequestText get(std::string path) {
  RequestText spec;
  spec.name = "r";
  spec.path = text(std::move(path), "path");
  return spec;
}

struct Fixture {
  VariableSet vars;
  Fixture() {
    EXPECT_TRUE(vars.declare("n", Generator::sequence(41), "n"));
    EXPECT_TRUE(vars.declare("region", Generator::choice({"eu"}), "region"));
  }
  RequestTemplate compile(const RequestText& spec, std::string_view url = "http://example.test:8080") {
    auto t = RequestTemplate::compile(spec, base_url(url), vars, ".", 0);
    EXPECT_TRUE(t) << (t ? "" : t.error().message);
    return *t;
  }
  std::string error(const RequestText& spec) {
    auto t = RequestTemplate::compile(spec, base_url(), vars, ".", 0);
    EXPECT_FALSE(t);
    return t ? std::string() : t.error().message;
  }
};

std::string ua() {
  return std::string(http::default_user_agent());
}

}  // namespace

TEST(RequestTemplate, RendersExactBytesWithTheDrawnValues) {
  Fixture f;
  RequestText spec = get("/item/{{n}}?r={{ region }}");
  spec.headers = {{"X-Trace", text("t-{{n}}", "headers.X-Trace")}};
  const RequestTemplate t = f.compile(spec, "http://example.test:8080/api/");
  RenderContext ctx(f.vars, 1, 1, 0, 1);
  std::string out;
  EXPECT_EQ(render_http1(t, ctx, out), "41");
  EXPECT_EQ(out, "GET /api/item/41?r=eu HTTP/1.1\r\nHost: example.test:8080\r\nUser-Agent: " + ua() +
                     "\r\nX-Trace: t-41\r\n\r\n");
  EXPECT_EQ(render_http1(t, ctx, out), "42");
  EXPECT_EQ(out, "GET /api/item/42?r=eu HTTP/1.1\r\nHost: example.test:8080\r\nUser-Agent: " + ua() +
                     "\r\nX-Trace: t-42\r\n\r\n");
  EXPECT_EQ(t.target_text(), "/api/item/{{n}}?r={{ region }}");
}

TEST(RequestTemplate, RendersTheRequestAsParts) {
  Fixture f;
  RequestText spec = get("/item/{{n}}");
  spec.method = text("POST", "method");
  spec.headers = {{"X-Region", text("r-{{region}}", "h")}, {"user-agent", text("ua/{{n}}", "h")}};
  spec.body = text("{\"n\": {{n}}}", "body");
  const RequestTemplate t = f.compile(spec, "http://example.test:8080/api");
  RenderContext ctx(f.vars, 1, 1, 0, 1);
  http::RequestBuffer out;
  EXPECT_EQ(t.render(ctx, out), "41");
  const http::RequestParts& p = out.parts();
  EXPECT_EQ(p.method, "POST");
  EXPECT_EQ(p.target, "/api/item/41");
  EXPECT_EQ(p.authority, "example.test:8080");
  ASSERT_EQ(p.headers.size(), 2U);
  EXPECT_EQ(p.headers[0].name, "X-Region");
  EXPECT_EQ(p.headers[0].value, "r-eu");
  EXPECT_EQ(p.headers[1].name, "user-agent");
  EXPECT_EQ(p.headers[1].value, "ua/41");
  EXPECT_EQ(p.body, "{\"n\": 41}");
  EXPECT_FALSE(p.flags.given_host);
  EXPECT_TRUE(p.flags.given_user_agent);
  EXPECT_FALSE(p.flags.given_length);
  EXPECT_TRUE(p.flags.length_when_empty);
  const http::RequestBuffer kept = out;  // a retry's request stays as rendered while others render
  t.render(ctx, out);
  EXPECT_EQ(out.parts().target, "/api/item/42");
  EXPECT_EQ(kept.parts().target, "/api/item/41");
  EXPECT_EQ(kept.parts().body, "{\"n\": 41}");
}

TEST(RequestTemplate, ComputesContentLengthOfEveryRenderedBody) {
  Fixture f;
  RequestText spec = get("/cart");
  spec.method = text("POST", "method");
  spec.headers = {{"Content-Type", text("application/json", "h")}};
  spec.body = text("{\"n\": {{n}}, \"q\": {{uniform(7, 7)}}}", "body");
  const RequestTemplate t = f.compile(spec);
  RenderContext ctx(f.vars, 1, 1, 0, 1);
  std::string out;
  render_http1(t, ctx, out);
  net::Url url = base_url();
  url.target = "/cart";
  const auto expected =
      http::render_request("POST", url, {{"Content-Type", "application/json"}}, "{\"n\": 41, \"q\": 7}");
  EXPECT_EQ(out, *expected);
  EXPECT_NE(out.find("Content-Length: 17\r\n\r\n{\"n\": 41"), std::string::npos);
}

TEST(RequestTemplate, SendsContentLengthZeroForAnEmptyPostAndNoneForAnEmptyGet) {
  Fixture f;
  RequestText post = get("/x/{{n}}");
  post.method = text("POST", "method");
  RenderContext ctx(f.vars, 1, 1, 0, 1);
  std::string out;
  render_http1(f.compile(post), ctx, out);
  EXPECT_EQ(out, "POST /x/41 HTTP/1.1\r\nHost: example.test:8080\r\nUser-Agent: " + ua() +
                     "\r\nContent-Length: 0\r\n\r\n");
  render_http1(f.compile(get("/x/{{n}}")), ctx, out);
  EXPECT_EQ(out.find("Content-Length"), std::string::npos);
}

TEST(RequestTemplate, AVariableUsedTwiceHasOneValuePerRequest) {
  Fixture f;
  RequestText spec = get("/item/{{n}}");
  spec.method = text("PUT", "method");
  spec.body = text("id={{n}}&again={{n}}", "body");
  const RequestTemplate t = f.compile(spec);
  RenderContext ctx(f.vars, 1, 1, 0, 1);
  std::string out;
  render_http1(t, ctx, out);
  EXPECT_NE(out.find("PUT /item/41 "), std::string::npos);
  EXPECT_NE(out.find("\r\n\r\nid=41&again=41"), std::string::npos);
  EXPECT_EQ(t.variables(), (std::vector<std::size_t>{0}));
}

TEST(RequestTemplate, ATemplateWithoutVariablesIsRenderedOnceAsRenderRequestWouldWriteIt) {
  Fixture f;
  RequestText spec = get("/health");
  spec.headers = {{"Host", text("other.test", "h")}, {"User-Agent", text("probe/1", "h")}};
  const RequestTemplate t = f.compile(spec);
  ASSERT_TRUE(t.constant_bytes());
  net::Url url = base_url();
  url.target = "/health";
  EXPECT_EQ(*t.constant_bytes(),
            *http::render_request("GET", url, {{"Host", "other.test"}, {"User-Agent", "probe/1"}}, ""));
  EXPECT_EQ(*t.constant_bytes(), "GET /health HTTP/1.1\r\nHost: other.test\r\nUser-Agent: probe/1\r\n\r\n");
  RenderContext ctx(f.vars, 1, 1, 0, 1);
  std::string out;
  EXPECT_EQ(render_http1(t, ctx, out), "/health");
  EXPECT_EQ(out, *t.constant_bytes());
  EXPECT_EQ(ctx.keys(0).requests(), 1U);
}

TEST(RequestTemplate, RecordsTheFirstVariableAsTheKey) {
  Fixture f;
  RequestText spec = get("/a");
  spec.headers = {{"X-Region", text("{{region}}", "h")}};
  spec.body = text("{{n}}", "body");
  const RequestTemplate t = f.compile(spec);
  EXPECT_EQ(t.key_variable(), 1U);
  RenderContext ctx(f.vars, 1, 1, 0, 1);
  std::string out;
  for (int i = 0; i < 150; ++i) EXPECT_EQ(render_http1(t, ctx, out), "eu");
  EXPECT_EQ(ctx.keys(0).requests(), 150U);
  EXPECT_EQ(ctx.keys(0).distinct(), 1U);
}

TEST(RequestTemplate, RenderingAllocatesNothingOnceWarm) {
  VariableSet vars;
  ASSERT_TRUE(vars.declare("sku", Generator::zipf(1'000'000, 1.1), "sku"));
  RequestText spec = get("/item/{{sku}}");
  spec.method = text("POST", "method");
  spec.headers = {{"X-Id", text("{{uniform(100000, 999999)}}", "h")}};
  spec.body = text("{\"sku\": {{sku}}, \"c\": \"{{choice(a, bb, ccc)}}\"}", "body");
  const RequestTemplate t = *RequestTemplate::compile(spec, base_url(), vars, ".", 0);
  RenderContext ctx(vars, 1, 1, 0, 1);
  std::string out;
  out.reserve(512);
  for (int i = 0; i < 100; ++i) render_http1(t, ctx, out);  // warm: the buffers grow to their largest
  const long before = g_allocations.load();
  for (int i = 0; i < 10000; ++i) render_http1(t, ctx, out);
  EXPECT_EQ(g_allocations.load(), before);
}

TEST(RequestTemplate, SameSeedAndWorkerRenderTheSameRequests) {
  VariableSet vars;
  ASSERT_TRUE(vars.declare("sku", Generator::zipf(1000, 1.1), "sku"));
  const RequestTemplate t = *RequestTemplate::compile(get("/item/{{sku}}"), base_url(), vars, ".", 0);
  auto run = [&](std::uint64_t seed, unsigned worker) {
    RenderContext ctx(vars, 1, seed, worker, 4);
    std::string out, all;
    for (int i = 0; i < 100; ++i) {
      render_http1(t, ctx, out);
      all += out;
    }
    return all;
  };
  EXPECT_EQ(run(5, 2), run(5, 2));
  EXPECT_NE(run(5, 2), run(5, 3));
}

TEST(RequestTemplateErrors, EachNamesThePartAndWhatIsAccepted) {
  Fixture f;
  EXPECT_EQ(
      f.error(get("/item/{{skuu}}")),
      "path: unknown variable \"skuu\" in {{skuu}}; declared variables: n, region; or write a generator "
      "inline, e.g. {{zipf(1000, 1.1)}}");
  EXPECT_EQ(f.error(get("/item/{{n")),
            "path: \"/item/{{n\": a {{ is not closed; write {{name}} or {{zipf(1000, 1.1)}}");
  EXPECT_EQ(f.error(get("/item/{{ }}")), "path: \"/item/{{ }}\": {{}} names no variable");
  EXPECT_EQ(f.error(get("item/1")), "path: \"item/1\" must begin with /, e.g. /item/{{sku}}");
  EXPECT_EQ(
      f.error(get("/a b")),
      "path: request target '/a b' is empty or contains spaces or control characters; percent-encode them");
  EXPECT_EQ(
      f.error(get("/q/{{zipf(0, 1)}}")),
      "path: \"zipf(0, 1)\": N must be a whole number from 1 to 2^53; accepted: zipf(N, S), uniform(A, B), "
      "sequence(START), choice(V1, V2, ...), csv(FILE, COLUMN[, random])");
  RequestText method = get("/");
  method.method = text("GE T", "method");
  EXPECT_EQ(
      f.error(method),
      "method: method 'GE T' is not a token; use e.g. GET, POST, PUT, DELETE (made of letters, digits and "
      "!#$%&'*+-.^_`|~)");
}

TEST(RequestTemplateErrors, HeadersAreCheckedWithRenderRequestsRules) {
  Fixture f;
  auto with_header = [&](std::string name, std::string value) {
    RequestText spec = get("/");
    spec.headers = {{std::move(name), text(std::move(value), "headers.X")}};
    return f.error(spec);
  };
  EXPECT_EQ(
      with_header("X Bad", "1"),
      "headers.X: header 'X Bad: 1': name 'X Bad' is not a token; a header name is made of letters, digits "
      "and !#$%&'*+-.^_`|~");
  EXPECT_EQ(with_header("X-A", "a\nb"),
            "headers.X: header 'X-A': the value contains CR, LF or NUL; a header value is a single line");
  EXPECT_EQ(
      with_header("Content-Length", "5"),
      "headers.X: Content-Length is computed for every request from the rendered body; remove the header");
  EXPECT_EQ(with_header("Transfer-Encoding", "chunked"),
            "headers.X: header 'Transfer-Encoding: chunked': not supported; the body is always sent with "
            "Content-Length (remove the header)");
}

TEST(RequestTemplateErrors, ValuesAVariableCanProduceMustFitWhereItIsUsed) {
  Fixture f;
  EXPECT_EQ(
      f.error(get("/city/{{choice(paris, \"new york\")}}")),
      "path: variable choice(paris, \"new york\") can produce \"new york\", which is empty or has a space or "
      "control character; a request target cannot: percent-encode the values (e.g. %20 for a space)");
  RequestText spec = get("/");
  spec.headers = {{"X-A", text("{{choice(\"a\nb\")}}", "headers.X-A")}};
  EXPECT_EQ(f.error(spec),
            "headers.X-A: variable choice(\"a\\nb\") can produce \"a\\nb\", which has CR, LF or NUL; a "
            "header value "
            "is a single line");
}

TEST(StatusRange, ParsesRangesAndSingleStatuses) {
  EXPECT_EQ(*parse_status_range("200-299", "expect"), (StatusRange{200, 299}));
  EXPECT_EQ(*parse_status_range("201", "expect"), (StatusRange{201, 201}));
  EXPECT_EQ(parse_status_range("201", "expect")->to_string(), "201");
  EXPECT_TRUE((StatusRange{200, 299}).contains(204));
  EXPECT_FALSE((StatusRange{200, 299}).contains(301));
  for (const char* bad : {"", "2xx", "299-200", "99", "600", "200-", "-200"}) {
    auto r = parse_status_range(bad, "expect");
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().message, "expect: \"" + std::string(bad) +
                                     "\" is not a status range; use e.g. 200-299 or 201 (statuses 100-599)");
  }
}

namespace {

// The text with every {{name}} replaced by the value of `name` in ctx's current draw.
std::string substituted(std::string_view text, const VariableSet& vars, RenderContext& ctx) {
  std::string out;
  for (std::size_t open; (open = text.find("{{")) != std::string_view::npos;) {
    const std::size_t close = text.find("}}", open);
    std::string_view name = text.substr(open + 2, close - open - 2);
    while (name.front() == ' ') name.remove_prefix(1);
    while (name.back() == ' ') name.remove_suffix(1);
    out.append(text.substr(0, open)).append(ctx.variables().value(*vars.find(name)));
    text.remove_prefix(close + 2);
  }
  return out.append(text);
}

}  // namespace

// Every rendered request is byte for byte what http::render_request writes for the same request with the
// drawn values written in: the request line, Host and User-Agent unless given, the headers in order,
// Content-Length by method and body, the body. Written against the renderer that wrote wire text directly,
// kept as the proof that the structured renderer and its serializer send the same bytes.
TEST(RequestTemplate, RendersWhatRenderRequestWritesForTheDrawnValues) {
  VariableSet vars;
  ASSERT_TRUE(vars.declare("n", Generator::sequence(7), "n"));
  ASSERT_TRUE(vars.declare("sku", Generator::zipf(1000, 1.1), "sku"));
  ASSERT_TRUE(vars.declare("region", Generator::choice({"eu", "us-east", "ap"}), "region"));
  ASSERT_TRUE(vars.declare("word", Generator::choice({"", "abc", "hello world"}), "word"));
  struct Case {
    std::string method, base, path;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
  };
  const std::vector<Case> cases = {
      {"GET", "http://example.test:8080/api/", "/item/{{sku}}?r={{ region }}", {{"X-Trace", "t-{{n}}"}}, ""},
      {"GET", "http://example.test", "/a", {{"Accept", "*/*"}, {"X-Word", "{{word}}"}}, ""},
      {"GET", "http://example.test", "/search", {}, "{{word}}"},
      {"POST",
       "http://127.0.0.1:9000",
       "/cart",
       {{"Content-Type", "application/json"}},
       "{\"sku\": {{sku}}}"},
      {"POST", "http://127.0.0.1:9000", "/cart/{{n}}", {}, ""},
      {"PUT",
       "http://h.test",
       "/x/{{n}}",
       {{"Host", "v-{{region}}.test"}, {"User-Agent", "probe/{{n}}"}},
       "{{word}}"},
      {"PATCH", "http://h.test", "/x/{{sku}}", {{"user-agent", "lower"}, {"host", "lower.test"}}, ""},
      {"DELETE", "http://h.test/base", "/x/{{sku}}", {}, "{{n}}"},
      {"HEAD", "http://h.test", "/x?k={{sku}}&r={{region}}", {{"X-A", ""}, {"X-B", "{{n}}-{{n}}"}}, ""},
      {"OPTIONS", "http://h.test:81", "/{{region}}", {}, "{{word}}{{word}}"},
  };
  for (const Case& c : cases) {
    RequestText spec = get(c.path);
    spec.method = text(c.method, "method");
    for (const auto& [name, value] : c.headers) spec.headers.emplace_back(name, text(value, "h"));
    spec.body = text(c.body, "body");
    auto t = RequestTemplate::compile(spec, base_url(c.base), vars, ".", 0);
    ASSERT_TRUE(t) << t.error().message;
    RenderContext ctx(vars, 1, 3, 0, 1);
    std::string out;
    for (int i = 0; i < 30; ++i) {
      render_http1(*t, ctx, out);
      net::Url url = base_url(c.base);
      url.target = substituted(t->target_text(), vars, ctx);
      std::vector<http::Header> headers;
      for (const auto& [name, value] : c.headers) headers.push_back({name, substituted(value, vars, ctx)});
      const auto expected = http::render_request(c.method, url, headers, substituted(c.body, vars, ctx));
      ASSERT_TRUE(expected) << expected.error().message;
      ASSERT_EQ(out, *expected) << c.method << " " << c.path << ", request " << i;
    }
  }
}
