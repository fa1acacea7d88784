// Test helpers for TLS on loopback: a self-signed certificate made at test time, and a server-side ALPN
// select callback that records what each client offered and answers a chosen protocol (or none).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <openssl/ssl.h>
#include <unistd.h>

namespace openloop::net::testing {

/// A self-signed EC certificate for CN=localhost, SAN localhost and 127.0.0.1, made with the openssl tool in
/// a fresh temporary directory; removed on destruction. ok() is false when it could not be made.
class SelfSignedCert {
 public:
  SelfSignedCert() {
    char dir[] = "/tmp/openloop_tls_XXXXXX";
    if (::mkdtemp(dir) == nullptr) return;
    m_dir = dir;
    const std::string cmd =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
        "-subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
        key() + " -out " + cert() + " >/dev/null 2>&1";
    m_ok = std::system(cmd.c_str()) == 0;
  }
  ~SelfSignedCert() {
    if (m_dir.empty()) return;
    std::remove(key().c_str());
    std::remove(cert().c_str());
    ::rmdir(m_dir.c_str());
  }
  SelfSignedCert(const SelfSignedCert&) = delete;
  SelfSignedCert& operator=(const SelfSignedCert&) = delete;

  bool ok() const { return m_ok; }
  const std::string& dir() const { return m_dir; }
  std::string cert() const { return m_dir + "/cert.pem"; }
  std::string key() const { return m_dir + "/key.pem"; }

 private:
  std::string m_dir;
  bool m_ok = false;
};

/// A server's ALPN policy: install() on its SSL_CTX before the server thread starts. For each client that
/// offers ALPN it records the ids offered, in order, then answers `choice` (whether or not it was offered,
/// so a broken server can be played); "" or nullopt: selects none. Clients that offer nothing are not
/// recorded. Read offers() only after the server thread is joined.
class AlpnSelect {
 public:
  explicit AlpnSelect(std::optional<std::string> choice) : m_choice(std::move(choice)) {}
  void install(SSL_CTX* ctx) { SSL_CTX_set_alpn_select_cb(ctx, &AlpnSelect::select, this); }
  const std::vector<std::vector<std::string>>& offers() const { return m_offers; }

 private:
  static int select(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in,
                    unsigned int inlen, void* arg) {
    auto* self = static_cast<AlpnSelect*>(arg);
    std::vector<std::string> offered;
    for (unsigned i = 0; i < inlen && i + 1U + in[i] <= inlen; i += 1U + in[i])
      offered.emplace_back(reinterpret_cast<const char*>(in + i + 1), in[i]);
    self->m_offers.push_back(std::move(offered));
    if (!self->m_choice || self->m_choice->empty()) return SSL_TLSEXT_ERR_NOACK;
    *out = reinterpret_cast<const unsigned char*>(self->m_choice->data());
    *outlen = static_cast<unsigned char>(self->m_choice->size());
    return SSL_TLSEXT_ERR_OK;
  }

  std::optional<std::string> m_choice;
  std::vector<std::vector<std::string>> m_offers;
};

}  // namespace openloop::net::testing
