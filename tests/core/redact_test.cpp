// Secrets never reach an output: credential headers and URL user info are redacted.
#include "core/redact.h"

#include <gtest/gtest.h>

using namespace openloop;

TEST(Redact, CredentialHeadersInAnyCaseLoseTheirValue) {
  EXPECT_EQ(redact_header_line("Authorization: Bearer s3cret"), "Authorization: [redacted]");
  EXPECT_EQ(redact_header_line("cookie: a=1; b=2"), "cookie: [redacted]");
  EXPECT_EQ(redact_header_line("PROXY-AUTHORIZATION:Basic eA=="), "PROXY-AUTHORIZATION: [redacted]");
  EXPECT_TRUE(is_credential_header(" Authorization "));
}

TEST(Redact, OtherHeadersAndLinesAreKept) {
  EXPECT_EQ(redact_header_line("X-Request-Id: 42"), "X-Request-Id: 42");
  EXPECT_EQ(redact_header_line("Authorization-Hint: none"), "Authorization-Hint: none");
  EXPECT_EQ(redact_header_line("no colon"), "no colon");
  EXPECT_FALSE(is_credential_header("Set-Cookie2x"));
}

TEST(Redact, UrlUserInfoIsReplaced) {
  EXPECT_EQ(redact_url("https://user:pw@example.test:8443/a?b=c"), "https://[redacted]@example.test:8443/a?b=c");
  EXPECT_EQ(redact_url("http://token@127.0.0.1/"), "http://[redacted]@127.0.0.1/");
  EXPECT_EQ(redact_url("http://127.0.0.1:8080/x@y"), "http://127.0.0.1:8080/x@y") << "an @ in the path is no user info";
  EXPECT_EQ(redact_url("http://127.0.0.1/"), "http://127.0.0.1/");
}
