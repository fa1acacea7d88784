// Standard base64 (RFC 4648 alphabet, '=' padding), as Java's log writer prints compressed histograms.
#include <array>

#include <fmt/format.h>

#include "hdr/codec.h"

namespace openloop::hdr {

namespace {

constexpr char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_reverse() {
  std::array<std::int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(k_alphabet[i])] = static_cast<std::int8_t>(i);
  return table;
}
constexpr std::array<std::int8_t, 256> k_reverse = make_reverse();

}  // namespace

std::string base64_encode(const std::uint8_t* data, std::size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) | data[i + 2];
    out.push_back(k_alphabet[(v >> 18) & 63]);
    out.push_back(k_alphabet[(v >> 12) & 63]);
    out.push_back(k_alphabet[(v >> 6) & 63]);
    out.push_back(k_alphabet[v & 63]);
  }
  const std::size_t rest = size - i;
  if (rest > 0) {
    std::uint32_t v = std::uint32_t{data[i]} << 16;
    if (rest == 2) v |= std::uint32_t{data[i + 1]} << 8;
    out.push_back(k_alphabet[(v >> 18) & 63]);
    out.push_back(k_alphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? k_alphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

Result<std::vector<std::uint8_t>> base64_decode(std::string_view text) {
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t accumulator = 0;
  int bits = 0;
  std::size_t symbols = 0;
  std::size_t padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '=') {
      ++padding;
      continue;
    }
    const std::int8_t v = k_reverse[static_cast<unsigned char>(c)];
    if (v < 0 || padding > 0) {
      return usage_error(
          fmt::format("base64: {} at position {} (accepted: A-Z a-z 0-9 + / and trailing '=')",
                      padding > 0 ? "data after '=' padding"
                                  : fmt::format("invalid character 0x{:02x}", static_cast<unsigned char>(c)),
                      i));
    }
    ++symbols;
    accumulator = (accumulator << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(accumulator >> bits));
      accumulator &= (std::uint32_t{1} << bits) - 1;
    }
  }
  if (symbols % 4 == 1) {
    return usage_error(
        fmt::format("base64: {} symbols is not a valid length (a lone final symbol)", symbols));
  }
  if (padding > 2 || (padding > 0 && (symbols + padding) % 4 != 0)) {
    return usage_error(fmt::format("base64: {} '=' after {} symbols (padding must complete a 4-symbol group)",
                                   padding, symbols));
  }
  return out;
}

}  // namespace openloop::hdr
