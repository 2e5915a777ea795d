/* UTF-8 that survives being cut at a byte limit and echoing bad input (kiln/core/utf8.h). */
#include <kiln/core/utf8.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The well-formed ranges of RFC 3629, table 3-7 of Unicode: the second byte's range depends on
 * the first so that overlongs (E0 80..9F, F0 80..8F), surrogates (ED A0..BF) and code points
 * past U+10FFFF (F4 90..) are refused. */
size_t kiln_utf8_sequence_length(const char *s, size_t n) {
    if (n == 0) return 0;
    const uint8_t *b = (const uint8_t *)s;
    uint8_t lead = b[0];
    if (lead < 0x80) return 1;
    size_t length;
    uint8_t low = 0x80, high = 0xBF; /* the second byte's range */
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return 0; /* a continuation byte, C0/C1 (always overlong) or F5..FF */
    }
    if (n < length) return 0;
    if (b[1] < low || b[1] > high) return 0;
    for (size_t i = 2; i < length; i++)
        if (b[i] < 0x80 || b[i] > 0xBF) return 0;
    return length;
}

bool kiln_utf8_check(const char *s, size_t n, size_t *bad_offset) {
    for (size_t i = 0; i < n;) {
        size_t len = kiln_utf8_sequence_length(s + i, n - i);
        if (len == 0) {
            if (bad_offset) *bad_offset = i;
            return false;
        }
        i += len;
    }
    return true;
}

/* True when the bytes from s to the end are a prefix of some well-formed sequence: a character
 * a cut split, rather than garbage. */
static bool is_cut_sequence(const char *s, size_t n) {
    char padded[4];
    memcpy(padded, s, n);
    for (size_t i = n; i < 4; i++) padded[i] = (char)0xBF;
    /* Completing with the largest continuation byte works for every lead except those whose
     * second byte must stay low (ED, F4); try the smallest as well. */
    if (kiln_utf8_sequence_length(padded, 4) > n) return true;
    for (size_t i = n; i < 4; i++) padded[i] = (char)0x80;
    return kiln_utf8_sequence_length(padded, 4) > n;
}

size_t kiln_utf8_repair(char *s) {
    if (!s) return 0;
    size_t n = strlen(s), changed = 0;
    for (size_t i = 0; i < n;) {
        size_t len = kiln_utf8_sequence_length(s + i, n - i);
        if (len) {
            i += len;
            continue;
        }
        if (n - i < 4 && is_cut_sequence(s + i, n - i)) {
            changed += n - i;
            s[i] = '\0';
            break;
        }
        s[i++] = '?';
        changed++;
    }
    return changed;
}

size_t kiln_utf8_vformat(char *dst, size_t size, const char *fmt, va_list args) {
    if (!dst || size == 0) return 0;
    dst[0] = '\0';
    if (fmt) vsnprintf(dst, size, fmt, args);
    kiln_utf8_repair(dst);
    return strlen(dst);
}

size_t kiln_utf8_format(char *dst, size_t size, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    size_t n = kiln_utf8_vformat(dst, size, fmt, args);
    va_end(args);
    return n;
}

size_t kiln_utf8_copy(char *dst, size_t size, const char *src) { return kiln_utf8_format(dst, size, "%s", src ? src : ""); }
