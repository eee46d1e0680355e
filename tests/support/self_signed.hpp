// A throwaway TLS identity for tests: a P-256 key and a self-signed certificate for localhost and
// 127.0.0.1, written as PEM files into a fresh temporary directory (removed on destruction).
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

namespace campfire::test {

class SelfSignedCert {
 public:
  SelfSignedCert() {
    char dir_template[] = "/tmp/campfire-tls-XXXXXX";
    if (::mkdtemp(dir_template) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = dir_template;
    cert_ = (dir_ / "cert.pem").string();
    key_ = (dir_ / "key.pem").string();

    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), EVP_PKEY_free);
    if (!key) throw std::runtime_error("EC key generation failed");
    std::unique_ptr<X509, decltype(&X509_free)> x509(X509_new(), X509_free);
    X509_set_version(x509.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x509.get()), 1);
    X509_gmtime_adj(X509_getm_notBefore(x509.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x509.get()), 24 * 3600);
    X509_set_pubkey(x509.get(), key.get());
    X509_NAME* name = X509_get_subject_name(x509.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
    X509_set_issuer_name(x509.get(), name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, x509.get(), x509.get(), nullptr, nullptr, 0);
    X509_EXTENSION* san =
        X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1");
    if (san == nullptr) throw std::runtime_error("subjectAltName failed");
    X509_add_ext(x509.get(), san, -1);
    X509_EXTENSION_free(san);
    if (X509_sign(x509.get(), key.get(), EVP_sha256()) == 0) {
      throw std::runtime_error("signing the certificate failed");
    }

    write(cert_, [&](FILE* f) { return PEM_write_X509(f, x509.get()); });
    write(key_, [&](FILE* f) {
      return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    });
  }
  ~SelfSignedCert() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  SelfSignedCert(const SelfSignedCert&) = delete;
  SelfSignedCert& operator=(const SelfSignedCert&) = delete;

  const std::string& cert() const { return cert_; }
  const std::string& key() const { return key_; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  template <class F>
  static void write(const std::string& path, F&& f) {
    FILE* file = std::fopen(path.c_str(), "w");
    if (file == nullptr) throw std::runtime_error("cannot write " + path);
    const int ok = f(file);
    std::fclose(file);
    if (ok == 0) throw std::runtime_error("cannot write " + path);
  }

  std::filesystem::path dir_;
  std::string cert_;
  std::string key_;
};

}  // namespace campfire::test
