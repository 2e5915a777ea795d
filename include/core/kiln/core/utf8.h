/* kiln/core/utf8: text that stays UTF-8 when it is cut or echoed.
 *
 * kiln's messages land in fixed buffers (kiln_error, log records) and then in JSON replies, which
 * must be valid UTF-8: a message cut in the middle of a character, or one quoting bytes of a bad
 * input, would make the reply unencodable. So every message buffer is filled through
 * kiln_utf8_format / kiln_utf8_copy: a cut backs off to the last whole character, and any byte
 * that is not part of a well-formed sequence (RFC 3629: no overlongs, no surrogates, nothing past
 * U+10FFFF) becomes '?'. Input that must be text is checked with kiln_utf8_check, which names the
 * first bad byte. */
#ifndef KILN_CORE_UTF8_H
#define KILN_CORE_UTF8_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The length of the well-formed sequence starting at s[0] of the n bytes available: 1..4, or 0
 * when s[0] does not start one (a stray continuation byte, an overlong form, a surrogate, a code
 * point past U+10FFFF, or a sequence the n bytes cut short). */
size_t kiln_utf8_sequence_length(const char *s, size_t n);

/* True when the n bytes of s are well-formed UTF-8; otherwise false with *bad_offset (when not
 * NULL) set to the offset of the first byte that starts no well-formed sequence. */
bool kiln_utf8_check(const char *s, size_t n, size_t *bad_offset);

/* Makes the NUL-terminated s well-formed in place: an incomplete sequence at the very end (what a
 * byte-limited cut leaves) is dropped, every other bad byte becomes '?'. Returns the bytes
 * replaced or dropped. */
size_t kiln_utf8_repair(char *s);

/* vsnprintf into dst (size > 0), then kiln_utf8_repair: the result is always NUL-terminated
 * well-formed UTF-8, cut at a character boundary when it does not fit. Returns strlen(dst). */
size_t kiln_utf8_vformat(char *dst, size_t size, const char *fmt, va_list args);
size_t kiln_utf8_format(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* kiln_utf8_format(dst, size, "%s", src), for a NULL src too (an empty string). */
size_t kiln_utf8_copy(char *dst, size_t size, const char *src);

#ifdef __cplusplus
}
#endif

#endif
