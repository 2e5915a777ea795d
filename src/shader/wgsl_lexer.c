/* WGSL text to tokens. The lexer is the only code that reads the source bytes directly, and it
 * reads each one only after checking it is inside the buffer; everything after it walks a token
 * array that ends with an END token. Positions are 1-based lines and columns counted in UTF-8 code
 * points, as editors show them. */
#include <kiln/core/utf8.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/core/containers.h>

#include "wgsl_internal.h"

typedef struct cursor {
    const char *src;
    size_t length, pos;
    uint32_t line, col;
} cursor;

bool kiln_wgsl_fail_at(kiln_error *err, int code, const char *source_name, uint32_t line,
                       uint32_t col, const char *fmt, ...) {
    char message[400];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(message, sizeof message, fmt, args);
    va_end(args);
    return kiln_error_set(err, code, "%s:%u:%u: %s", source_name ? source_name : "wgsl", line, col,
                          message);
}

static int at(const cursor *c, size_t ahead) {
    size_t i = c->pos + ahead;
    return i < c->length ? (unsigned char)c->src[i] : -1;
}

/* Moves past one byte. A line break is \n, \r\n or a lone \r; a UTF-8 continuation byte does not
 * start a new column. */
static void step(cursor *c) {
    int ch = at(c, 0);
    if (ch < 0) return;
    c->pos++;
    if (ch == '\n' || (ch == '\r' && at(c, 0) != '\n')) {
        c->line++;
        c->col = 1;
    } else if (ch != '\r' && (ch & 0xC0) != 0x80) {
        c->col++;
    }
}

