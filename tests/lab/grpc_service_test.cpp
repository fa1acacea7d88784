// Tests for the lab's gRPC messages, reflection answers, grpc-timeout and status mapping.
#include "lab/grpc_service.h"

#include <gtest/gtest.h>

namespace openloop::lab {
namespace {

using namespace std::chrono_literals;

std::string framed(std::string_view message) {
  std::string out("\0\0\0\0", 4);
  out.push_back(static_cast<char>(message.size()));  // the tests' messages are under 256 bytes
  out.append(message);
  return out;
}

TEST(GrpcService, ACallsKeyIsReadFromOneWholeMessage) {
  // CallRequest {key: "k1", payload: "xyz"}
  const std::string body = framed(std::string("\x0a\x02k1\x12\x03xyz", 9));
  EXPECT_EQ(lab_call_key(body), "k1");
  EXPECT_EQ(lab_call_key(framed("")), "");  // no key: the empty key
  EXPECT_FALSE(lab_call_key(body.substr(0, body.size() - 1)));  // cut short
  EXPECT_FALSE(lab_call_key(body + body));                      // two messages
  EXPECT_FALSE(lab_call_key(framed("\x0a\x09k1")));             // a field longer than the message
  std::string compressed = body;
  compressed[0] = 1;
  EXPECT_FALSE(lab_call_key(compressed));
}

TEST(GrpcService, AReplyIsFramedWithTheKeyAndPayload) {
  std::string out = "old";
  write_lab_reply("k1", "xyz", out);
  EXPECT_EQ(out, framed(std::string("\x0a\x02k1\x12\x03xyz", 9)));
}

TEST(GrpcService, ReflectionAnswersEachWholeRequestAndKeepsAPartialOne) {
  // file_containing_symbol "openloop.lab.v1.Lab", then the first bytes of a second request.
  const std::string ask = framed(std::string("\x22\x13openloop.lab.v1.Lab", 21));
  std::string in = ask + ask.substr(0, 3);
  std::string out;
  ASSERT_TRUE(answer_reflection(in, out));
  EXPECT_EQ(in, ask.substr(0, 3));
  EXPECT_NE(out.find(lab_proto_descriptor()), std::string::npos);
  // An unknown symbol: an error_response (field 7) with NOT_FOUND (5).
  in = framed(std::string("\x22\x03x.Y", 5));
  out.clear();
  ASSERT_TRUE(answer_reflection(in, out));
  EXPECT_NE(out.find(std::string("\x3a", 1)), std::string::npos);
  EXPECT_NE(out.find(std::string("\x08\x05", 2)), std::string::npos);
  EXPECT_EQ(out.find(lab_proto_descriptor()), std::string::npos);
  in = std::string("\x01\0\0\0\0", 5);  // compressed: refused
  EXPECT_FALSE(answer_reflection(in, out));
}

TEST(GrpcService, GrpcTimeoutReadsEveryUnit) {
  EXPECT_EQ(parse_grpc_timeout("50m"), Nanos(50ms));
  EXPECT_EQ(parse_grpc_timeout("1500u"), Nanos(1500us));
  EXPECT_EQ(parse_grpc_timeout("2S"), Nanos(2s));
  EXPECT_EQ(parse_grpc_timeout("1H"), Nanos(1h));
  EXPECT_EQ(parse_grpc_timeout("99999999n"), Nanos(99999999));
  for (const char* bad : {"", "m", "50", "50x", "123456789m", "-5m", "5 m"}) EXPECT_FALSE(parse_grpc_timeout(bad)) << bad;
}

TEST(GrpcService, RepliesMapToGrpcStatuses) {
  EXPECT_EQ(grpc_status_for(Reply::ok), 0);
  EXPECT_EQ(grpc_status_for(Reply::shed), 8);
  EXPECT_EQ(grpc_status_for(Reply::unavailable), 8);
  EXPECT_EQ(grpc_status_for(Reply::expired), 4);
  EXPECT_EQ(grpc_status_for(Reply::server_error), 14);
  EXPECT_EQ(grpc_status_for(Reply::bad_request), 3);
  EXPECT_TRUE(is_grpc_content_type("application/grpc"));
  EXPECT_TRUE(is_grpc_content_type("application/grpc+proto"));
  EXPECT_FALSE(is_grpc_content_type("application/grpc-web"));
  EXPECT_TRUE(is_reflection_path("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"));
}

}  // namespace
}  // namespace openloop::lab
