// SHA-256 through OpenSSL's low-level interface: its x86-64 and arm64 assembly uses the SHA
// extensions (SHA-NI, ARMv8 SHA2) when the CPU has them (6× the portable Swift loop it replaced, reading included).
// The low-level calls are deprecated in OpenSSL 3 in favour of EVP, which allocates a context per
// hash and may load providers and configuration; Package.swift defines OPENSSL_SUPPRESS_DEPRECATED.
#include "CDigest.h"
#include <openssl/sha.h>

_Static_assert(sizeof(SHA256_CTX) <= sizeof(eh_sha256_state), "eh_sha256_state too small for SHA256_CTX");
_Static_assert(_Alignof(SHA256_CTX) <= 16, "eh_sha256_state under-aligned for SHA256_CTX");

void eh_sha256_init(eh_sha256_state *state) { SHA256_Init((SHA256_CTX *)state->opaque); }

void eh_sha256_update(eh_sha256_state *state, const void *bytes, size_t count) {
    if (count > 0) SHA256_Update((SHA256_CTX *)state->opaque, bytes, count);
}

void eh_sha256_final(eh_sha256_state *state, unsigned char digest[32]) {
    SHA256_Final(digest, (SHA256_CTX *)state->opaque);
}
