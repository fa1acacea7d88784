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
  const auto upper = parse(R"({"t": 0, "url": "HTTPS://Prod.Example/x"})");  // a scheme is case-insensitive
  ASSERT_TRUE(upper) << upper.error().message;
  EXPECT_EQ(upper->target, "/x");
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
  // A date the numbers' bound refuses (found by the jsonl_trace fuzzer: `trace convert` wrote 1680 as
  // -9122511599.877, which then did not read).
  EXPECT_NE(message(R"({"t": "1680-12-01T10:00:00.123+01:00", "url": "/"})").find("more than 9e9 s from 1970"),
            std::string::npos);
  EXPECT_EQ(message(R"({"t": "1700-01-01T00:00:00Z", "url": "/"})"), "accepted");
  EXPECT_NE(message(R"({"t": 1, "url": "/")").find("not a JSON object"), std::string::npos);  // truncated
  EXPECT_NE(message("{\"t\": 1, \"url\": \"/\xff\"}").find("not a JSON object"), std::string::npos);
}

TEST(JsonlTrace, AWrittenRecordReadsBackTheSame) {
  TraceRecord r;
  r.t = Nanos(1'796'115'600'250'000'007);  // 2026-12-01T09:00:00.250000007Z: every nanosecond kept
  r.method = "PUT";
  r.target = "/a/\xc3\xa9?q=\xff";
  r.headers = {{"X-A", "1"}, {"X-A", "2"}, {"Accept", "*/*"}};
  r.body = std::string("\x00\x01\xfe", 3);
  r.session = "s1";
  r.status = 201;
  r.response_bytes = 0;
  std::string line;
  ASSERT_TRUE(append_jsonl_record(r, line));
  ASSERT_EQ(line.back(), '\n');
  EXPECT_NE(line.find("\"t\":\"2026-12-01T09:00:00.250000007Z\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"body_b64\":\"AAH+\""), std::string::npos) << line;
  line.pop_back();
  const auto back = parse(line);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->t, r.t);
  EXPECT_EQ(back->method, "PUT");
  EXPECT_EQ(back->target, "/a/%C3%A9?q=%FF") << "a target that is not UTF-8: every byte past ASCII percent-encoded";
  ASSERT_EQ(back->headers.size(), 2U);
  EXPECT_EQ(back->headers[0].name, "Accept");
  EXPECT_EQ(back->headers[1].value, "1, 2") << "a repeated header joined";
  EXPECT_EQ(back->body, r.body);
  EXPECT_EQ(back->session, "s1");
  EXPECT_EQ(back->status, 201);
  EXPECT_EQ(back->response_bytes, 0);
}

TEST(JsonlTrace, SmallStampsStaySecondsAndNonUtf8HeadersAreRefused) {
  TraceRecord r;
  r.t = Nanos(12'345'678'901);
  r.method = "GET";
  r.target = "/";
  std::string line;
  ASSERT_TRUE(append_jsonl_record(r, line));
  EXPECT_EQ(line, "{\"method\":\"GET\",\"t\":12.345678901,\"url\":\"/\"}\n");
  r.headers = {{"X-Bin", "\xff"}};
  const auto bad = append_jsonl_record(r, line);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("header X-Bin: the value is not UTF-8"), std::string::npos);
}

TEST(JsonlTrace, Base64AndUtf8Helpers) {
  EXPECT_EQ(encode_base64(""), "");
  EXPECT_EQ(encode_base64("f"), "Zg==");
  EXPECT_EQ(encode_base64("fo"), "Zm8=");
  EXPECT_EQ(encode_base64("foo"), "Zm9v");
  EXPECT_EQ(*decode_base64(encode_base64("any bytes \x80\xff")), "any bytes \x80\xff");
  EXPECT_TRUE(is_utf8("plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(is_utf8("\xff"));
  EXPECT_FALSE(is_utf8("\xc3"));          // cut short
  EXPECT_FALSE(is_utf8("\xc0\xaf"));      // overlong
  EXPECT_FALSE(is_utf8("\xed\xa0\x80"));  // a surrogate
}

}  // namespace
}  // namespace openloop::workload