static bool is_blank(int ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

static bool is_digit(int ch) {
    return ch >= '0' && ch <= '9';
}

static bool is_hex_digit(int ch) {
    return is_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

/* Bytes 0x80 and up are taken as identifier characters: WGSL identifiers may be any XID text, and
 * the scanner only ever compares them byte for byte. */
static bool is_ident_start(int ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch >= 0x80;
}

static bool is_ident_char(int ch) {
    return is_ident_start(ch) || is_digit(ch);
}

/* Skips blankspace, line comments and (nested) block comments. Fails on an unterminated block
 * comment, naming where it opened. */
static bool skip_blank(cursor *c, const char *source_name, kiln_error *err) {
    for (;;) {
        int ch = at(c, 0);
        if (is_blank(ch)) {
            step(c);
        } else if (ch == '/' && at(c, 1) == '/') {
            while (at(c, 0) >= 0 && at(c, 0) != '\n' && at(c, 0) != '\r') step(c);
        } else if (ch == '/' && at(c, 1) == '*') {
            uint32_t line = c->line, col = c->col;
            unsigned depth = 0;
            do {
                if (at(c, 0) < 0)
                    return kiln_wgsl_fail_at(err, KILN_ERR_SHADER, source_name, line, col,
                                             "unterminated block comment");
                if (at(c, 0) == '/' && at(c, 1) == '*') {
                    depth++;
                    step(c);
                    step(c);
                } else if (at(c, 0) == '*' && at(c, 1) == '/') {
                    depth--;
                    step(c);
                    step(c);
                } else {
                    step(c);
                }
            } while (depth > 0);
        } else {
            return true;
        }
    }
}

/* Reads the longest run that can belong to a numeric literal (digits, letters, '.', and a sign
 * right after a decimal 'e' or a hexadecimal 'p'), then decides whether it is an integer literal:
 * 0, [1-9][0-9]* or 0x[0-9a-f]+, with an optional i or u suffix, in range for its type. */
static void lex_number(cursor *c, wgsl_token *t) {
    bool hex = at(c, 0) == '0' && (at(c, 1) == 'x' || at(c, 1) == 'X');
    int prev = 0;
    for (;;) {
        int ch = at(c, 0);
        bool sign = (ch == '+' || ch == '-') &&
                    (hex ? (prev == 'p' || prev == 'P') : (prev == 'e' || prev == 'E'));
        if (!(is_ident_char(ch) && ch < 0x80) && ch != '.' && !sign) break;
        prev = ch;
        step(c);
    }
    t->length = c->pos - t->offset;
    t->kind = WGSL_TOKEN_NUMBER;

    const char *s = c->src + t->offset;
    size_t n = t->length, i = hex ? 2 : 0;
    char suffix = 0;
    if (n > i && (s[n - 1] == 'i' || s[n - 1] == 'u')) {
        suffix = s[n - 1];
        n--;
    }
    if (n == i) return;
    if (!hex && s[0] == '0' && n > 1) return; /* WGSL has no octal and no leading zeros */
    uint64_t value = 0;
    for (; i < n; i++) {
        int ch = (unsigned char)s[i];
        if (hex ? !is_hex_digit(ch) : !is_digit(ch)) return;
        int digit = is_digit(ch) ? ch - '0' : (ch | 0x20) - 'a' + 10;
        value = value * (hex ? 16 : 10) + (uint64_t)digit;
        if (value > UINT32_MAX) return;
    }
    if (suffix == 'i' && value > INT32_MAX) return;
    t->kind = WGSL_TOKEN_INT;
    t->value = (uint32_t)value;
}

static bool push(wgsl_tokens *out, uint32_t *capacity, const wgsl_token *t) {
    if (out->count >= UINT32_MAX) return false;
    wgsl_token *grown = kiln_array_reserve(out->items, capacity, (uint32_t)out->count + 1, sizeof *grown);
    if (!grown) return false;
    out->items = grown;
    out->items[out->count++] = *t;
    return true;
}

static const char PUNCTUATION[] = "(){}[]<>,:;@=.+-*/%&|^!~?";

bool kiln_wgsl_lex(const char *source, size_t length, const char *source_name, wgsl_tokens *out,
                   kiln_error *err) {
    out->items = NULL;
    out->count = 0;
    uint32_t capacity = 0;
    cursor c = {source, length, 0, 1, 1};
    for (;;) {
        if (!skip_blank(&c, source_name, err)) goto fail;
        wgsl_token t = {0};
        t.offset = c.pos;
        t.line = c.line;
        t.col = c.col;
        int ch = at(&c, 0);
        if (ch < 0) {
            t.kind = WGSL_TOKEN_END;
        } else if (is_ident_start(ch)) {
            while (is_ident_char(at(&c, 0))) step(&c);
            t.kind = WGSL_TOKEN_IDENT;
            t.length = c.pos - t.offset;
        } else if (is_digit(ch) || (ch == '.' && is_digit(at(&c, 1)))) {
            lex_number(&c, &t);
        } else if (ch == '-' && at(&c, 1) == '>') {
            t.kind = WGSL_TOKEN_PUNCT;
            t.punct = WGSL_PUNCT_ARROW;
            t.length = 2;
            step(&c);
            step(&c);
        } else if (ch != 0 && strchr(PUNCTUATION, ch)) {
            t.kind = WGSL_TOKEN_PUNCT;
            t.punct = ch;
            t.length = 1;
            step(&c);
        } else {
            if (ch > 0x20 && ch < 0x7F)
                kiln_wgsl_fail_at(err, KILN_ERR_SHADER, source_name, t.line, t.col,
                                  "unexpected character '%c'", ch);
            else
                kiln_wgsl_fail_at(err, KILN_ERR_SHADER, source_name, t.line, t.col,
                                  "unexpected byte 0x%02x", (unsigned)ch);
            goto fail;
        }
        if (!push(out, &capacity, &t)) {
            kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory splitting WGSL into tokens",
                           source_name ? source_name : "wgsl");
            goto fail;
        }
        if (t.kind == WGSL_TOKEN_END) return true;
    }
fail:
    kiln_wgsl_tokens_free(out);
    return false;
}

void kiln_wgsl_tokens_free(wgsl_tokens *tokens) {
    free(tokens->items);
    tokens->items = NULL;
    tokens->count = 0;
}
