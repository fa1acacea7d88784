// The lab's parameters: the queueing model's (ModelConfig, shared with the simulator) and the server's
// (LabConfig).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/time.h"
#include "lab/service_time.h"
#include "lab/stall_schedule.h"

namespace openloop::lab {

/// Which waiting request a free worker takes: the oldest (fifo) or the newest (lifo).
enum class QueueDiscipline { fifo, lifo };

/// Everything that shapes the service model's behaviour. Plain data, validated by config_fields.
struct ModelConfig {
  /// Virtual workers: requests in service at once (≥ 1). Capacity is workers / mean service time.
  std::uint32_t workers = 1;
  /// Service time of a request (replaced by hit/miss when the cache is on).
  ServiceTime service = ServiceTime::constant(std::chrono::milliseconds(1));
  QueueDiscipline queue = QueueDiscipline::fifo;
  /// Maximum waiting requests; an arrival finding the queue this full is rejected (503). 0 = unbounded.
  std::size_t queue_limit = 0;
  /// Queue depth at which arrivals are shed at once (429). 0 = never.
  std::size_t shed_at = 0;
  /// When everything freezes (no admission, dequeue or completion).
  StallSchedule stalls;
  /// LRU cache capacity in keys (path+query); 0 = no cache.
  std::size_t cache = 0;
  ServiceTime hit = ServiceTime::constant(Nanos(0));
  ServiceTime miss = ServiceTime::constant(std::chrono::milliseconds(1));
  /// Time each request holds a dependency connection after its service; nullopt = no dependency.
  std::optional<ServiceTime> dependency;
  /// Dependency connections; a request waits (holding its worker) when all are in use. 0 = unlimited.
  std::size_t dependency_pool = 0;
  /// Probability in [0, 1] that a completed request answers 500.
  double error_rate = 0;
  /// Drop queued requests whose client is gone (checked at dequeue) instead of doing the work anyway.
  bool cancel = false;
  /// Spend real CPU for the service time (ModelSink::burn) instead of waiting for a timer.
  bool burn = false;
  /// Seed of the model's random numbers (service times, errors). Fixed at start.
  std::uint64_t seed = 1;
};

/// The lab's HTTP/2 (h2c with prior knowledge) settings; fixed at start.
struct Http2Config {
  /// Serve HTTP/2 instead of HTTP/1.1 on every connection.
  bool enabled = false;
  /// SETTINGS_MAX_CONCURRENT_STREAMS advertised to every client (1 to 65535).
  std::uint32_t max_streams = 100;
  /// GOAWAY (NO_ERROR) once a connection has received this many streams; 0 = never.
  std::uint32_t goaway_after = 0;
  /// RST_STREAM REFUSED_STREAM for a stream that finds this many already open; 0 = never.
  std::uint32_t refuse_streams_above = 0;
  /// Serve the built-in gRPC service openloop.lab.v1.Lab/Call and server reflection (--grpc; implies
  /// enabled): calls whose content-type is application/grpc go through the model with grpc-status answers.
  bool grpc = false;
};

/// The lab service's whole configuration: the model plus what only the HTTP server uses.
struct LabConfig {
  ModelConfig model;
  /// Listen address "HOST:PORT"; port 0 picks a free port.
  std::string listen = "127.0.0.1:8080";
  /// Bytes of body in a 200 response.
  std::size_t body_size = 0;
  /// Request header carrying the client's remaining budget ("250ms", or bare milliseconds); "" = none.
  std::string deadline_header;
  /// Time a client may take to send one whole request once it has started (slow senders are cut off).
  Nanos header_timeout = std::chrono::seconds(10);
  /// Stop by itself after this long; nullopt = run until SIGINT/SIGTERM.
  std::optional<Nanos> duration;
  Http2Config http2;
  /// Model paths need a token the lab issued at POST /_lab/login (Authorization: Bearer, or its cookie).
  bool auth = false;
};

}  // namespace openloop::lab
