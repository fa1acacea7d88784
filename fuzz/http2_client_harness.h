// What the HTTP/2 client codec's fuzz targets (http2_client_fuzz, grpc_fuzz) share: a host with no transport, and
// callbacks that abort on a second report of one exchange or a report of one not in flight.
#pragma once

#include <cstddef>
#include <cstdlib>

#include "engine/exchange.h"
#include "engine/http2_codec.h"

namespace openloop::fuzz {

constexpr std::size_t k_exchanges = 8;

struct Host final : engine::CodecHost {
  SteadyTime receipt_time() override { return SteadyTime{}; }
  void close_transport() override {}
};

// Counts the reports of each exchange: more than one is a bug the target aborts on.
struct Reports final : engine::CodecCallbacks {
  engine::Exchange* base = nullptr;
  int reports[k_exchanges] = {};
  bool live[k_exchanges] = {};
  void report(engine::Exchange& x) {
    const auto i = static_cast<std::size_t>(&x - base);
    if (i >= k_exchanges || !live[i]) std::abort();  // a report for an exchange not in flight
    live[i] = false;
    ++reports[i];
  }
  void on_sent(engine::Exchange& x, std::size_t) override {
    const auto i = static_cast<std::size_t>(&x - base);
    if (i >= k_exchanges || !live[i]) std::abort();
  }
  void on_complete(engine::Exchange& x, const engine::ExchangeResult&) override { report(x); }
  void on_error(engine::Exchange& x, const engine::ExchangeError&) override { report(x); }
};

}  // namespace openloop::fuzz
