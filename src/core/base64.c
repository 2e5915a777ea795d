/* Base64 both ways (kiln/core/base64.h). */
#include <kiln/core/base64.h>

#include <stdlib.h>

static const char STANDARD_ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The 6-bit value of one character, or -1 for a character of neither alphabet. */
static int base64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* 1 for the standard alphabet's own two characters, 2 for the URL-safe one's, 0 for the rest. */
static int alphabet_of(unsigned char c) { return c == '+' || c == '/' ? 1 : c == '-' || c == '_' ? 2 : 0; }

/* Every character of one alphabet or the other, never both in one text. */
static bool check_characters(const char *text, size_t n, kiln_error *err) {
    int alphabet = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if (base64_value(c) >= 0) {
            int a = alphabet_of(c);
            if (a && alphabet && a != alphabet)
                return kiln_error_set(err, KILN_ERR_FORMAT,
                                      "base64 character '%c' at offset %zu mixes the URL-safe and standard alphabets", c, i);
            if (a) alphabet = a;
            continue;
        }
        if (c >= 0x20 && c < 0x7f)
            return kiln_error_set(err, KILN_ERR_FORMAT, "invalid base64 character '%c' at offset %zu", c, i);
        return kiln_error_set(err, KILN_ERR_FORMAT, "invalid base64 byte 0x%02x at offset %zu", c, i);
    }
    return true;
}

/* Groups of four characters make three bytes; a tail of 2 or 3 characters holds 1 or 2 bytes in
 * its top bits, and the bits below them are dropped. */
static void decode_characters(const char *text, size_t n, uint8_t *bytes) {
    uint32_t acc = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        acc = acc << 6 | (uint32_t)base64_value((unsigned char)text[i]);
        if (i % 4 == 3) {
            bytes[o++] = (uint8_t)(acc >> 16);
            bytes[o++] = (uint8_t)(acc >> 8);
            bytes[o++] = (uint8_t)acc;
            acc = 0;
        }
    }
    if (n % 4 == 2) bytes[o++] = (uint8_t)(acc >> 4);
    if (n % 4 == 3) {
        bytes[o++] = (uint8_t)(acc >> 10);
        bytes[o++] = (uint8_t)(acc >> 2);
    }
}

bool kiln_base64_decode(const char *text, size_t length, uint8_t **bytes, size_t *size, kiln_error *err) {
    *bytes = NULL;
    *size = 0;
    size_t pads = 0;
    while (pads < 2 && length > pads && text[length - 1 - pads] == '=') pads++;
    size_t n = length - pads;
    if (!check_characters(text, n, err)) return false;
    if (n % 4 == 1 || (pads && length % 4 != 0))
        return kiln_error_set(err, KILN_ERR_FORMAT, "base64 text of %zu characters is not a whole number of bytes",
                              length);
    size_t decoded = n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0);
    if (decoded == 0) return true;
    uint8_t *out = malloc(decoded);
    if (!out) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for %zu decoded bytes", decoded);
    decode_characters(text, n, out);
    *bytes = out;
    *size = decoded;
    return true;
}

char *kiln_base64_encode(const void *bytes, size_t size) {
    const uint8_t *in = bytes;
    char *text = malloc((size + 2) / 3 * 4 + 1);
    if (!text) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < size; i += 3) {
        uint32_t acc = (uint32_t)in[i] << 16;
        if (i + 1 < size) acc |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < size) acc |= in[i + 2];
        text[o++] = STANDARD_ALPHABET[acc >> 18 & 63];
        text[o++] = STANDARD_ALPHABET[acc >> 12 & 63];
        text[o++] = i + 1 < size ? STANDARD_ALPHABET[acc >> 6 & 63] : '=';
        text[o++] = i + 2 < size ? STANDARD_ALPHABET[acc & 63] : '=';
    }
    text[o] = '\0';
    return text;
}
