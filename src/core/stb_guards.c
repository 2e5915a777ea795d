/* The stb_image 2.27 guards (stb_guards.h). Each found by the image fuzz target, each with its
 * input under tests/fuzz/regressions/image/ and a unit test in tests/unit/test_image.c; later stb
 * releases fix them. */
#include "stb_guards.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JPEG: a Huffman table of more than 256 codes, or a scan that uses a table never defined ---
 * stb trusts the sixteen code counts of a DHT table: when they sum past 256 it writes past the end
 * of its Huffman arrays. And it decodes a scan with whatever table its header names (0 to 3, DC
 * and AC), whether or not a DHT defined it: stb 2.27 does not clear its decoder, so an undefined
 * table is uninitialised memory, and a code looked up in it indexes anywhere (UBSan: index
 * -8553145 out of bounds in stbi__jpeg_huff_decode). The markers are walked as stb walks them. */
typedef struct jpeg_verdict {
    size_t codes;  /* the code count of a table of more than 256 codes, else 0 */
    int undefined; /* 1 + the id of an undefined table a scan uses, else 0 */
    bool ac;       /* that table is an AC table (else DC) */
    int scan;      /* the 1-based scan that uses it */
} jpeg_verdict;

static jpeg_verdict jpeg_check(const uint8_t *p, size_t n) {
    jpeg_verdict v = {0};
    bool defined[2][4] = {{false}}; /* [DC, AC][id] */
    bool progressive = false;
    int scans = 0;
    /* SOI, after any number of 0xFF fill bytes, which stb skips there too. */
    size_t at = 0;
    while (at < n && p[at] == 0xFF) at++;
    if (at == 0 || at >= n || p[at] != 0xD8) return v;
    at++;
    for (;;) {
        /* stb skips anything up to the next 0xFF, then 0xFF fill bytes, to find a marker. */
        while (at < n && p[at] != 0xFF) at++;
        while (at < n && p[at] == 0xFF) at++;
        if (at + 1 > n) return v;
        uint8_t marker = p[at++];
        if (marker == 0xD9) return v; /* EOI: stb reads no further */
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue; /* no length */
        if (at + 2 > n) return v;
        size_t length = (size_t)p[at] << 8 | p[at + 1];
        size_t end = at + length < n ? at + length : n;
        if (marker == 0xC0 || marker == 0xC1 || marker == 0xC2) progressive = marker == 0xC2;
        if (marker == 0xC4) {
            /* Tables, read while the segment's length has bytes left, as stb reads them (past
             * the segment and the file, where stb reads zeros): a class/id byte, sixteen counts,
             * then that many symbols. stb refuses a class over 1 or an id over 3. */
            long left = (long)length - 2;
            for (size_t t = at + 2; left > 0;) {
                uint8_t q = t < n ? p[t] : 0;
                if (q >> 4 > 1 || (q & 15) > 3) return v;
                size_t codes = 0;
                for (size_t i = 1; i <= 16; i++) codes += t + i < n ? p[t + i] : 0;
                if (codes > 256) {
                    v.codes = codes;
                    return v;
                }
                defined[q >> 4][q & 15] = true;
                left -= 17 + (long)codes;
                t += 17 + codes;
            }
        }
        if (marker == 0xDA) {
            /* A scan header: a count, then a component id and its DC/AC table ids (4 bits each),
             * then the spectral selection and the approximation. A baseline scan decodes with both
             * tables; a progressive one with the DC table in a first DC scan, with the AC table in
             * an AC scan, and with neither in a DC refinement. stb refuses an id over 3 itself. */
            scans++;
            size_t count = at + 2 < n ? p[at + 2] : 0;
            size_t spec = at + 3 + 2 * count;
            uint8_t spec_start = spec < n ? p[spec] : 0;
            uint8_t succ_high = spec + 2 < n ? p[spec + 2] >> 4 : 0;
            bool uses_dc = !progressive || (spec_start == 0 && succ_high == 0);
            bool uses_ac = !progressive || spec_start > 0;
            for (size_t c = 0; c < count && c < 4; c++) {
                uint8_t q = at + 4 + 2 * c < n ? p[at + 4 + 2 * c] : 0;
                int dc = q >> 4, ac = q & 15;
                if (dc > 3 || ac > 3) break;
                if ((uses_dc && !defined[0][dc]) || (uses_ac && !defined[1][ac])) {
                    v.ac = !(uses_dc && !defined[0][dc]);
                    v.undefined = 1 + (v.ac ? ac : dc);
                    v.scan = scans;
                    return v;
                }
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
    jpeg_verdict jpeg = jpeg_check(bytes, size);
    if (jpeg.codes) {
        snprintf(why, why_size, "corrupt JPEG: a Huffman table of %zu codes (at most 256)", jpeg.codes);
        return true;
    }
    if (jpeg.undefined) {
        snprintf(why, why_size, "corrupt JPEG: scan %d uses %s Huffman table %d, which no table before it defines",
                 jpeg.scan, jpeg.ac ? "AC" : "DC", jpeg.undefined - 1);
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
