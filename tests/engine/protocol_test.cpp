// What --protocol accepts, what each choice offers by ALPN, and how the server's choice maps back to a codec.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "engine/protocol.h"

using namespace openloop::engine;

namespace {

std::vector<std::string_view> offer(ProtocolChoice c) {
  const auto s = alpn_offer(c);
  return {s.begin(), s.end()};
}

TEST(ProtocolChoice, AcceptsAutoH1AndH2AndTheirLongNames) {
  EXPECT_EQ(parse_protocol_choice("auto"), ProtocolChoice::automatic);
  EXPECT_EQ(parse_protocol_choice("h1"), ProtocolChoice::http1);
  EXPECT_EQ(parse_protocol_choice("http/1.1"), ProtocolChoice::http1);
  EXPECT_EQ(parse_protocol_choice("h2"), ProtocolChoice::http2);
  EXPECT_EQ(parse_protocol_choice("http2"), ProtocolChoice::http2);
  EXPECT_FALSE(parse_protocol_choice("h3"));
  EXPECT_FALSE(parse_protocol_choice("H2"));
  EXPECT_FALSE(parse_protocol_choice(""));
}

TEST(ProtocolChoice, AutoOffersH2ThenHttp11AndFallsBackToHttp11) {
  EXPECT_EQ(offer(ProtocolChoice::automatic), (std::vector<std::string_view>{"h2", "http/1.1"}));
  EXPECT_EQ(offer(ProtocolChoice::http1), (std::vector<std::string_view>{"http/1.1"}));
  EXPECT_EQ(offer(ProtocolChoice::http2), (std::vector<std::string_view>{"h2"}));
  EXPECT_EQ(fallback_protocol(ProtocolChoice::automatic), Protocol::http1);
  EXPECT_EQ(fallback_protocol(ProtocolChoice::http1), Protocol::http1);
  EXPECT_EQ(fallback_protocol(ProtocolChoice::http2), Protocol::http2);
}

TEST(ProtocolChoice, TheServersChoiceMapsToACodecOnlyWhenOffered) {
  const auto both = alpn_offer(ProtocolChoice::automatic);
  EXPECT_EQ(alpn_choice("h2", both), Protocol::http2);
  EXPECT_EQ(alpn_choice("http/1.1", both), Protocol::http1);
  EXPECT_FALSE(alpn_choice("h2", alpn_offer(ProtocolChoice::http1)));
  EXPECT_FALSE(alpn_choice("spdy/3", both));
}

TEST(ProtocolChoice, NamesRoundTrip) {
  for (const auto c : {ProtocolChoice::automatic, ProtocolChoice::http1, ProtocolChoice::http2})
    EXPECT_EQ(parse_protocol_choice(to_string(c)), c);
  EXPECT_EQ(to_string(Protocol::http1), "h1");
  EXPECT_EQ(to_string(Protocol::http2), "h2");
}

}  // namespace
