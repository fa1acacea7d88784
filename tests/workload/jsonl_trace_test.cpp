// JSONL trace lines: fields, defaults, and each refusal naming what was expected.
#include "workload/jsonl_trace.h"

#include <gtest/gtest.h>

namespace openloop::workload {
namespace {

Result<TraceRecord> parse(std::string_view line) {
  JsonlTraceParser p;
  TraceRecord r;
  OPENLOOP_TRY_VOID(p.parse(line, r));
  return r;
}

TEST(JsonlTrace, ReadsEveryField) {
  const auto r = parse(R"({"t": 12.345, "method": "POST", "url": "/a/b?q=1", "headers": {"X-K": "v"},)"
                       R"( "body": "hello", "session": 7})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->t, Nanos(12'345'000'000));
  EXPECT_EQ(r->method, "POST");
  EXPECT_EQ(r->target, "/a/b?q=1");
  ASSERT_EQ(r->headers.size(), 1U);
  EXPECT_EQ(r->headers[0].name, "X-K");
  EXPECT_EQ(r->headers[0].value, "v");
  EXPECT_EQ(r->body, "hello");
  EXPECT_EQ(r->session, "7");
}

TEST(JsonlTrace, DefaultsToGetAndAcceptsRfc3339AndAbsoluteUrls) {
  const auto r = parse(R"({"t": "1970-01-01T00:00:01.5Z", "url": "https://prod.example:8443/x?y"})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->t, Nanos(1'500'000'000));
  EXPECT_EQ(r->method, "GET");
  EXPECT_EQ(r->target, "/x?y");
  EXPECT_EQ(parse(R"({"t": 0, "url": "http://h"})")->target, "/");
}

TEST(JsonlTrace, DecodesBase64Bodies) {
  const auto r = parse(R"({"t": 0, "url": "/", "body_b64": "AAEC/w=="})");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->body, std::string("\x00\x01\x02\xff", 4));
}

TEST(JsonlTrace, RefusesWhatItCannotSendNamingIt) {
  const auto message = [](std::string_view line) {
    const auto r = parse(line);
    return r ? std::string("accepted") : r.error().message;
  };
  EXPECT_NE(message(R"({"url": "/"})").find("no \"t\""), std::string::npos);
  EXPECT_NE(message(R"({"t": 1})").find("no \"url\""), std::string::npos);
  EXPECT_NE(message(R"({"t": 1, "url": "x"})").find("starting with '/'"), std::string::npos);
  EXPECT_NE(message(R"({"t": 1, "url": "/a b"})").find("space"), std::string::npos);
  EXPECT_NE(message(R"({"t": 1, "url": "/", "headers": {"X": "a\r\nEvil: 1"}})").find("CR, LF"),
            std::string::npos);
  EXPECT_NE(message(R"({"t": 1, "url": "/", "method": "G E T"})").find("not an HTTP method"), std::string::npos);
  EXPECT_NE(message(R"({"t": 1, "url": "/", "body": "a", "body_b64": "YQ=="})").find("not both"),
            std::string::npos);
  EXPECT_NE(message(R"({"t": "yesterday", "url": "/"})").find("RFC 3339"), std::string::npos);
  EXPECT_NE(message(R"({"t": 1, "url": "/")").find("not a JSON object"), std::string::npos);  // truncated
  EXPECT_NE(message("{\"t\": 1, \"url\": \"/\xff\"}").find("not a JSON object"), std::string::npos);
}

}  // namespace
}  // namespace openloop::workload
