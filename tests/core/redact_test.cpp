// Secrets never reach an output: credential headers, URL user info and secret query parameters are redacted.
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

TEST(Redact, SecretQueryParametersLoseTheirValues) {
  EXPECT_EQ(redact_url("http://h/x?api_key=SECRET&q=1"), "http://h/x?api_key=[redacted]&q=1");
  EXPECT_EQ(redact_url("https://u:p@h/x?Token=T&sig=S#frag"),
            "https://[redacted]@h/x?Token=[redacted]&sig=[redacted]#frag");
  EXPECT_EQ(redact_url("/search?q=a&password=pw"), "/search?q=a&password=[redacted]")
      << "a bare request target";
  EXPECT_EQ(redact_url("http://h/x?keys=1&monkey=2&key"), "http://h/x?keys=1&monkey=2&key")
      << "only whole names, with a value";
  EXPECT_EQ(redact_url("http://h/x#a?token=1"), "http://h/x#a?token=1")
      << "a '?' in the fragment is no query";
  EXPECT_EQ(redact_url("http://h/x?"), "http://h/x?");
  EXPECT_TRUE(is_secret_param("ACCESS_TOKEN"));
  EXPECT_FALSE(is_secret_param("tokens"));
}

TEST(Redactor, RedactsTheGivenNamesBesideTheDefaults) {
  const Redactor r({"session_id", "", "Nonce"});
  EXPECT_EQ(r.url("http://h/x?session_id=S1&q=1&api_key=K&nonce=N"),
            "http://h/x?session_id=[redacted]&q=1&api_key=[redacted]&nonce=[redacted]");
  EXPECT_EQ(r.url("/x?session_ids=1"), "/x?session_ids=1") << "only whole names";
  EXPECT_EQ(r.extra_params().size(), 2U) << "an empty name is no name";
  EXPECT_EQ(Redactor().url("http://h/x?session_id=S1&token=T"), "http://h/x?session_id=S1&token=[redacted]")
      << "the default redactor is redact_url";
}
