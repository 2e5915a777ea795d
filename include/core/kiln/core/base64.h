/* kiln/core/base64: bytes as text and back (RFC 4648), for glTF data URIs and JSON blobs.
 *
 * The encoder writes the standard alphabet with '=' padding. The decoder reads what producers of
 * either kind send: the standard alphabet or the URL-safe one ('-' and '_' for '+' and '/'),
 * with the padding optional. A text whose length leaves stray bits (one character past a whole
 * group, or padding that does not complete the group) is refused rather than truncated, so a cut
 * payload is reported instead of decoding to fewer bytes. */
#ifndef KILN_CORE_BASE64_H
#define KILN_CORE_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes the `length` characters of text into a malloc'd *bytes of *size bytes (the caller frees
 * it; NULL when the text holds no bytes). On failure returns false with *bytes NULL and err
 * (when not NULL) naming the fault: KILN_ERR_FORMAT with "invalid base64 character 'C' at offset
 * N" (a printable character), "invalid base64 byte 0xHH at offset N" (any other byte), "base64
 * text of N characters is not a whole number of bytes"; or KILN_ERR_OUT_OF_MEMORY. */
bool kiln_base64_decode(const char *text, size_t length, uint8_t **bytes, size_t *size, kiln_error *err);

/* The standard-alphabet base64 of `size` bytes, padded; malloc'd and NUL-terminated, NULL when
 * memory runs out. */
char *kiln_base64_encode(const void *bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif
