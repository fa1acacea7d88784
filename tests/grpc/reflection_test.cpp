// Tests for server reflection's messages: the requests, the files collected, the imports asked for in turn.
#include "grpc/reflection.h"

#include <google/protobuf/descriptor.pb.h>
#include <gtest/gtest.h>

#include "grpc/framing.h"
#include "grpc/schema.h"

namespace openloop::grpc {
namespace {

namespace gp = google::protobuf;

// A ServerReflectionResponse carrying `files` (field 4: FileDescriptorResponse, its field 1 repeated).
std::string response_with(const std::vector<gp::FileDescriptorProto>& files) {
  std::string inner;
  for (const auto& f : files) {
    const std::string bytes = f.SerializeAsString();
    inner += '\x0a';
    inner += static_cast<char>(bytes.size());  // the test's files are under 128 bytes
    inner += bytes;
  }
  return std::string("\x22", 1) + static_cast<char>(inner.size()) + inner;
}

gp::FileDescriptorProto file(const std::string& name, const std::vector<std::string>& deps) {
  gp::FileDescriptorProto f;
  f.set_name(name);
  f.set_package("p");
  for (const auto& d : deps) f.add_dependency(d);
  return f;
}

TEST(Reflection, TheFirstRequestAsksForTheFileContainingTheSymbol) {
  ReflectionFiles files("p.Svc");
  // Framed; field 4 (tag 0x22), length 5, the symbol.
  EXPECT_EQ(files.first_request(), std::string("\0\0\0\0\7\x22\5p.Svc", 12));
  EXPECT_FALSE(files.complete());
}

TEST(Reflection, ImportsAreAskedForOnceAndTheSetResolves) {
  ReflectionFiles files("p.Svc");
  (void)files.first_request();
  gp::FileDescriptorProto top = file("top.proto", {"a.proto", "b.proto"});
  auto* svc = top.add_service();
  svc->set_name("Svc");
  std::string more;
  ASSERT_TRUE(files.add_response(response_with({top}), more));
  std::string want;
  append_framed(std::string("\x1a\x07", 2) + "a.proto", want);
  append_framed(std::string("\x1a\x07", 2) + "b.proto", want);
  EXPECT_EQ(more, want);
  EXPECT_FALSE(files.complete());
  more.clear();
  // a.proto imports b.proto, already asked for: nothing new.
  ASSERT_TRUE(files.add_response(response_with({file("a.proto", {"b.proto"})}), more));
  EXPECT_EQ(more, "");
  ASSERT_TRUE(files.add_response(response_with({file("b.proto", {}), file("a.proto", {"b.proto"})}), more));
  EXPECT_EQ(more, "");
  EXPECT_TRUE(files.complete());
  const auto schema = Schema::from_descriptor_set(files.descriptor_set(), "test", "hint");
  ASSERT_TRUE(schema) << schema.error().message;
  EXPECT_EQ(schema.value()->services(), std::vector<std::string>{"p.Svc"});
}

TEST(Reflection, AnErrorResponseOrGarbageIsAUsageError) {
  ReflectionFiles files("p.Nope");
  std::string more;
  // field 7: ErrorResponse {error_code: 5, error_message: "nf"}
  const auto err = files.add_response(std::string("\x3a\x06\x08\x05\x12\x02nf", 8), more);
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().code, ExitCode::usage);
  EXPECT_EQ(err.error().message, "the server's reflection answered error 5 (nf) when asked for p.Nope");
  const auto garbage = files.add_response("\xff\xff\xff", more);
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().message.find("not a ServerReflectionResponse"), std::string::npos);
  EXPECT_FALSE(files.add_response("", more));
}

}  // namespace
}  // namespace openloop::grpc
