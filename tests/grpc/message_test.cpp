// Tests for a method's request message from JSON, encoded and framed; JSON that does not fit names the type
// and the field.
#include "grpc/message.h"

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

namespace openloop::grpc {
namespace {

namespace gp = google::protobuf;

// One .proto held in memory (libprotobuf's own MockSourceTree is not installed).
class OneFile final : public gp::compiler::SourceTree {
 public:
  OneFile(std::string name, std::string text) : m_name(std::move(name)), m_text(std::move(text)) {}
  gp::io::ZeroCopyInputStream* Open(const std::string& filename) override {
    if (filename != m_name) return nullptr;
    return new gp::io::ArrayInputStream(m_text.data(), static_cast<int>(m_text.size()));
  }

 private:
  std::string m_name, m_text;
};

// greet.Hello/Say(SayRequest) from source text, through the importer over an in-memory tree.
class MessageTest : public ::testing::Test {
 protected:
  MessageTest()
      : m_tree("greet.proto", R"(syntax = "proto3";
package greet;
message Inner { repeated int64 ids = 1; }
message SayRequest { string name = 1; int32 times = 2; Inner inner = 3; }
message SayReply { string text = 1; }
service Hello { rpc Say(SayRequest) returns (SayReply); }
)"),
        m_importer(&m_tree, &m_errors) {
    const gp::FileDescriptor* f = m_importer.Import("greet.proto");
    m_method = f->service(0)->method(0);
  }
  // The message a framed body holds, as text (the prefix checked on the way).
  std::string decoded(const std::string& framed) const {
    EXPECT_GE(framed.size(), 5U);
    EXPECT_EQ(framed[0], 0);
    const auto length = static_cast<std::size_t>(static_cast<unsigned char>(framed[4]));
    EXPECT_EQ(framed.size(), 5 + length);
    gp::DynamicMessageFactory factory;
    std::unique_ptr<gp::Message> m(factory.GetPrototype(m_method->input_type())->New());
    EXPECT_TRUE(m->ParseFromString(framed.substr(5)));
    return m->ShortDebugString();
  }

  struct NoErrors : gp::compiler::MultiFileErrorCollector {
    void AddError(const std::string&, int, int, const std::string& message) override {
      ADD_FAILURE() << message;
    }
  };
  OneFile m_tree;
  NoErrors m_errors;
  gp::compiler::Importer m_importer;
  const gp::MethodDescriptor* m_method = nullptr;
};

TEST_F(MessageTest, JsonBecomesTheFramedMessage) {
  MessageEncoder encoder(*m_method);
  EXPECT_EQ(encoder.input_type(), "greet.SayRequest");
  auto framed = encoder.framed(R"({"name": "ada", "times": 3, "inner": {"ids": ["7", 8]}})", "--data");
  ASSERT_TRUE(framed) << framed.error().message;
  EXPECT_EQ(decoded(*framed), R"(name: "ada" times: 3 inner { ids: 7 ids: 8 })");
  auto empty = encoder.framed("{}", "--data");
  ASSERT_TRUE(empty);
  EXPECT_EQ(*empty, std::string(5, '\0'));
}

TEST_F(MessageTest, JsonThatDoesNotFitNamesTheInputTheTypeAndTheField) {
  MessageEncoder encoder(*m_method);
  auto unknown = encoder.framed(R"({"inner": {"idz": [1]}})", "--data");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ExitCode::usage);
  EXPECT_NE(unknown.error().message.find("--data: the JSON does not fit greet.SayRequest"), std::string::npos)
      << unknown.error().message;
  EXPECT_NE(unknown.error().message.find("idz"), std::string::npos) << unknown.error().message;
  auto type = encoder.framed(R"({"times": "often"})", "--data");
  ASSERT_FALSE(type);
  EXPECT_NE(type.error().message.find("times"), std::string::npos) << type.error().message;
  EXPECT_FALSE(encoder.framed("not json", "--data"));
}

// A templated message's per-call path: into the caller's buffers, reused; a value that does not fit says why.
TEST_F(MessageTest, FrameIntoReusesTheBuffersAndSaysWhyNot) {
  MessageEncoder encoder(*m_method);
  std::string out, scratch;
  ASSERT_TRUE(encoder.frame_into(R"({"name": "user-17", "times": 2})", out, scratch)) << out;
  EXPECT_EQ(decoded(out), R"(name: "user-17" times: 2)");
  ASSERT_TRUE(encoder.frame_into(R"({"times": 5})", out, scratch)) << out;
  EXPECT_EQ(decoded(out), "times: 5");  // cleared first: nothing of the previous message left
  EXPECT_FALSE(encoder.frame_into(R"({"times": seven})", out, scratch));
  EXPECT_NE(out.find("the JSON does not fit greet.SayRequest"), std::string::npos) << out;
}

}  // namespace
}  // namespace openloop::grpc
