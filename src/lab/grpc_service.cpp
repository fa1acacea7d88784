// The lab's gRPC messages and reflection on the protobuf wire format, by hand.
#include "lab/grpc_service.h"

#include <array>
#include <cstdint>

namespace openloop::lab {
namespace {

// lab.proto's FileDescriptorProto as `protoc -I proto -o SET proto/openloop/lab/v1/lab.proto` writes it (the
// set's one file); tests/e2e/grpc/lab_test.sh compares it with protoc's, so a change to lab.proto without
// this fails there.
constexpr char k_descriptor[] =
    "\x0a\x19\x6f\x70\x65\x6e\x6c\x6f\x6f\x70\x2f\x6c\x61\x62\x2f\x76\x31\x2f\x6c\x61\x62\x2e\x70\x72"
    "\x6f\x74\x6f\x12\x0f\x6f\x70\x65\x6e\x6c\x6f\x6f\x70\x2e\x6c\x61\x62\x2e\x76\x31\x22\x39\x0a\x0b"
    "\x43\x61\x6c\x6c\x52\x65\x71\x75\x65\x73\x74\x12\x10\x0a\x03\x6b\x65\x79\x18\x01\x20\x01\x28\x09"
    "\x52\x03\x6b\x65\x79\x12\x18\x0a\x07\x70\x61\x79\x6c\x6f\x61\x64\x18\x02\x20\x01\x28\x0c\x52\x07"
    "\x70\x61\x79\x6c\x6f\x61\x64\x22\x37\x0a\x09\x43\x61\x6c\x6c\x52\x65\x70\x6c\x79\x12\x10\x0a\x03"
    "\x6b\x65\x79\x18\x01\x20\x01\x28\x09\x52\x03\x6b\x65\x79\x12\x18\x0a\x07\x70\x61\x79\x6c\x6f\x61"
    "\x64\x18\x02\x20\x01\x28\x0c\x52\x07\x70\x61\x79\x6c\x6f\x61\x64\x32\x47\x0a\x03\x4c\x61\x62\x12"
    "\x40\x0a\x04\x43\x61\x6c\x6c\x12\x1c\x2e\x6f\x70\x65\x6e\x6c\x6f\x6f\x70\x2e\x6c\x61\x62\x2e\x76"
    "\x31\x2e\x43\x61\x6c\x6c\x52\x65\x71\x75\x65\x73\x74\x1a\x1a\x2e\x6f\x70\x65\x6e\x6c\x6f\x6f\x70"
    "\x2e\x6c\x61\x62\x2e\x76\x31\x2e\x43\x61\x6c\x6c\x52\x65\x70\x6c\x79\x62\x06\x70\x72\x6f\x74\x6f"
    "\x33";

constexpr std::string_view k_file_name = "openloop/lab/v1/lab.proto";
constexpr std::string_view k_package_prefix = "openloop.lab.v1.";

// Protobuf's wire types used here.
constexpr std::uint8_t k_varint = 0, k_delimited = 2;

void put_varint(std::uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_delimited(std::uint32_t field, std::string_view bytes, std::string& out) {
  put_varint((field << 3) | k_delimited, out);
  put_varint(bytes.size(), out);
  out.append(bytes);
}

// A reader of one message's fields.
struct Reader {
  std::string_view in;
  bool bad = false;

  bool varint(std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in.empty()) return !(bad = true);
      const auto b = static_cast<std::uint8_t>(in.front());
      in.remove_prefix(1);
      v |= std::uint64_t{b & 0x7fU} << shift;
      if (b < 0x80) return true;
    }
    return !(bad = true);
  }
  // The next field: its number and, for a length-delimited one, its bytes (others are skipped). False at the
  // end or on a malformed field (bad).
  bool next(std::uint32_t& field, std::string_view& bytes) {
    for (;;) {
      if (in.empty()) return false;
      std::uint64_t tag = 0, v = 0;
      if (!varint(tag)) return false;
      field = static_cast<std::uint32_t>(tag >> 3);
      switch (tag & 7) {
        case k_varint:
          if (!varint(v)) return false;
          continue;
        case k_delimited:
          if (!varint(v) || v > in.size()) return !(bad = true);
          bytes = in.substr(0, v);
          in.remove_prefix(v);
          return true;
        case 1:
        case 5: {
          const std::size_t n = (tag & 7) == 1 ? 8 : 4;
          if (in.size() < n) return !(bad = true);
          in.remove_prefix(n);
          continue;
        }
        default:
          return !(bad = true);
      }
    }
  }
};

void put_prefix(std::size_t length, std::string& out) {
  const auto n = static_cast<std::uint32_t>(length);
  const std::array<char, 5> prefix = {0, static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                                      static_cast<char>(n >> 8), static_cast<char>(n)};
  out.append(prefix.data(), prefix.size());
}

// The length of the framed message at the front of `in`, when it is whole and uncompressed; -1 when more must
// come; -2 when the prefix is malformed.
long framed_length(std::string_view in) {
  if (in.size() < 5) return -1;
  if (in[0] != 0) return -2;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::uint32_t n = (std::uint32_t{p[1]} << 24) | (std::uint32_t{p[2]} << 16) |
                          (std::uint32_t{p[3]} << 8) | std::uint32_t{p[4]};
  if (n > (1U << 20)) return -2;
  return in.size() - 5 >= n ? static_cast<long>(n) : -1;
}

// ServerReflectionResponse for one request.
void reflection_answer(std::string_view request, std::string& out) {
  Reader r{request};
  std::uint32_t field = 0;
  std::string_view value;
  std::string message;
  put_delimited(2, request, message);  // original_request
  while (r.next(field, value)) {
    const bool file = (field == 4 && (value == k_lab_service || value.starts_with(k_package_prefix))) ||
                      (field == 3 && value == k_file_name);
    if (file) {
      std::string files;
      put_delimited(1, lab_proto_descriptor(), files);
      put_delimited(4, files, message);  // file_descriptor_response
    } else if (field == 7) {
      std::string service, list;
      put_delimited(1, k_lab_service, service);
      put_delimited(1, service, list);
      put_delimited(6, list, message);  // list_services_response
    } else if (field >= 3 && field <= 7) {
      std::string error;
      put_varint((1 << 3) | k_varint, error);
      put_varint(5, error);  // NOT_FOUND
      put_delimited(2, "the lab serves openloop/lab/v1/lab.proto only", error);
      put_delimited(7, error, message);  // error_response
    } else {
      continue;
    }
    break;
  }
  put_prefix(message.size(), out);
  out += message;
}

}  // namespace

