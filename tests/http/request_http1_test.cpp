// Tests for the structured request (RequestBuffer, ConstantRequest) and its HTTP/1.1 serializer: parts as
// given, the extra header as a header after the user's, sizes, copies that keep their views.
#include "http/request_http1.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "http/request.h"
#include "http/request_buffer.h"

using namespace openloop;
using namespace openloop::http;

namespace {

const std::string k_ua = "User-Agent: " + std::string(default_user_agent()) + "\r\n";

net::Url url(std::string host_header, std::string target) {
  net::Url u;
  u.scheme = "http";
  u.host = "h";
  u.port = 80;
  u.target = std::move(target);
  u.host_header = std::move(host_header);
  return u;
}

}  // namespace

TEST(BuildRequest, KeepsThePartsAndTheirHttp1Bytes) {
  const auto r = build_request("POST", url("h:8", "/a?b"), {{"X-A", "1"}, {"user-agent", "u"}}, "body");
  ASSERT_TRUE(r) << r.error().message;
  const RequestParts& p = r->parts();
  EXPECT_EQ(p.method, "POST");
  EXPECT_EQ(p.target, "/a?b");
  EXPECT_EQ(p.authority, "h:8");
  ASSERT_EQ(p.headers.size(), 2U);
  EXPECT_EQ(p.headers[0].name, "X-A");
  EXPECT_EQ(p.headers[0].value, "1");
  EXPECT_EQ(p.headers[1].name, "user-agent");
  EXPECT_EQ(p.body, "body");
  EXPECT_FALSE(p.flags.given_host);
  EXPECT_TRUE(p.flags.given_user_agent);
  EXPECT_FALSE(p.flags.given_length);
  EXPECT_TRUE(p.flags.length_when_empty);
  EXPECT_EQ(r->http1(),
            "POST /a?b HTTP/1.1\r\nHost: h:8\r\nX-A: 1\r\nuser-agent: u\r\nContent-Length: 4\r\n\r\nbody");
}

TEST(WriteHttp1, TheExtraHeaderIsTheLastHeaderAndSizeIsExact) {
  const auto r = build_request("PUT", url("h", "/x"), {{"X-A", "1"}}, "abc");
  ASSERT_TRUE(r);
  std::string out;
  write_http1(r->parts(), ExtraHeader{"X-Deadline-Ms", 1234}, out);
  EXPECT_EQ(out, "PUT /x HTTP/1.1\r\nHost: h\r\n" + k_ua +
                     "X-A: 1\r\nContent-Length: 3\r\nX-Deadline-Ms: 1234\r\n\r\nabc");
  EXPECT_EQ(http1_size(r->parts(), ExtraHeader{"X-Deadline-Ms", 1234}), out.size());
  write_http1(r->parts(), ExtraHeader{"X-D", -5}, out);  // reuses `out`
  EXPECT_EQ(out,
            "PUT /x HTTP/1.1\r\nHost: h\r\n" + k_ua + "X-A: 1\r\nContent-Length: 3\r\nX-D: -5\r\n\r\nabc");
  write_http1(r->parts(), ExtraHeader{}, out);
  EXPECT_EQ(out, r->http1());
  EXPECT_EQ(http1_size(r->parts(), ExtraHeader{}), r->http1().size());
  const auto get = build_request("GET", url("h", "/"), {{"Host", "v"}}, "");
  ASSERT_TRUE(get);
  write_http1(get->parts(), ExtraHeader{"X-D", 0}, out);
  EXPECT_EQ(out, "GET / HTTP/1.1\r\n" + k_ua + "Host: v\r\nX-D: 0\r\n\r\n");
  EXPECT_EQ(http1_size(get->parts(), ExtraHeader{"X-D", 0}), out.size());
}

TEST(RequestBuffer, FieldsInPiecesAndCopiesThatPointIntoThemselves) {
  RequestBuffer b;
  b.append("GE");
  b.append("T");
  b.end(RequestBuffer::Field::method);
  b.append("/item/");
  b.append("42");
  b.end(RequestBuffer::Field::target);
  b.append("a.test");
  b.end(RequestBuffer::Field::authority);
  b.append("X-K");
  b.end(RequestBuffer::Field::header_name);
  b.end(RequestBuffer::Field::header_value);  // empty value
  b.end(RequestBuffer::Field::body);
  b.finish(RequestFlags{false, true, false, false});
  std::string out;
  write_http1(b.parts(), ExtraHeader{}, out);
  EXPECT_EQ(out, "GET /item/42 HTTP/1.1\r\nHost: a.test\r\nX-K: \r\n\r\n");

  const RequestBuffer copy = b;  // small: the text is in the object (no heap), the views must follow it
  RequestBuffer moved = RequestBuffer(b);
  b.clear();
  b.append("POST");
  b.end(RequestBuffer::Field::method);
  b.finish(RequestFlags{});
  EXPECT_EQ(copy.parts().method, "GET");
  EXPECT_EQ(copy.parts().target, "/item/42");
  ASSERT_EQ(copy.parts().headers.size(), 1U);
  EXPECT_EQ(copy.parts().headers[0].name, "X-K");
  EXPECT_TRUE(copy.parts().flags.given_user_agent);
  EXPECT_EQ(moved.parts().target, "/item/42");
  EXPECT_EQ(moved.parts().authority, "a.test");
  EXPECT_EQ(b.parts().method, "POST");
  EXPECT_TRUE(b.parts().headers.empty());
  EXPECT_TRUE(b.parts().target.empty());
}
