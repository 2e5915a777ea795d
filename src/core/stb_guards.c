/* The stb_image 2.27 guards (stb_guards.h). Each found by the image fuzz target, each with its
 * input under tests/fuzz/regressions/image/ and a unit test in tests/unit/test_image.c; later stb
 * releases fix both. */
#include "stb_guards.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JPEG: a Huffman table of more than 256 codes ----------------------------------------------
 * stb trusts the sixteen code counts of a DHT table: when they sum past 256 it writes past the end
 * of its Huffman arrays. The markers are walked as stb walks them. Returns the offending table's
 * code count, or 0 when every table fits (or it is not a JPEG). */
static size_t jpeg_oversized_huffman_table(const uint8_t *p, size_t n) {
    /* SOI, after any number of 0xFF fill bytes, which stb skips there too. */
    size_t at = 0;
    while (at < n && p[at] == 0xFF) at++;
    if (at == 0 || at >= n || p[at] != 0xD8) return 0;
    at++;
    for (;;) {
        /* stb skips anything up to the next 0xFF, then 0xFF fill bytes, to find a marker. */
        while (at < n && p[at] != 0xFF) at++;
        while (at < n && p[at] == 0xFF) at++;
        if (at + 1 > n) return 0;
        uint8_t marker = p[at++];
        if (marker == 0xD9) return 0; /* EOI: stb reads no further */
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue; /* no length */
        if (at + 2 > n) return 0;
        size_t length = (size_t)p[at] << 8 | p[at + 1];
        size_t end = at + length < n ? at + length : n;
        if (marker == 0xC4) {
            /* Tables, read while the segment's length has bytes left, as stb reads them (past
             * the segment and the file, where stb reads zeros): a class/id byte, sixteen counts,
             * then that many symbols. */
            long left = (long)length - 2;
            for (size_t t = at + 2; left > 0;) {
                size_t codes = 0;
                for (size_t i = 1; i <= 16; i++) codes += t + i < n ? p[t + i] : 0;
                if (codes > 256) return codes;
                left -= 17 + (long)codes;
                t += 17 + codes;
            }
        }
        at = end;
        if (marker == 0xDA) {
            /* Entropy-coded data follows a scan header: 0xFF is stuffed as FF 00, and FF D0..D7
             * are restarts; any other 0xFF starts the next marker. */
            while (at + 1 < n && !(p[at] == 0xFF && p[at + 1] != 0x00 && (p[at + 1] < 0xD0 || p[at + 1] > 0xD7))) at++;
        }
    }
}

/* ---- Radiance HDR: a run-length count of zero --------------------------------------------------
 * In a run-length scanline, stb reads a count and advances by it; a count of 0 (or the end of the
 * file, which stb reads as zeros) never advances, and stb loops forever. The header and scanlines
 * are read as stb reads them. Returns the 1-based scanline holding such a count, or 0. */
typedef struct byte_reader {
    const uint8_t *p;
    size_t n, at;
} byte_reader;

static uint8_t get8(byte_reader *r) { return r->at < r->n ? r->p[r->at++] : 0; }

/* stbi__hdr_gettoken: a line of at most 1023 bytes (the rest of a longer one is skipped); the
 * last byte of the file never joins a token, as stb checks for the end after reading it. */
static void hdr_token(byte_reader *r, char buffer[1024]) {
    size_t len = 0;
    char c = (char)get8(r);
    while (r->at < r->n && c != '\n') {
        buffer[len++] = c;
        if (len == 1023) {
            while (r->at < r->n && get8(r) != '\n') {}
            break;
        }
        c = (char)get8(r);
    }
    buffer[len] = '\0';
}