bool is_grpc_content_type(std::string_view value) {
  constexpr std::string_view k = "application/grpc";
  return value.starts_with(k) &&
         (value.size() == k.size() || value[k.size()] == '+' || value[k.size()] == ';');
}

bool is_reflection_path(std::string_view path) {
  return path == "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo" ||
         path == "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";
}

std::string_view lab_proto_descriptor() {
  return {k_descriptor, sizeof k_descriptor - 1};
}

std::optional<std::string_view> lab_call_key(std::string_view body) {
  const long n = framed_length(body);
  if (n < 0 || static_cast<std::size_t>(n) + 5 != body.size()) return std::nullopt;
  Reader r{body.substr(5)};
  std::uint32_t field = 0;
  std::string_view value, key;
  while (r.next(field, value))
    if (field == 1) key = value;
  if (r.bad) return std::nullopt;
  return key;
}

void write_lab_reply(std::string_view key, std::string_view payload, std::string& out) {
  out.clear();
  put_prefix(0, out);
  put_delimited(1, key, out);
  put_delimited(2, payload, out);
  const std::size_t n = out.size() - 5;  // the prefix's length, now that the message is known
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(1 + i)] = static_cast<char>(n >> (24 - 8 * i));
}

bool answer_reflection(std::string& in, std::string& out) {
  std::size_t at = 0;
  for (;;) {
    const long n = framed_length(std::string_view(in).substr(at));
    if (n == -2) return false;
    if (n == -1) break;
    const std::string_view request = std::string_view(in).substr(at + 5, static_cast<std::size_t>(n));
    Reader check{request};
    std::uint32_t field = 0;
    std::string_view value;
    while (check.next(field, value)) {
    }
    if (check.bad) return false;
    reflection_answer(request, out);
    at += 5 + static_cast<std::size_t>(n);
  }
  in.erase(0, at);
  return true;
}

std::optional<Nanos> parse_grpc_timeout(std::string_view text) {
  if (text.size() < 2 || text.size() > 9) return std::nullopt;
  std::int64_t n = 0;
  for (char c : text.substr(0, text.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  switch (text.back()) {
    case 'H':
      return std::chrono::hours(n);
    case 'M':
      return std::chrono::minutes(n);
    case 'S':
      return std::chrono::seconds(n);
    case 'm':
      return std::chrono::milliseconds(n);
    case 'u':
      return std::chrono::microseconds(n);
    case 'n':
      return Nanos(n);
    default:
      return std::nullopt;
  }
}

int grpc_status_for(Reply reply) {
  switch (reply) {
    case Reply::ok:
      return 0;
    case Reply::shed:
    case Reply::unavailable:
    case Reply::payload_too_large:
      return 8;  // RESOURCE_EXHAUSTED
    case Reply::expired:
      return 4;  // DEADLINE_EXCEEDED
    case Reply::server_error:
      return 14;  // UNAVAILABLE
    case Reply::bad_request:
      return 3;  // INVALID_ARGUMENT
    default:
      return 13;  // INTERNAL
  }
}

std::string_view grpc_message_for(Reply reply) {
  switch (reply) {
    case Reply::ok:
      return "";
    case Reply::shed:
      return "shed: the lab's queue is at --shed-at";
    case Reply::unavailable:
      return "the lab's queue is full (--queue-limit)";
    case Reply::payload_too_large:
      return "the request message is over the lab's limit";
    case Reply::expired:
      return "the deadline (grpc-timeout) passed while the call waited in the lab's queue";
    case Reply::server_error:
      return "an injected error (--error-rate)";
    case Reply::bad_request:
      return "the request is malformed (a grpc-timeout or message the lab cannot read)";
    default:
      return "the lab could not answer";
  }
}

}  // namespace openloop::lab
