// HTTP/1.1 codec: request bytes out as prebuilt, response framing by llhttp, keep-alive or close.
#include "engine/http1_codec.h"

#include <utility>

#include "engine/exchange.h"
#include "http/request_http1.h"

namespace openloop::engine {

using results::ErrorKind;

Http1Codec::Http1Codec(CodecHost& host, CodecCallbacks& callbacks, const Http1Settings& settings)
    : m_host(host), m_callbacks(callbacks) {
  if (settings.capture_retry_after) m_parser.capture_retry_after(true);
  if (settings.capture_server_timing) m_parser.capture_server_timing(true, settings.server_timing_metric);
}

void Http1Codec::reset() {
  m_exchange = nullptr;
  m_written = 0;
  m_bytes_in = 0;
  m_reason = "";
}

void Http1Codec::start(Exchange& x) {
  m_exchange = &x;
  m_written = 0;
  m_bytes_in = 0;
  m_parser.set_sink(x.sink);
  m_parser.reset(x.head, x.new_connection);
  if (sends_prebuilt(x)) {
    m_request = x.prebuilt_http1;  // a constant request as the plan built it: no copy
    return;
  }
  // Serialized into the codec's own buffer, whose capacity is reused: no allocation once warm.
  http::write_http1(*x.parts, http::ExtraHeader{x.extra_header, x.extra_header_value}, m_out);
  m_request = m_out;
}

bool Http1Codec::sends_prebuilt(const Exchange& x) {
  return !x.prebuilt_http1.empty() && x.extra_header.empty();
}

std::size_t Http1Codec::request_size(const Exchange& x) const {
  if (sends_prebuilt(x)) return x.prebuilt_http1.size();
  return http::http1_size(*x.parts, http::ExtraHeader{x.extra_header, x.extra_header_value});
}

void Http1Codec::cancel(Exchange& x) {
  if (m_exchange != &x) return;
  // The response may be partly read: the connection cannot carry another request.
  m_exchange = nullptr;
  m_host.close_transport();
}

std::string_view Http1Codec::output() const {
  if (m_exchange == nullptr) return {};
  return m_request.substr(m_written);
}

void Http1Codec::wrote(std::size_t n) {
  if (m_exchange == nullptr || n == 0) return;
  const bool first = m_written == 0;
  m_written += n;
  if (first) m_callbacks.on_sent(*m_exchange, m_request.size());
}

Codec::Feed Http1Codec::fail(ErrorKind kind, const char* reason) {
  m_failure = kind;
  m_reason = reason;
  return Feed::failed;
}

Codec::Feed Http1Codec::on_data(const char* data, std::size_t n) {
  m_bytes_in += n;
  if (m_exchange == nullptr)  // bytes nobody asked for: protocol violation, drop the connection quietly
    return fail(ErrorKind::parse, "bytes received while no request was outstanding");
  const auto st = m_parser.feed(data, n);
  if (st == http::ResponseParser::State::error) return fail(ErrorKind::parse, m_parser.error_reason());
  if (st == http::ResponseParser::State::complete)
    return complete(m_parser.keep_alive() && m_parser.trailing_bytes() == 0);
  Exchange& x = *m_exchange;
  if (!x.first_byte_seen) {  // the response spans several reads: its first byte needs a time of its own
    x.first_byte = m_host.receipt_time();
    x.first_byte_seen = true;
  }
  return Feed::more;
}

Codec::Feed Http1Codec::on_eof() {
  if (m_exchange == nullptr) return fail(ErrorKind::reset, "");  // an idle keep-alive connection closed
  if (m_parser.finish() == http::ResponseParser::State::complete) return complete(false);
  // Closed before a response, or inside one.
  return fail(m_bytes_in == 0 ? ErrorKind::reset : ErrorKind::read, m_parser.error_reason());
}

Codec::Feed Http1Codec::complete(bool keep) {
  Exchange& x = *std::exchange(m_exchange, nullptr);
  const SteadyTime now = m_host.receipt_time();
  if (!x.first_byte_seen) {  // the whole response in one read: first byte = last (no extra read)
    x.first_byte = now;
    x.first_byte_seen = true;
  }
  ExchangeResult result;
  result.at = now;
  result.status = m_parser.status();
  result.bytes_in = m_bytes_in;
  result.retry_after = m_parser.retry_after();
  const http::ServerTimingValue timing = m_parser.server_timing();
  if (m_parser.has_server_timing()) result.server_timing = &timing;
  if (!keep) m_host.close_transport();
  m_callbacks.on_complete(x, result);
  return Feed::done;
}

Exchange* Http1Codec::detach_all() {
  Exchange* x = std::exchange(m_exchange, nullptr);
  if (x != nullptr) x->carrier_next = nullptr;
  return x;
}

}  // namespace openloop::engine