static long hdr_zero_count_scanline(const uint8_t *p, size_t n) {
    byte_reader r = {p, n, 0};
    char token[1024];
    hdr_token(&r, token);
    if (strcmp(token, "#?RADIANCE") != 0 && strcmp(token, "#?RGBE") != 0) return 0;
    bool valid = false;
    for (;;) {
        hdr_token(&r, token);
        if (!token[0]) break;
        if (strcmp(token, "FORMAT=32-bit_rle_rgbe") == 0) valid = true;
    }
    hdr_token(&r, token);
    if (!valid || strncmp(token, "-Y ", 3) != 0) return 0;
    char *at = token + 3;
    long height = strtol(at, &at, 10);
    while (*at == ' ') at++;
    if (strncmp(at, "+X ", 3) != 0) return 0;
    long width = strtol(at + 3, NULL, 10);
    /* stb reads flat pixels outside [8, 32768), and refuses sizes past its limit itself. */
    if (width < 8 || width >= 32768 || height <= 0 || height > (1L << 24)) return 0;
    for (long y = 0; y < height; y++) {
        uint8_t c1 = get8(&r), c2 = get8(&r), len = get8(&r);
        /* Not run-length encoded: stb reads the rest as flat pixels, which always ends. */
        if (c1 != 2 || c2 != 2 || (len & 0x80)) return 0;
        if (((long)len << 8 | get8(&r)) != width) return 0; /* stb refuses the scanline */
        for (int k = 0; k < 4; k++) {
            for (long x = 0; x < width;) {
                uint8_t count = get8(&r);
                if (count == 0) return y + 1;
                bool run = count > 128;
                if (run) count -= 128;
                if (count > width - x) return 0; /* stb refuses the run */
                if (run) get8(&r);
                else r.at += count;
                x += count;
            }
        }
    }
    return 0;
}

/* ---- PNM: 16-bit samples ------------------------------------------------------------------------
 * For a binary PGM/PPM (P5, P6) whose maximum value is over 255, stb allocates one byte per
 * sample and then reads two, past the end of its buffer. The header is read as stb reads it:
 * whitespace and # comments, then width, height and maximum value. Returns that maximum value
 * (saturated) when it is over 255, else 0. */
static bool pnm_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

static void pnm_skip_space(byte_reader *r, char *c) {
    for (;;) {
        while (r->at < r->n && pnm_space(*c)) *c = (char)get8(r);
        if (r->at >= r->n || *c != '#') break;
        while (r->at < r->n && *c != '\n' && *c != '\r') *c = (char)get8(r);
    }
}

static uint64_t pnm_integer(byte_reader *r, char *c) {
    uint64_t value = 0;
    while (r->at < r->n && *c >= '0' && *c <= '9') {
        if (value < UINT32_MAX) value = value * 10 + (uint64_t)(*c - '0');
        *c = (char)get8(r);
    }
    return value;
}

static uint64_t pnm_sixteen_bit_maximum(const uint8_t *p, size_t n) {
    if (n < 2 || p[0] != 'P' || (p[1] != '5' && p[1] != '6')) return 0;
    byte_reader r = {p, n, 2};
    char c = (char)get8(&r);
    uint64_t maximum = 0;
    for (int field = 0; field < 3; field++) {
        pnm_skip_space(&r, &c);
        maximum = pnm_integer(&r, &c);
    }
    return maximum > 255 ? maximum : 0;
}

bool kiln_stb_guard_refuses(const void *bytes, size_t size, char *why, size_t why_size) {
    size_t codes = jpeg_oversized_huffman_table(bytes, size);
    if (codes) {
        snprintf(why, why_size, "corrupt JPEG: a Huffman table of %zu codes (at most 256)", codes);
        return true;
    }
    long scanline = hdr_zero_count_scanline(bytes, size);
    if (scanline) {
        snprintf(why, why_size, "corrupt HDR: a run-length count of 0 in scanline %ld", scanline);
        return true;
    }
    uint64_t maximum = pnm_sixteen_bit_maximum(bytes, size);
    if (maximum) {
        snprintf(why, why_size, "16-bit PNM (maximum value %llu) is not supported", (unsigned long long)maximum);
        return true;
    }
    return false;
}
