/* What the WGSL scanner's files share: the token stream (wgsl_lexer.c), positioned errors, and the
 * layout computations (wgsl_layout.c) that the parser (wgsl_types.c) runs while it resolves types.
 * The parser's own state is in wgsl_parser.h, private to its files. */
#ifndef KILN_SHADER_WGSL_INTERNAL_H
#define KILN_SHADER_WGSL_INTERNAL_H

#include <stdarg.h>

#include <kiln/core/containers.h>
#include <kiln/shader/wgsl_reflect.h>

typedef enum wgsl_token_kind {
    WGSL_TOKEN_END = 0,  /* one past the last token; the stream always ends with it */
    WGSL_TOKEN_IDENT,
    WGSL_TOKEN_INT,      /* an integer literal that fits its type: value holds it */
    WGSL_TOKEN_NUMBER,   /* any other numeric literal (float, out of range, malformed) */
    WGSL_TOKEN_PUNCT,    /* one character, or WGSL_PUNCT_ARROW */
} wgsl_token_kind;

/* "->" is the only two-character token: every other operator is read one character at a time, so
 * ">>" closing two template lists needs no splitting. Declarations never need the rest. */
#define WGSL_PUNCT_ARROW 256

typedef struct wgsl_token {
    wgsl_token_kind kind;
    int punct;           /* PUNCT: the character, or WGSL_PUNCT_ARROW */
    uint32_t value;      /* INT */
    size_t offset, length;
    uint32_t line, col;  /* 1-based; col counts UTF-8 code points */
} wgsl_token;

typedef struct wgsl_tokens {
    wgsl_token *items;
    size_t count;        /* the END token included */
} wgsl_tokens;

/* Splits source into tokens, dropping blankspace and comments (block comments nest). Fails on an
 * unterminated block comment or a character WGSL has no use for. */
bool kiln_wgsl_lex(const char *source, size_t length, const char *source_name, wgsl_tokens *out,
                   kiln_error *err);
void kiln_wgsl_tokens_free(wgsl_tokens *tokens);

/* Fills err with "source_name:line:col: message"; returns false. */
bool kiln_wgsl_fail_at(kiln_error *err, int code, const char *source_name, uint32_t line,
                       uint32_t col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Sets the WGSL layout of a non-struct type from its components, which are already interned in m.
 * False when the type is larger than 4 GiB. */
bool kiln_wgsl_layout_type(const kiln_wgsl_module *m, kiln_wgsl_type *t);

/* Lays out a struct whose member types are interned: member offsets, sizes and alignments, and the
 * struct's own layout into *t. Fails naming the member when @size is smaller than the member's
 * type, a runtime-sized array is not last, or the struct passes 4 GiB. */
bool kiln_wgsl_layout_struct(const kiln_wgsl_module *m, kiln_wgsl_struct *s, kiln_wgsl_type *t,
                             kiln_error *err);

/* A word of WGSL and the enum value it stands for (builtins, address spaces, ...). */
typedef struct named_value_entry {
    const char *name;
    int value;
} named_value_entry;

/* The @builtin names the scanner knows (wgsl_attributes.c), shared with the name queries. */
extern const named_value_entry kiln_wgsl_builtins[];
extern const size_t kiln_wgsl_builtin_count;


#endif
