// Secrets dropped on import unless kept, parameters redacted, connection headers left to openloop.
#include "workload/trace_privacy.h"

#include <gtest/gtest.h>

namespace openloop::workload {
namespace {

TraceRecord record() {
  TraceRecord r;
  r.target = "/p?user=7&token=abc&x";
  r.headers = {{"Authorization", "Bearer SECRET"}, {"cookie", "sid=SECRET"}, {"Host", "prod"},
               {"Content-Length", "5"}, {"X-Trace", "1"}};
  return r;
}

TEST(TracePrivacy, DropsCredentialsAndConnectionHeaders) {
  TracePrivacy p;
  auto r = record();
  p.apply(r);
  ASSERT_EQ(r.headers.size(), 1U);
  EXPECT_EQ(r.headers[0].name, "X-Trace");
  EXPECT_EQ(p.credentials_dropped(), 1U);
  EXPECT_EQ(r.target, "/p?user=7&token=abc&x") << "no parameter named: the query as recorded";
}

TEST(TracePrivacy, KeepsTheHeadersNamedCaseInsensitively) {
  TracePrivacy p({"AUTHORIZATION"}, {});
  auto r = record();
  p.apply(r);
  ASSERT_EQ(r.headers.size(), 2U);
  EXPECT_EQ(r.headers[0].value, "Bearer SECRET");
}

TEST(TracePrivacy, RedactsTheParametersNamed) {
  TracePrivacy p({}, {"token", "x"});
  auto r = record();
  p.apply(r);
  EXPECT_EQ(r.target, "/p?user=7&token=REDACTED&x=REDACTED");
  EXPECT_EQ(p.params_redacted(), 2U);
}

}  // namespace
}  // namespace openloop::workload
