/* The WGSL declaration parser's shared state, private to the four files that make it up:
 * wgsl_reflect.c (tokens, brackets, declared names, the first pass, integer constant expressions,
 * and kiln_wgsl_reflect), wgsl_attributes.c (what @... say), wgsl_types.c (types and the second
 * pass over structs, aliases, constants and vars) and wgsl_entries.c (entry points and which vars
 * each uses). Nothing else includes it: the queries see only the finished kiln_wgsl_module. */
#ifndef KILN_SHADER_WGSL_PARSER_H
#define KILN_SHADER_WGSL_PARSER_H

#include <string.h>

#include "wgsl_internal.h"

_Static_assert(KILN_WGSL_MAX_VARS <= 64, "var_uses is a 64-bit mask");
_Static_assert(KILN_WGSL_MAX_FUNCTIONS % 64 == 0, "call sets are arrays of 64-bit masks");

typedef enum decl_kind {
    DECL_STRUCT,
    DECL_ALIAS,
    DECL_CONSTANT,
    DECL_VAR,
    DECL_FUNCTION,
} decl_kind;

typedef enum decl_state {
    DECL_UNRESOLVED,
    DECL_RESOLVING,
    DECL_RESOLVED,
} decl_state;

/* One module-scope declaration as the first pass found it: token indices, so the second pass can
 * come back to it whenever something names it. */
typedef struct decl {
    decl_kind kind;
    uint32_t index;            /* into the module's array for its kind, or parser.functions */
    size_t attrs;              /* first token of its attributes; == keyword when it has none */
    size_t keyword;            /* struct, alias, const, override, var or fn */
    size_t name;
    size_t body_open, body_close; /* a function's braces */
    decl_state state;
} decl;

typedef struct function_info {
    uint32_t decl;
    int32_t entry;             /* index into module entries; -1 for a helper function */
    uint64_t var_uses;
    uint64_t calls[KILN_WGSL_MAX_FUNCTIONS / 64];
} function_info;

#define MAX_DECLS (KILN_WGSL_MAX_STRUCTS + KILN_WGSL_MAX_ALIASES + KILN_WGSL_MAX_CONSTANTS + \
                   KILN_WGSL_MAX_VARS + KILN_WGSL_MAX_FUNCTIONS)
#define NAME_SLOTS 1024        /* open-addressed name table, more than twice MAX_DECLS */

_Static_assert(NAME_SLOTS >= 2 * MAX_DECLS, "the name table must stay at most half full");

typedef struct parser {
    const char *src;
    const char *name;          /* the source name errors start with */
    const wgsl_token *tok;
    size_t count;
    size_t pos;                /* never past the END token */
    kiln_wgsl_module *m;
    kiln_error *err;
    uint32_t decl_count;
    decl decls[MAX_DECLS];
    uint16_t name_slots[NAME_SLOTS]; /* decl index + 1; 0 = empty */
    uint32_t struct_decl[KILN_WGSL_MAX_STRUCTS];
    uint32_t alias_decl[KILN_WGSL_MAX_ALIASES];
    uint32_t constant_decl[KILN_WGSL_MAX_CONSTANTS];
    uint32_t var_decl[KILN_WGSL_MAX_VARS];
    uint32_t function_count;
    function_info functions[KILN_WGSL_MAX_FUNCTIONS];
    const wgsl_token *overflow; /* the first operator whose constant result left AbstractInt's range */
} parser;

/* What the attributes in front of a declaration, member or parameter say. */
typedef struct attrs {
    kiln_wgsl_stage stage;
    bool has_group, has_binding, has_id;
    uint32_t group, binding, id, size, align;
    uint32_t workgroup_size[3];
    kiln_wgsl_io_attrs io;
} attrs;

/* ---- tokens: small enough to inline into every file that reads them ----------------------------- */

static inline const wgsl_token *peek(const parser *p) {
    return &p->tok[p->pos];
}

static inline const wgsl_token *peek_ahead(const parser *p, size_t k) {
    size_t i = p->pos + k;
    return &p->tok[i < p->count ? i : p->count - 1];
}

static inline void advance(parser *p) {
    if (p->tok[p->pos].kind != WGSL_TOKEN_END) p->pos++;
}

static inline bool is_punct(const wgsl_token *t, int c) {
    return t->kind == WGSL_TOKEN_PUNCT && t->punct == c;
}

static inline bool text_is(const parser *p, const wgsl_token *t, const char *word) {
    size_t n = strlen(word);
    return t->kind == WGSL_TOKEN_IDENT && t->length == n && memcmp(p->src + t->offset, word, n) == 0;
}

static inline const char *token_text(const parser *p, const wgsl_token *t) {
    return p->src + t->offset;
}

/* ---- wgsl_reflect.c ----------------------------------------------------------------------------- */

/* Fails at token t: "source:line:col: message". Always returns false. */
bool wgsl_fail(parser *p, const wgsl_token *t, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "expected <what>, found <the current token>". */
bool wgsl_fail_expected(parser *p, const char *what);
bool wgsl_over_cap(parser *p, const wgsl_token *t, const char *what, int cap, const char *cap_name);
bool wgsl_expect_punct(parser *p, int c, const char *what);
/* Copies an identifier into a KILN_WGSL_NAME_MAX buffer, failing when it does not fit. */
bool wgsl_copy_name(parser *p, const wgsl_token *t, char *dst);
int wgsl_lookup(const parser *p, const wgsl_token *t, const named_value_entry *table, size_t n);
bool wgsl_table_word(parser *p, const named_value_entry *table, size_t n, const char *what,
                     int *value);

bool wgsl_skip_balanced(parser *p);
bool wgsl_skip_expression(parser *p, bool stop_at_angle);

/* The declaration an identifier names (an index into p->decls), or -1. */
int wgsl_find_decl(const parser *p, const wgsl_token *t);
const char *wgsl_decl_kind_name(decl_kind kind);

/* Integer constants: the value of constant ci or of the constant a token names, when it has one;
 * an integer-valued attribute or template argument, failing with `what` when it is not one. */
bool wgsl_constant_value(parser *p, uint32_t ci, unsigned depth, int64_t *value);
/* The shader error for p->overflow, the operator whose constant result overflowed. */
bool wgsl_fail_overflow(parser *p);
bool wgsl_named_value(parser *p, const wgsl_token *t, unsigned depth, int64_t *value);
bool wgsl_const_uint(parser *p, const char *what, uint32_t *value);

/* ---- wgsl_attributes.c -------------------------------------------------------------------------- */

/* Reads the attributes at the current token (none is fine) into *a. */
bool wgsl_parse_attributes(parser *p, attrs *a);

/* ---- wgsl_types.c ------------------------------------------------------------------------------- */

/* Parses a type at the current token and returns its index in the type table; 0 on error. */
uint32_t wgsl_resolve_type(parser *p, unsigned depth);
/* The second pass, in the order kiln_wgsl_reflect runs it. */
bool wgsl_resolve_constants(parser *p);
bool wgsl_resolve_types(parser *p);
bool wgsl_resolve_var(parser *p, uint32_t vi);

/* ---- wgsl_entries.c ----------------------------------------------------------------------------- */

/* Parses the signature of every function a stage attribute marks as an entry point. */
bool wgsl_resolve_functions(parser *p);
/* Fills each entry point's var_uses from the function bodies, closed over calls. */
void wgsl_analyse_uses(parser *p);

#endif
