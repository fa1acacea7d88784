// Exporters' series sorted into roles by their names, types and labels (HAProxy's and node_exporter's names).
#include "observe/series_role.h"

#include <gtest/gtest.h>

namespace openloop::observe {
namespace {

TEST(SeriesRole, HaproxyQueuesAreQueuesItsLimitsAreNot) {
  EXPECT_EQ(series_role("haproxy_backend_current_queue", "{proxy=\"be\"}", MetricType::gauge), SeriesRole::queue);
  EXPECT_EQ(series_role("haproxy_server_current_queue", "{proxy=\"be\",server=\"s1\"}", MetricType::gauge),
            SeriesRole::queue);
  EXPECT_EQ(series_role("haproxy_backend_max_queue", "{proxy=\"be\"}", MetricType::gauge), SeriesRole::other);
  EXPECT_EQ(series_role("haproxy_server_queue_limit", "{proxy=\"be\"}", MetricType::gauge), SeriesRole::other);
  EXPECT_EQ(series_role("haproxy_backend_current_sessions", "{proxy=\"be\"}", MetricType::gauge),
            SeriesRole::in_flight);
}

TEST(SeriesRole, CountersAreErrorsByNameOrByA5xxLabelElseOther) {
  EXPECT_EQ(series_role("haproxy_backend_connection_errors_total", "{proxy=\"be\"}", MetricType::counter),
            SeriesRole::errors);
  EXPECT_EQ(series_role("haproxy_backend_http_responses_total", "{proxy=\"be\",code=\"5xx\"}", MetricType::counter),
            SeriesRole::errors);
  EXPECT_EQ(series_role("haproxy_backend_http_responses_total", "{proxy=\"be\",code=\"2xx\"}", MetricType::counter),
            SeriesRole::other);
  EXPECT_EQ(series_role("http_requests_total", "{status=\"503\"}", MetricType::untyped), SeriesRole::errors);
  // A counter named like a queue is a count of events, not a level: never a queue.
  EXPECT_EQ(series_role("jobs_queued_total", "", MetricType::counter), SeriesRole::other);
}

TEST(SeriesRole, UtilisationSharesButNotPercentagesAndPressureAsAQueue) {
  EXPECT_EQ(series_role("gpu_utilization", "", MetricType::gauge), SeriesRole::utilisation);
  EXPECT_EQ(series_role("worker_pool_busy_ratio", "", MetricType::gauge), SeriesRole::utilisation);
  EXPECT_EQ(series_role("cpu_utilization_percent", "", MetricType::gauge), SeriesRole::other);
  EXPECT_EQ(series_role("node_pressure_cpu_waiting_seconds_total", "", MetricType::counter), SeriesRole::other);
  EXPECT_EQ(series_role("node_load1", "", MetricType::gauge), SeriesRole::other);
  EXPECT_EQ(series_role("grpc_server_pending_requests", "", MetricType::gauge), SeriesRole::queue);
  EXPECT_EQ(series_role("http_in_flight_requests", "", MetricType::gauge), SeriesRole::in_flight);
  EXPECT_EQ(series_role("request_duration_seconds", "", MetricType::histogram), SeriesRole::other);
}

TEST(SeriesRole, RolesMapOntoWhatTheKneeJudges) {
  EXPECT_EQ(signal_role(SeriesRole::queue), results::SignalRole::saturation);
  EXPECT_EQ(signal_role(SeriesRole::utilisation), results::SignalRole::utilization);
  EXPECT_EQ(signal_role(SeriesRole::errors), results::SignalRole::errors);
  EXPECT_EQ(signal_role(SeriesRole::in_flight), results::SignalRole::other);
  EXPECT_STREQ(to_string(SeriesRole::in_flight), "in flight");
}

}  // namespace
}  // namespace openloop::observe
