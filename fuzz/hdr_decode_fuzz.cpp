// Fuzz target: the HdrHistogram decoder (src/hdr/codec: V2 plain and compressed, V1, V0) and base64.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hdr/codec.h"

// Input: byte 0 picks binary (even) or base64 text (odd); the rest is the encoding. A histogram that decodes
// must survive the queries a report makes and re-encode to something that decodes to the same counts.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool text = (data[0] & 1) != 0;
  auto decoded = text ? openloop::hdr::from_compressed_base64(
                            std::string_view(reinterpret_cast<const char*>(data + 1), size - 1))
                      : openloop::hdr::decode(data + 1, size - 1);
  if (!decoded) return 0;
  const auto& h = *decoded;
  volatile double sink = static_cast<double>(h.value_at_percentile(99.9)) + h.mean() + h.stddev() +
                         static_cast<double>(h.max()) + static_cast<double>(h.min());
  (void)sink;
  const auto encoded = openloop::hdr::encode_v2(h);
  auto again = openloop::hdr::decode(encoded.data(), encoded.size());
  if (!again || again->total_count() != h.total_count() || again->max() != h.max()) __builtin_trap();
  return 0;
}
