// Tests for requests given on the command line as templates: exact bytes per draw, the URL cut at the path,
// and errors that name the flag.
#include "workload/command_line_request.h"

#include <gtest/gtest.h>

#include <set>

#include "http/request.h"
#include "workload_test_util.h"

using namespace openloop;
using namespace openloop::workload;
using openloop::workload::test_util::render_http1;

namespace {

WorkloadPlan plan_of(const CommandLineRequest& r) {
  auto plan = plan_from_command_line(r, ".");
  EXPECT_TRUE(plan) << (plan ? "" : plan.error().message);
  return plan ? std::move(*plan) : WorkloadPlan{};
}

std::string error_of(const CommandLineRequest& r) {
  auto plan = plan_from_command_line(r, ".");
  EXPECT_FALSE(plan) << r.url;
  if (plan) return {};
  EXPECT_EQ(plan.error().code, ExitCode::usage);
  return plan.error().message;
}

}  // namespace

TEST(CommandLineRequest, ATemplatedUrlRendersAsRenderRequestWouldForEachDrawnKey) {
  CommandLineRequest r;
  r.url = "http://127.0.0.1:8080/item/{{uniform(1, 3)}}?v=1";
  const WorkloadPlan plan = plan_of(r);
  ASSERT_EQ(plan.requests.size(), 1U);
  const RequestTemplate& t = plan.requests.front();
  EXPECT_EQ(t.name(), "GET /item/{{uniform(1, 3)}}?v=1");
  EXPECT_TRUE(t.has_variables());
  EXPECT_EQ(plan.target.host_header, "127.0.0.1:8080");
  RenderContext ctx(plan.variables, 1, 1, 0, 1);
  std::string out;
  std::set<std::string> keys;
  for (int i = 0; i < 100; ++i) {
    const std::string key(render_http1(t, ctx, out));
    keys.insert(key);
    net::Url url = plan.target;
    url.target = "/item/" + key + "?v=1";
    EXPECT_EQ(out, *http::render_request("GET", url, {}, ""));
  }
  EXPECT_EQ(keys, (std::set<std::string>{"1", "2", "3"}));
}

TEST(CommandLineRequest, HeaderValuesAndTheInlineBodyAreTemplatesToo) {
  CommandLineRequest r;
  r.url = "http://h/cart";
  r.method = "POST";
  r.headers = {{"X-User", "u{{sequence(7)}}"}};
  r.body = "{\"sku\": {{sequence(100)}}}";
  const WorkloadPlan plan = plan_of(r);
  RenderContext ctx(plan.variables, 1, 1, 0, 1);
  std::string out;
  render_http1(plan.requests.front(), ctx, out);
  net::Url url = plan.target;
  url.target = "/cart";
  EXPECT_EQ(out, *http::render_request("POST", url, {{"X-User", "u7"}}, "{\"sku\": 100}"));
  render_http1(plan.requests.front(), ctx, out);
  EXPECT_EQ(out, *http::render_request("POST", url, {{"X-User", "u8"}}, "{\"sku\": 101}"));
}

TEST(CommandLineRequest, AUrlWithoutPathSendsSlashAndDropsTheFragment) {
  auto split = split_url("https://example.test:8443?q={{uniform(1, 2)}}#top", "URL");
  ASSERT_TRUE(split) << split.error().message;
  EXPECT_EQ(split->target, "/?q={{uniform(1, 2)}}");
  EXPECT_EQ(split->base.host_header, "example.test:8443");
  EXPECT_TRUE(split->base.tls);
}

TEST(CommandLineRequest, TheHostCannotBeTemplated) {
  CommandLineRequest r;
  r.url = "http://shard{{uniform(1, 3)}}.test/item";
  EXPECT_EQ(error_of(r),
            "URL 'http://shard{{uniform(1, 3)}}.test/item': the scheme, host and port cannot be templated (they "
            "are resolved once, before the run); put {{...}} in the path or query, e.g. "
            "http://host:8080/item/{{zipf(10000, 1.1)}}");
  r.url = "http://h:{{uniform(1, 3)}}/";
  EXPECT_NE(error_of(r).find("cannot be templated"), std::string::npos);
}

TEST(CommandLineRequest, TemplateErrorsNameTheFlag) {
  CommandLineRequest r;
  r.url = "http://h/item/{{sku}}";
  EXPECT_EQ(error_of(r),
            "URL: unknown variable \"sku\" in {{sku}}; declared variables: none; or write a generator inline, "
            "e.g. {{zipf(1000, 1.1)}}");
  r.url = "http://h/item/{{zipf(10)}}";
  EXPECT_EQ(error_of(r).substr(0, 5), "URL: ");
  r.url = "http://h/";
  r.headers = {{"X-Key", "{{uniform(1, 2)"}};
  EXPECT_EQ(error_of(r).substr(0, 33), "-H X-Key: \"{{uniform(1, 2)\": a {{");
  r.headers.clear();
  r.body = "{{nope}}";
  EXPECT_EQ(error_of(r).substr(0, 34), "--body: unknown variable \"nope\" in");
}

TEST(CommandLineRequest, ABodyFileIsNotReadAsATemplate) {
  CommandLineRequest r;
  r.url = "http://h/item/{{uniform(1, 2)}}";
  r.body = "{\"a\": \"{{not a reference}}\"}";
  r.body_is_template = false;
  EXPECT_EQ(error_of(r),
            "--body @FILE: the file holds \"{{\", which this templated request (URL or -H) would read as a "
            "template reference; remove it from the file, or template the body inline (--body TEXT)");
  r.body = "{\"a\": 1}";
  const WorkloadPlan plan = plan_of(r);
  RenderContext ctx(plan.variables, 1, 1, 0, 1);
  std::string out;
  render_http1(plan.requests.front(), ctx, out);
  EXPECT_NE(out.find("\r\n\r\n{\"a\": 1}"), std::string::npos);
}
