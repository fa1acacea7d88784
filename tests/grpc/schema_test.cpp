// Tests for loading a gRPC schema (.proto files through the importer, a descriptor set) and finding a unary
// method in it: every refusal names its input and what exists.
#include "grpc/schema.h"

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <gtest/gtest.h>

namespace openloop::grpc {
namespace {

namespace fs = std::filesystem;

// A schema on disk: shop.proto imports types/item.proto, found under the root's "include" directory.
class SchemaTest : public ::testing::Test {
 protected:
  SchemaTest() {
    // One folder per test and process: ctest runs this fixture's tests in parallel.
    m_root = fs::path(::testing::TempDir()) /
             ("schema_test-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
              "-" + std::to_string(::getpid()));
    fs::remove_all(m_root);
    fs::create_directories(m_root / "include" / "types");
    write("include/types/item.proto", R"(syntax = "proto3";
package shop.types;
message Item { string sku = 1; int32 count = 2; }
)");
    write("shop.proto", R"(syntax = "proto3";
package shop.v1;
import "types/item.proto";
message GetRequest { shop.types.Item item = 1; }
message GetReply { string name = 1; }
service Store {
  rpc Get(GetRequest) returns (GetReply);
  rpc Follow(GetRequest) returns (stream GetReply);
  rpc Upload(stream GetRequest) returns (GetReply);
  rpc Chat(stream GetRequest) returns (stream GetReply);
}
)");
  }
  ~SchemaTest() override {
    std::error_code ignored;
    fs::remove_all(m_root, ignored);
  }
  void write(const std::string& name, const std::string& text) { std::ofstream(m_root / name) << text; }
  std::string path(const std::string& name) const { return (m_root / name).string(); }
  std::unique_ptr<Schema> load() {
    auto s = Schema::from_protos({path("shop.proto")}, {path("include")});
    EXPECT_TRUE(s) << s.error().message;
    return s ? std::move(*s) : nullptr;
  }

  fs::path m_root;
};

TEST_F(SchemaTest, AProtoAndItsImportLoadAndTheMethodIsFoundBothWays) {
  auto schema = load();
  ASSERT_TRUE(schema);
  EXPECT_EQ(schema->services(), std::vector<std::string>{"shop.v1.Store"});
  auto slash = schema->find_method("shop.v1.Store/Get");
  ASSERT_TRUE(slash) << slash.error().message;
  EXPECT_EQ((*slash)->input_type()->full_name(), "shop.v1.GetRequest");
  auto dot = schema->find_method("shop.v1.Store.Get");  // ghz's spelling
  ASSERT_TRUE(dot) << dot.error().message;
  EXPECT_EQ(*dot, *slash);
}

TEST_F(SchemaTest, AnUnknownServiceOrMethodListsWhatExists) {
  auto schema = load();
  ASSERT_TRUE(schema);
  auto service = schema->find_method("shop.v1.Shop/Get");
  ASSERT_FALSE(service);
  EXPECT_EQ(service.error().code, ExitCode::usage);
  EXPECT_EQ(service.error().message,
            "--call shop.v1.Shop/Get: no service shop.v1.Shop in the schema; its services: shop.v1.Store");
  auto method = schema->find_method("shop.v1.Store/Put");
  ASSERT_FALSE(method);
  EXPECT_EQ(
      method.error().message,
      "--call shop.v1.Store/Put: service shop.v1.Store has no method Put; its methods: Get, Follow, Upload, "
      "Chat");
  EXPECT_FALSE(schema->find_method("Get"));
}

TEST_F(SchemaTest, StreamingMethodsAreRefusedAsUnaryOnly) {
  auto schema = load();
  ASSERT_TRUE(schema);
  for (const char* name : {"Follow", "Upload", "Chat"}) {
    auto m = schema->find_method(std::string("shop.v1.Store/") + name);
    ASSERT_FALSE(m) << name;
    EXPECT_NE(m.error().message.find("streaming method; openloop calls unary methods only"),
              std::string::npos)
        << m.error().message;
  }
}

TEST_F(SchemaTest, AMissingImportNamesItAndImportPath) {
  auto s = Schema::from_protos({path("shop.proto")}, {});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ExitCode::usage);
  EXPECT_NE(s.error().message.find("types/item.proto"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("--import-path"), std::string::npos) << s.error().message;
  auto missing = Schema::from_protos({path("none.proto")}, {});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "--proto " + path("none.proto") + ": no such file");
}

TEST_F(SchemaTest, ADescriptorSetGivesTheSameMethods) {
  auto schema = load();
  ASSERT_TRUE(schema);
  // The set protoc --include_imports would write: the import first, then the file.
  google::protobuf::FileDescriptorSet set;
  const google::protobuf::FileDescriptor* shop = (*schema->find_method("shop.v1.Store/Get"))->file();
  shop->dependency(0)->CopyTo(set.add_file());
  shop->CopyTo(set.add_file());
  {
    std::ofstream out(path("shop.protoset"), std::ios::binary);
    set.SerializeToOstream(&out);
  }
  auto from_set = Schema::from_protoset(path("shop.protoset"));
  ASSERT_TRUE(from_set) << from_set.error().message;
  auto m = (*from_set)->find_method("shop.v1.Store/Get");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ((*m)->input_type()->field(0)->message_type()->full_name(), "shop.types.Item");

  set.mutable_file()->DeleteSubrange(0, 1);  // without its import
  {
    std::ofstream out(path("partial.protoset"), std::ios::binary);
    set.SerializeToOstream(&out);
  }
  auto partial = Schema::from_protoset(path("partial.protoset"));
  ASSERT_FALSE(partial);
  EXPECT_NE(partial.error().message.find("does not resolve"), std::string::npos) << partial.error().message;
}

TEST_F(SchemaTest, AnUnreadableOrForeignProtosetIsNamed) {
  auto none = Schema::from_protoset(path("none.protoset"));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "--protoset " + path("none.protoset") + ": cannot open the file");
  write("text.protoset", "this is not a descriptor set");
  auto text = Schema::from_protoset(path("text.protoset"));
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("not a FileDescriptorSet"), std::string::npos) << text.error().message;
}

}  // namespace
}  // namespace openloop::grpc
