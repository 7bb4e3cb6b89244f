// SHA-256 from the system's libcrypto (OpenSSL), imported into Swift as the CDigest module.
// Only Sources/AppGroups/SHA256.swift uses it.
//
// The state is a plain fixed-size value (OpenSSL's SHA256_CTX holds no pointers), so the Swift
// `SHA256` struct that embeds it keeps value semantics with no handle to free. The OpenSSL headers
// stay out of this header, so importing modules do not need them.
#ifndef EXTHOST_CDIGEST_H
#define EXTHOST_CDIGEST_H
#include <stddef.h>

typedef struct {
    _Alignas(16) unsigned char opaque[128];
} eh_sha256_state;

/// Starts a hash in `state`.
void eh_sha256_init(eh_sha256_state *state);
/// Feeds `count` bytes.
void eh_sha256_update(eh_sha256_state *state, const void *bytes, size_t count);
/// Writes the 32-byte digest to `digest`; `state` is finished.
void eh_sha256_final(eh_sha256_state *state, unsigned char digest[32]);

#endif
