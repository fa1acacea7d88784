// A templated request message (--data with {{...}}) compiled once: its constant fields encoded before the
// run, per call only the drawn values read from the rendered JSON and encoded, the bytes libprotobuf would
// write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "grpc/message.h"

namespace google::protobuf {
class FieldDescriptor;
}  // namespace google::protobuf

namespace openloop::grpc {

/// The request message of one method for a JSON template. Compiling finds each placeholder's field through
/// the input type's descriptors: a placeholder that is a whole JSON value (`"n": {{zipf(100, 1.1)}}`) or
/// inside a JSON string with constant text around it (`"id": "user-{{uniform(1, 9)}}"`), of a singular scalar
/// field (numbers, bool, string, enum) of the message or of nested messages. Per call, the rendered JSON is
/// matched against the template's constant text and each drawn value is read as protobuf's JSON mapping reads
/// it, in the simple forms only (an integer in range, `true`, a string without escapes...); anything else
/// (an escape, a fraction for an integer field, a value out of range, a template the fast path cannot
/// handle: a placeholder standing for an object, a key or an array, a map or a well-known type around a
/// placeholder...) goes to MessageEncoder::frame_into, libprotobuf's JSON parser, which then encodes or
/// refuses it. Thread-safe after construction; the method's schema must outlive it.
class TemplatedEncoder {
 public:
  TemplatedEncoder(const google::protobuf::MethodDescriptor& method, std::string_view json_template);
  ~TemplatedEncoder();
  TemplatedEncoder(const TemplatedEncoder&) = delete;
  TemplatedEncoder& operator=(const TemplatedEncoder&) = delete;

  /// The framed message for `rendered` (the template with its values drawn) into `out` (cleared first, its
  /// capacity reused) and true, or false with why not in `out`: the bytes or the refusal of
  /// MessageEncoder::frame_into for the same text. Allocation-free on the fast path once `out` and the
  /// calling thread's buffers have grown.
  bool frame_into(std::string_view rendered, std::string& out) const;
  /// The fast path alone: true with the framed message in `out`, or false when it cannot say (`out` is then
  /// unspecified) and frame_into would ask libprotobuf.
  bool frame_fast(std::string_view rendered, std::string& out) const;
  /// Empty when the template compiled to the fast path, else why it did not (every call then goes to
  /// libprotobuf's JSON parser).
  const std::string& slow_reason() const { return m_slow_reason; }

 private:
  /// A drawn JSON value: a bare token or a whole JSON string (its content), and the field it sets.
  struct Hole {
    const google::protobuf::FieldDescriptor* field = nullptr;
    std::size_t node = 0;  ///< the message (m_nodes) the field belongs to
    bool quoted = false;   ///< a JSON string ("..."), else a bare token
    std::string tag;       ///< the field's tag, encoded
  };
  /// One piece of a message's encoding, in field-number order.
  struct Item {
    enum class Kind : std::uint8_t { constant, hole, child };
    Kind kind = Kind::constant;
    std::size_t index = 0;  ///< into m_constants, m_holes or m_nodes
  };
  /// A message that holds placeholders (the root, or a nested one); a child's index is above its parent's.
  struct Node {
    std::size_t parent = 0;
    const google::protobuf::FieldDescriptor* field = nullptr;  ///< in the parent (null for the root)
    std::string tag;                                           ///< the field's tag, encoded
    std::vector<Item> items;
    bool has_holes = false;
  };
  /// A drawn value read: its encoding's bits (or the string's view) and the field's encoded size (0:
  /// omitted).
  struct Drawn {
    std::uint64_t bits = 0;
    std::string_view text;
    std::size_t size = 0;
  };
  class Compiler;

  bool read(const Hole& hole, std::string_view text, Drawn& drawn) const;
  char* write(std::size_t node, const std::vector<Drawn>& drawn, const std::vector<std::size_t>& sizes,
              char* at) const;

  MessageEncoder m_slow;
  std::vector<std::string> m_literals;  ///< the template's text around the holes: one more than m_holes
  std::vector<Hole> m_holes;
  std::vector<Node> m_nodes;
  std::vector<std::string> m_constants;  ///< constant fields' encodings, runs of adjacent fields joined
  std::string m_slow_reason;
};

}  // namespace openloop::grpc
