// Reflection's messages encoded and read by hand with protobuf's wire-format streams: the two message types
// are small, and no generated code is needed.
#include "grpc/reflection.h"

#include <fmt/format.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include "grpc/framing.h"

namespace openloop::grpc {

namespace gp = google::protobuf;
using gp::internal::WireFormatLite;

namespace {
// ServerReflectionRequest's fields.
constexpr int k_file_by_filename = 3;
constexpr int k_file_containing_symbol = 4;
// ServerReflectionResponse's fields.
constexpr int k_file_descriptor_response = 4;
constexpr int k_error_response = 7;

std::string length_delimited(int field, std::string_view bytes) {
  std::string out;
  {
    gp::io::StringOutputStream raw(&out);
    gp::io::CodedOutputStream coded(&raw);
    coded.WriteTag(WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    coded.WriteVarint32(static_cast<std::uint32_t>(bytes.size()));
    coded.WriteRaw(bytes.data(), static_cast<int>(bytes.size()));
  }
  return out;
}

// Reads a length-delimited field's bytes at the stream's position.
bool read_bytes(gp::io::CodedInputStream& in, std::string& out) {
  std::uint32_t len = 0;
  return in.ReadVarint32(&len) && in.ReadString(&out, static_cast<int>(len));
}

Error not_a_response() {
  return Error{ExitCode::usage,
               "the server's reflection answered with a message that is not a ServerReflectionResponse"};
}
}  // namespace

ReflectionFiles::ReflectionFiles(std::string symbol) : m_symbol(std::move(symbol)) {}

void ReflectionFiles::ask(int field, std::string_view name, std::string& out) {
  append_framed(length_delimited(field, name), out);
  ++m_asked;
}

std::string ReflectionFiles::first_request() {
  std::string out;
  ask(k_file_containing_symbol, m_symbol, out);
  return out;
}

Result<void> ReflectionFiles::add_response(std::string_view message, std::string& more) {
  ++m_answered;
  gp::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(message.data()),
                              static_cast<int>(message.size()));
  bool carried = false;
  while (const std::uint32_t tag = in.ReadTag()) {
    const int field = WireFormatLite::GetTagFieldNumber(tag);
    const bool delimited = WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
    if (delimited && field == k_error_response) {
      std::string bytes;
      if (!read_bytes(in, bytes)) return tl::unexpected(not_a_response());
      gp::io::CodedInputStream err(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                   static_cast<int>(bytes.size()));
      std::uint32_t code = 0;
      std::string text;
      while (const std::uint32_t t = err.ReadTag()) {
        if (t == WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_VARINT)) {
          if (!err.ReadVarint32(&code)) break;
        } else if (t == WireFormatLite::MakeTag(2, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
          if (!read_bytes(err, text)) break;
        } else if (!WireFormatLite::SkipField(&err, t)) {
          break;
        }
      }
      return usage_error(fmt::format("the server's reflection answered error {} ({}) when asked for {}", code,
                                     text.empty() ? "no message" : text, m_symbol));
    }
    if (delimited && field == k_file_descriptor_response) {
      std::string bytes;
      if (!read_bytes(in, bytes)) return tl::unexpected(not_a_response());
      gp::io::CodedInputStream files(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                     static_cast<int>(bytes.size()));
      while (const std::uint32_t t = files.ReadTag()) {
        if (t != WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
          if (!WireFormatLite::SkipField(&files, t)) return tl::unexpected(not_a_response());
          continue;
        }
        std::string file_bytes;
        gp::FileDescriptorProto file;
        if (!read_bytes(files, file_bytes) || !file.ParseFromString(file_bytes))
          return tl::unexpected(not_a_response());
        carried = true;
        // A file is kept once, however often it is sent.
        if (!m_received.insert(file.name()).second) continue;
        m_known.insert(file.name());
        m_set += length_delimited(1, file_bytes);
        for (const std::string& dep : file.dependency())
          if (m_known.insert(dep).second) ask(k_file_by_filename, dep, more);
      }
      continue;
    }
    if (!WireFormatLite::SkipField(&in, tag)) return tl::unexpected(not_a_response());
  }
  if (!carried) return tl::unexpected(not_a_response());
  return {};
}

}  // namespace openloop::grpc
