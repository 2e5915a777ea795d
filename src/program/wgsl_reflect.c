/* WGSL declarations: what a module declares at module scope, resolved into kiln_wgsl_module.
 *
 * Two passes over the token stream. The first finds every module-scope declaration and its extent
 * (struct and function bodies by bracket matching, everything else up to its ';'), so the second
 * can resolve names in any order, as WGSL allows: a struct may use an alias declared after it.
 * The second pass parses each declaration in full, resolving types lazily and interning them
 * (wgsl_layout.c lays each one out as it is interned). Function bodies are never parsed: the
 * usage analysis only reads their identifiers. Cycles (a struct that contains itself, an alias
 * of itself) are caught by a per-declaration "resolving" state, and every recursion is bounded by
 * KILN_WGSL_MAX_NESTING. */
#include <stdio.h>
#include <stdlib.h>
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
#define MAX_BRACKET_DEPTH 256

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
} parser;

/* What the attributes in front of a declaration, member or parameter say. */
typedef struct attrs {
    kiln_wgsl_stage stage;
    bool has_group, has_binding, has_id;
    uint32_t group, binding, id, size, align;
    uint32_t workgroup_size[3];
    kiln_wgsl_io_attrs io;
} attrs;

/* ---- tokens ------------------------------------------------------------------------------------ */

static const wgsl_token *peek(const parser *p) {
    return &p->tok[p->pos];
}

static const wgsl_token *peek_ahead(const parser *p, size_t k) {
    size_t i = p->pos + k;
    return &p->tok[i < p->count ? i : p->count - 1];
}

static void advance(parser *p) {
    if (p->tok[p->pos].kind != WGSL_TOKEN_END) p->pos++;
}

static bool is_punct(const wgsl_token *t, int c) {
    return t->kind == WGSL_TOKEN_PUNCT && t->punct == c;
}

static bool text_is(const parser *p, const wgsl_token *t, const char *word) {
    size_t n = strlen(word);
    return t->kind == WGSL_TOKEN_IDENT && t->length == n && memcmp(p->src + t->offset, word, n) == 0;
}

static const char *token_text(const parser *p, const wgsl_token *t) {
    return p->src + t->offset;
}

/* "'text'" or "end of input", for messages; long tokens are cut. */
static const char *describe(const parser *p, const wgsl_token *t, char *buf, size_t size) {
    if (t->kind == WGSL_TOKEN_END) return "end of input";
    int n = t->length < 40 ? (int)t->length : 40;
    snprintf(buf, size, "'%.*s%s'", n, token_text(p, t), t->length > 40 ? "..." : "");
    return buf;
}

static bool fail(parser *p, const wgsl_token *t, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool fail(parser *p, const wgsl_token *t, int code, const char *fmt, ...) {
    char message[360];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    return kiln_wgsl_fail_at(p->err, code, p->name, t->line, t->col, "%s", message);
}

static bool fail_expected(parser *p, const char *what) {
    char buf[64];
    return fail(p, peek(p), KILN_ERR_SHADER, "expected %s, found %s", what, describe(p, peek(p), buf,
                                                                                   sizeof buf));
}

static bool expect_punct(parser *p, int c, const char *what) {
    if (!is_punct(peek(p), c)) return fail_expected(p, what);
    advance(p);
    return true;
}

static bool copy_name(parser *p, const wgsl_token *t, char *dst) {
    if (t->length >= KILN_WGSL_NAME_MAX)
        return fail(p, t, KILN_ERR_CAPACITY,
                    "name '%.32s...' is longer than %d bytes (KILN_WGSL_NAME_MAX)", token_text(p, t),
                    KILN_WGSL_NAME_MAX - 1);
    memcpy(dst, token_text(p, t), t->length);
    dst[t->length] = '\0';
    return true;
}

/* ---- brackets ---------------------------------------------------------------------------------- */

static int closer_of(int open) {
    return open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : 0;
}

static bool is_opener(const wgsl_token *t) {
    return t->kind == WGSL_TOKEN_PUNCT && closer_of(t->punct) != 0;
}

static bool is_closer(const wgsl_token *t) {
    return t->kind == WGSL_TOKEN_PUNCT && (t->punct == ')' || t->punct == ']' || t->punct == '}');
}

/* At an opening bracket: moves past its matching closer. Iterative, with an explicit stack, so
 * deep nesting costs no C stack. */
static bool skip_balanced(parser *p) {
    size_t stack[MAX_BRACKET_DEPTH];
    size_t depth = 0;
    if (!is_opener(peek(p))) return fail_expected(p, "'(', '[' or '{'");
    do {
        const wgsl_token *t = peek(p);
        if (t->kind == WGSL_TOKEN_END) {
            const wgsl_token *open = &p->tok[stack[depth - 1]];
            return fail(p, open, KILN_ERR_SHADER, "'%c' is never closed", open->punct);
        }
        if (is_opener(t)) {
            if (depth == MAX_BRACKET_DEPTH)
                return fail(p, t, KILN_ERR_SHADER, "brackets nest deeper than %d", MAX_BRACKET_DEPTH);
            stack[depth++] = p->pos;
        } else if (is_closer(t)) {
            const wgsl_token *open = &p->tok[stack[depth - 1]];
            if (closer_of(open->punct) != t->punct)
                return fail(p, t, KILN_ERR_SHADER, "'%c' does not close the '%c' opened at %u:%u",
                            t->punct, open->punct, open->line, open->col);
            depth--;
        }
        advance(p);
    } while (depth > 0);
    return true;
}

/* Moves past the ';' ending the declaration or directive that `start` begins. */
static bool skip_to_semicolon(parser *p, const wgsl_token *start) {
    for (;;) {
        const wgsl_token *t = peek(p);
        char buf[64];
        if (is_punct(t, ';')) {
            advance(p);
            return true;
        }
        if (t->kind == WGSL_TOKEN_END || is_closer(t))
            return fail(p, t, KILN_ERR_SHADER,
                        "expected ';' to end the '%.*s' that starts at %u:%u, found %s",
                        (int)start->length, token_text(p, start), start->line, start->col,
                        describe(p, t, buf, sizeof buf));
        if (is_opener(t)) {
            if (!skip_balanced(p)) return false;
        } else {
            advance(p);
        }
    }
}

/* Moves past one expression: up to a ',' or ')' (or '>') outside brackets, not consuming it. */
static bool skip_expression(parser *p, bool stop_at_angle) {
    for (;;) {
        const wgsl_token *t = peek(p);
        if (is_punct(t, ',') || is_punct(t, ')') || (stop_at_angle && is_punct(t, '>'))) return true;
        if (t->kind == WGSL_TOKEN_END || is_punct(t, ';') || is_closer(t))
            return fail_expected(p, "',' or ')'");
        if (is_opener(t)) {
            if (!skip_balanced(p)) return false;
        } else {
            advance(p);
        }
    }
}

/* ---- names ------------------------------------------------------------------------------------- */

static uint32_t hash_name(const char *s, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The declaration named by an identifier token, or -1. */
static int find_decl(const parser *p, const wgsl_token *t) {
    if (t->kind != WGSL_TOKEN_IDENT) return -1;
    uint32_t slot = hash_name(token_text(p, t), t->length) & (NAME_SLOTS - 1);
    while (p->name_slots[slot]) {
        int d = p->name_slots[slot] - 1;
        const wgsl_token *n = &p->tok[p->decls[d].name];
        if (n->length == t->length && memcmp(token_text(p, n), token_text(p, t), t->length) == 0)
            return d;
        slot = (slot + 1) & (NAME_SLOTS - 1);
    }
    return -1;
}

static const char *decl_kind_name(decl_kind kind) {
    switch (kind) {
    case DECL_STRUCT: return "struct";
    case DECL_ALIAS: return "alias";
    case DECL_CONSTANT: return "constant";
    case DECL_VAR: return "var";
    default: return "function";
    }
}

static bool over_cap(parser *p, const wgsl_token *t, const char *what, int cap, const char *cap_name) {
    return fail(p, t, KILN_ERR_CAPACITY, "more than %d %s (%s)", cap, what, cap_name);
}

/* Records a declaration whose name is the token at `name`, refusing a second use of one name. */
static bool add_decl(parser *p, decl_kind kind, size_t attrs_at, size_t keyword, size_t name) {
    const wgsl_token *t = &p->tok[name];
    kiln_wgsl_module *m = p->m;
    char buf[64];
    if (t->kind != WGSL_TOKEN_IDENT) {
        const wgsl_token *k = &p->tok[keyword];
        return fail(p, t, KILN_ERR_SHADER, "expected a name after '%.*s', found %s", (int)k->length,
                    token_text(p, k), describe(p, t, buf, sizeof buf));
    }
    int prior = find_decl(p, t);
    if (prior >= 0) {
        const wgsl_token *o = &p->tok[p->decls[prior].name];
        return fail(p, t, KILN_ERR_SHADER, "'%.*s' is already declared at %u:%u", (int)t->length,
                    token_text(p, t), o->line, o->col);
    }
    uint32_t index;
    char *dst = NULL;
    uint32_t *line = NULL, *col = NULL;
    switch (kind) {
    case DECL_STRUCT:
        if (m->struct_count == KILN_WGSL_MAX_STRUCTS)
            return over_cap(p, t, "structs", KILN_WGSL_MAX_STRUCTS, "KILN_WGSL_MAX_STRUCTS");
        index = m->struct_count++;
        p->struct_decl[index] = p->decl_count;
        dst = m->structs[index].name, line = &m->structs[index].line, col = &m->structs[index].col;
        break;
    case DECL_ALIAS:
        if (m->alias_count == KILN_WGSL_MAX_ALIASES)
            return over_cap(p, t, "aliases", KILN_WGSL_MAX_ALIASES, "KILN_WGSL_MAX_ALIASES");
        index = m->alias_count++;
        p->alias_decl[index] = p->decl_count;
        dst = m->aliases[index].name, line = &m->aliases[index].line, col = &m->aliases[index].col;
        break;
    case DECL_CONSTANT:
        if (m->constant_count == KILN_WGSL_MAX_CONSTANTS)
            return over_cap(p, t, "const and override declarations", KILN_WGSL_MAX_CONSTANTS,
                            "KILN_WGSL_MAX_CONSTANTS");
        index = m->constant_count++;
        p->constant_decl[index] = p->decl_count;
        m->constants[index].is_override = text_is(p, &p->tok[keyword], "override");
        m->constants[index].override_id = -1;
        dst = m->constants[index].name, line = &m->constants[index].line;
        col = &m->constants[index].col;
        break;
    case DECL_VAR:
        if (m->var_count == KILN_WGSL_MAX_VARS)
            return over_cap(p, t, "module-scope vars", KILN_WGSL_MAX_VARS, "KILN_WGSL_MAX_VARS");
        index = m->var_count++;
        p->var_decl[index] = p->decl_count;
        m->vars[index].group = m->vars[index].binding = -1;
        dst = m->vars[index].name, line = &m->vars[index].line, col = &m->vars[index].col;
        break;
    default:
        if (p->function_count == KILN_WGSL_MAX_FUNCTIONS)
            return over_cap(p, t, "functions", KILN_WGSL_MAX_FUNCTIONS, "KILN_WGSL_MAX_FUNCTIONS");
        index = p->function_count++;
        p->functions[index].decl = p->decl_count;
        p->functions[index].entry = -1;
        break;
    }
    if (dst) {
        if (!copy_name(p, t, dst)) return false;
        *line = t->line;
        *col = t->col;
    }
    uint32_t slot = hash_name(token_text(p, t), t->length) & (NAME_SLOTS - 1);
    while (p->name_slots[slot]) slot = (slot + 1) & (NAME_SLOTS - 1);
    p->name_slots[slot] = (uint16_t)(p->decl_count + 1);
    p->decls[p->decl_count++] = (decl){.kind = kind, .index = index, .attrs = attrs_at,
                                        .keyword = keyword, .name = name};
    return true;
}

/* ---- first pass: where each declaration is ------------------------------------------------------ */

static bool skip_attributes(parser *p) {
    while (is_punct(peek(p), '@')) {
        advance(p);
        if (peek(p)->kind != WGSL_TOKEN_IDENT) return fail_expected(p, "an attribute name after '@'");
        advance(p);
        if (is_punct(peek(p), '(') && !skip_balanced(p)) return false;
    }
    return true;
}

/* fn name(...) [-> type] { body }: finds the body's braces. */
static bool scan_function(parser *p, size_t attrs_at, size_t keyword) {
    advance(p);
    size_t name = p->pos;
    if (!add_decl(p, DECL_FUNCTION, attrs_at, keyword, name)) return false;
    decl *d = &p->decls[p->decl_count - 1];
    advance(p);
    if (!is_punct(peek(p), '(')) return fail_expected(p, "'(' after the function name");
    if (!skip_balanced(p)) return false;
    for (;;) {
        const wgsl_token *t = peek(p);
        if (is_punct(t, '{')) break;
        if (t->kind == WGSL_TOKEN_END || is_punct(t, ';') || is_closer(t)) {
            const wgsl_token *n = &p->tok[name];
            char what[128];
            snprintf(what, sizeof what, "'{' to begin the body of fn '%.*s'", (int)n->length,
                     token_text(p, n));
            return fail_expected(p, what);
        }
        if (is_opener(t)) {
            if (!skip_balanced(p)) return false;
        } else {
            advance(p);
        }
    }
    d->body_open = p->pos;
    if (!skip_balanced(p)) return false;
    d->body_close = p->pos - 1;
    return true;
}

/* var[<...>] name ...; */
static bool scan_var(parser *p, size_t attrs_at, size_t keyword) {
    const wgsl_token *start = peek(p);
    advance(p);
    if (is_punct(peek(p), '<')) {
        advance(p);
        while (!is_punct(peek(p), '>')) {
            const wgsl_token *t = peek(p);
            if (t->kind != WGSL_TOKEN_IDENT && !is_punct(t, ','))
                return fail_expected(p, "'>' to close the var's address space");
            advance(p);
        }
        advance(p);
    }
    if (!add_decl(p, DECL_VAR, attrs_at, keyword, p->pos)) return false;
    advance(p);
    return skip_to_semicolon(p, start);
}

static bool scan_declarations(parser *p) {
    for (;;) {
        const wgsl_token *t = peek(p);
        if (t->kind == WGSL_TOKEN_END) return true;
        if (is_punct(t, ';')) {
            advance(p);
            continue;
        }
        if (text_is(p, t, "enable") || text_is(p, t, "requires") || text_is(p, t, "const_assert") ||
            (text_is(p, t, "diagnostic") && is_punct(peek_ahead(p, 1), '('))) {
            advance(p);
            if (!skip_to_semicolon(p, t)) return false;
            continue;
        }
        size_t attrs_at = p->pos;
        if (!skip_attributes(p)) return false;
        size_t keyword = p->pos;
        const wgsl_token *k = peek(p);
        if (text_is(p, k, "fn")) {
            if (!scan_function(p, attrs_at, keyword)) return false;
        } else if (text_is(p, k, "var")) {
            if (!scan_var(p, attrs_at, keyword)) return false;
        } else if (text_is(p, k, "struct")) {
            advance(p);
            if (!add_decl(p, DECL_STRUCT, attrs_at, keyword, p->pos)) return false;
            advance(p);
            if (!is_punct(peek(p), '{')) return fail_expected(p, "'{' after the struct name");
            if (!skip_balanced(p)) return false;
        } else if (text_is(p, k, "const") || text_is(p, k, "override") || text_is(p, k, "alias")) {
            advance(p);
            decl_kind kind = text_is(p, k, "alias") ? DECL_ALIAS : DECL_CONSTANT;
            if (!add_decl(p, kind, attrs_at, keyword, p->pos)) return false;
            advance(p);
            if (!skip_to_semicolon(p, k)) return false;
        } else {
            return fail_expected(p, "a declaration (struct, fn, var, const, override or alias)");
        }
    }
}

/* ---- constants ---------------------------------------------------------------------------------- */

static bool constant_value(parser *p, uint32_t ci, unsigned depth, int64_t *value);
static bool named_value(parser *p, const wgsl_token *t, unsigned depth, int64_t *value);

/* Integer constant expressions: literals, named integer constants, parentheses, unary minus,
 * i32(...)/u32(...) conversions and + - * / %. Enough for array sizes such as `TILES_X * TILES_Y`;
 * anything else (a float, a call, a shift) is "not evaluable", which is only an error where a value
 * is needed. Advances past what it evaluated. */
static bool eval_sum(parser *p, unsigned depth, int64_t *value);

static bool eval_factor(parser *p, unsigned depth, int64_t *value) {
    const wgsl_token *t = peek(p);
    if (depth > KILN_WGSL_MAX_NESTING) return false;
    if (t->kind == WGSL_TOKEN_INT) {
        *value = t->value;
        advance(p);
        return true;
    }
    if (is_punct(t, '-')) {
        advance(p);
        if (!eval_factor(p, depth + 1, value)) return false;
        *value = -*value;
        return true;
    }
    if (is_punct(t, '(')) {
        advance(p);
        if (!eval_sum(p, depth + 1, value) || !is_punct(peek(p), ')')) return false;
        advance(p);
        return true;
    }
    if (t->kind == WGSL_TOKEN_IDENT && (text_is(p, t, "u32") || text_is(p, t, "i32")) && is_punct(peek_ahead(p, 1), '(')) {
        advance(p);
        return eval_factor(p, depth + 1, value);
    }
    if (t->kind == WGSL_TOKEN_IDENT && named_value(p, t, depth + 1, value)) {
        advance(p);
        return true;
    }
    return false;
}

static bool eval_product(parser *p, unsigned depth, int64_t *value) {
    if (!eval_factor(p, depth, value)) return false;
    for (;;) {
        const wgsl_token *op = peek(p);
        if (!is_punct(op, '*') && !is_punct(op, '/') && !is_punct(op, '%')) return true;
        advance(p);
        int64_t rhs;
        if (!eval_factor(p, depth, &rhs)) return false;
        if (is_punct(op, '*')) {
            if (*value > INT32_MAX || *value < INT32_MIN || rhs > INT32_MAX || rhs < INT32_MIN) return false;
            *value *= rhs;
        } else {
            if (rhs == 0) return false;
            *value = is_punct(op, '/') ? *value / rhs : *value % rhs;
        }
    }
}

static bool eval_sum(parser *p, unsigned depth, int64_t *value) {
    if (!eval_product(p, depth, value)) return false;
    for (;;) {
        const wgsl_token *op = peek(p);
        if (!is_punct(op, '+') && !is_punct(op, '-')) return true;
        advance(p);
        int64_t rhs;
        if (!eval_product(p, depth, &rhs)) return false;
        *value = is_punct(op, '+') ? *value + rhs : *value - rhs;
        if (*value > INT64_MAX / 2 || *value < INT64_MIN / 2) return false;
    }
}

/* The integer value of the constant an identifier names, if it has one. */
static bool named_value(parser *p, const wgsl_token *t, unsigned depth, int64_t *value) {
    int d = find_decl(p, t);
    if (d < 0 || p->decls[d].kind != DECL_CONSTANT) return false;
    return constant_value(p, p->decls[d].index, depth, value);
}

/* Evaluates `const name [: type] = <integer constant expression>;`. Anything else has no value,
 * which is only an error where a value is needed. */
static bool constant_value(parser *p, uint32_t ci, unsigned depth, int64_t *value) {
    decl *d = &p->decls[p->constant_decl[ci]];
    kiln_wgsl_constant *c = &p->m->constants[ci];
    if (d->state == DECL_UNRESOLVED && depth <= KILN_WGSL_MAX_NESTING) {
        d->state = DECL_RESOLVING;
        size_t saved = p->pos;
        p->pos = d->name + 1;
        while (!is_punct(peek(p), '=') && !is_punct(peek(p), ';') && peek(p)->kind != WGSL_TOKEN_END)
            advance(p);
        if (is_punct(peek(p), '=')) {
            advance(p);
            int64_t v;
            if (eval_sum(p, depth + 1, &v) && is_punct(peek(p), ';')) {
                c->has_value = true;
                c->value = v;
            }
        }
        p->pos = saved;
        d->state = DECL_RESOLVED;
    }
    if (d->state != DECL_RESOLVED || !c->has_value) return false;
    *value = c->value;
    return true;
}

/* Quotes the expression starting at the current token, up to the ',', ')' or '>' that ends it. */
static const char *quote_expression(const parser *p, char *buf, size_t size) {
    const wgsl_token *first = peek(p), *last = first;
    int depth = 0;
    for (size_t i = p->pos; i < p->count; i++) {
        const wgsl_token *t = &p->tok[i];
        if (t->kind == WGSL_TOKEN_END || is_punct(t, ';') || is_punct(t, '{') || is_punct(t, '}'))
            break;
        if (depth == 0 && (is_punct(t, ',') || is_punct(t, ')') || is_punct(t, '>'))) break;
        if (is_punct(t, '(') || is_punct(t, '[')) depth++;
        if ((is_punct(t, ')') || is_punct(t, ']')) && depth > 0) depth--;
        last = t;
    }
    if (first->kind == WGSL_TOKEN_END) return "end of input";
    size_t n = last->offset + last->length - first->offset;
    snprintf(buf, size, "'%.*s%s'", n > 48 ? 48 : (int)n, token_text(p, first), n > 48 ? "..." : "");
    return buf;
}

/* An integer-valued argument: an integer constant expression (eval_sum) ending at the ',', ')' or
 * '>' that ends the argument. */
static bool const_uint(parser *p, const char *what, uint32_t *value) {
    size_t start = p->pos;
    int64_t evaluated;
    if (eval_sum(p, 0, &evaluated)) {
        const wgsl_token *end = peek(p);
        if ((is_punct(end, ',') || is_punct(end, ')') || is_punct(end, '>')) && evaluated >= 0 && evaluated <= UINT32_MAX) {
            *value = (uint32_t)evaluated;
            return true;
        }
    }
    p->pos = start;
    const wgsl_token *t = peek(p), *next = peek_ahead(p, 1);
    bool alone = is_punct(next, ',') || is_punct(next, ')') || is_punct(next, '>');
    char buf[96];
    int64_t v;
    if (alone && t->kind == WGSL_TOKEN_INT) {
        *value = t->value;
        advance(p);
        return true;
    }
    if (alone && t->kind == WGSL_TOKEN_IDENT) {
        if (!named_value(p, t, 0, &v))
            return fail(p, t, KILN_ERR_SHADER,
                        "%s '%.*s' is not a constant with an integer literal value", what,
                        (int)t->length, token_text(p, t));
        if (v < 0 || v > UINT32_MAX)
            return fail(p, t, KILN_ERR_SHADER, "%s '%.*s' is out of range", what, (int)t->length,
                        token_text(p, t));
        *value = (uint32_t)v;
        advance(p);
        return true;
    }
    if (alone && t->kind == WGSL_TOKEN_NUMBER)
        return fail(p, t, KILN_ERR_SHADER, "%s %s is not an integer literal in the u32 range", what,
                    describe(p, t, buf, sizeof buf));
    return fail(p, t, KILN_ERR_SHADER,
                "%s %s is not an integer literal or a named integer constant", what,
                quote_expression(p, buf, sizeof buf));
}

/* ---- attributes --------------------------------------------------------------------------------- */

const named_value_entry kiln_wgsl_builtins[] = {
    {"position", KILN_WGSL_BUILTIN_POSITION},
    {"frag_depth", KILN_WGSL_BUILTIN_FRAG_DEPTH},
    {"front_facing", KILN_WGSL_BUILTIN_FRONT_FACING},
    {"vertex_index", KILN_WGSL_BUILTIN_VERTEX_INDEX},
    {"instance_index", KILN_WGSL_BUILTIN_INSTANCE_INDEX},
    {"sample_index", KILN_WGSL_BUILTIN_SAMPLE_INDEX},
    {"sample_mask", KILN_WGSL_BUILTIN_SAMPLE_MASK},
    {"local_invocation_id", KILN_WGSL_BUILTIN_LOCAL_INVOCATION_ID},
    {"local_invocation_index", KILN_WGSL_BUILTIN_LOCAL_INVOCATION_INDEX},
    {"global_invocation_id", KILN_WGSL_BUILTIN_GLOBAL_INVOCATION_ID},
    {"workgroup_id", KILN_WGSL_BUILTIN_WORKGROUP_ID},
    {"num_workgroups", KILN_WGSL_BUILTIN_NUM_WORKGROUPS},
};
const size_t kiln_wgsl_builtin_count = sizeof kiln_wgsl_builtins / sizeof kiln_wgsl_builtins[0];

static const named_value_entry INTERPOLATIONS[] = {
    {"perspective", KILN_WGSL_INTERPOLATE_PERSPECTIVE},
    {"linear", KILN_WGSL_INTERPOLATE_LINEAR},
    {"flat", KILN_WGSL_INTERPOLATE_FLAT},
};

static const named_value_entry SAMPLINGS[] = {
    {"center", KILN_WGSL_SAMPLING_CENTER},     {"centroid", KILN_WGSL_SAMPLING_CENTROID},
    {"sample", KILN_WGSL_SAMPLING_SAMPLE},     {"first", KILN_WGSL_SAMPLING_FIRST},
    {"either", KILN_WGSL_SAMPLING_EITHER},
};

static const named_value_entry SPACES[] = {
    {"function", KILN_WGSL_SPACE_FUNCTION}, {"private", KILN_WGSL_SPACE_PRIVATE},
    {"workgroup", KILN_WGSL_SPACE_WORKGROUP}, {"uniform", KILN_WGSL_SPACE_UNIFORM},
    {"storage", KILN_WGSL_SPACE_STORAGE},
};

static const named_value_entry ACCESSES[] = {
    {"read", KILN_WGSL_ACCESS_READ},
    {"write", KILN_WGSL_ACCESS_WRITE},
    {"read_write", KILN_WGSL_ACCESS_READ_WRITE},
};


/* The value an identifier token names in a table, or -1. */
static int lookup(const parser *p, const wgsl_token *t, const named_value_entry *table, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (text_is(p, t, table[i].name)) return table[i].value;
    return -1;
}

/* Reads one identifier that must be in `table`; `what` names the argument in the error. */
static bool table_word(parser *p, const named_value_entry *table, size_t n, const char *what,
                       int *value) {
    const wgsl_token *t = peek(p);
    char buf[64];
    *value = lookup(p, t, table, n);
    if (*value < 0)
        return fail(p, t, KILN_ERR_SHADER, "%s is not one WGSL knows: %s", what,
                    describe(p, t, buf, sizeof buf));
    advance(p);
    return true;
}

static bool close_arguments(parser *p, const char *attr) {
    char what[64];
    if (is_punct(peek(p), ',')) advance(p);
    snprintf(what, sizeof what, "')' to close @%s", attr);
    return expect_punct(p, ')', what);
}

static bool uint_attribute(parser *p, const char *attr, uint32_t *value) {
    char what[64];
    snprintf(what, sizeof what, "'(' after @%s", attr);
    if (!expect_punct(p, '(', what)) return false;
    snprintf(what, sizeof what, "@%s argument", attr);
    return const_uint(p, what, value) && close_arguments(p, attr);
}

static bool interpolate_attribute(parser *p, kiln_wgsl_io_attrs *io) {
    int v;
    if (!expect_punct(p, '(', "'(' after @interpolate")) return false;
    if (!table_word(p, INTERPOLATIONS, COUNT(INTERPOLATIONS), "interpolation type", &v)) return false;
    io->interpolation = (kiln_wgsl_interpolation)v;
    if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), ')')) {
        advance(p);
        if (!table_word(p, SAMPLINGS, COUNT(SAMPLINGS), "interpolation sampling", &v)) return false;
        io->sampling = (kiln_wgsl_sampling)v;
    }
    return close_arguments(p, "interpolate");
}

/* @workgroup_size(x[, y[, z]]): an argument that is not a literal or a constant (an override
 * expression) reads 0 rather than failing, since nothing downstream needs its value. */
static bool workgroup_size_attribute(parser *p, attrs *a) {
    if (!expect_punct(p, '(', "'(' after @workgroup_size")) return false;
    a->workgroup_size[0] = a->workgroup_size[1] = a->workgroup_size[2] = 1;
    for (int i = 0; !is_punct(peek(p), ')'); i++) {
        const wgsl_token *t = peek(p), *next = peek_ahead(p, 1);
        int64_t v = 0;
        if (i == 3) return fail(p, t, KILN_ERR_SHADER, "@workgroup_size takes at most three arguments");
        bool alone = is_punct(next, ',') || is_punct(next, ')');
        if (alone && t->kind == WGSL_TOKEN_INT) v = t->value;
        else if (!(alone && named_value(p, t, 0, &v)) || v < 0 || v > UINT32_MAX) v = 0;
        a->workgroup_size[i] = (uint32_t)v;
        if (!skip_expression(p, false)) return false;
        if (is_punct(peek(p), ',')) advance(p);
        else if (!is_punct(peek(p), ')')) return fail_expected(p, "',' or ')' in @workgroup_size");
    }
    advance(p);
    return true;
}

static bool parse_attributes(parser *p, attrs *a) {
    memset(a, 0, sizeof *a);
    a->io.location = -1;
    while (is_punct(peek(p), '@')) {
        advance(p);
        const wgsl_token *t = peek(p);
        if (t->kind != WGSL_TOKEN_IDENT) return fail_expected(p, "an attribute name after '@'");
        advance(p);
        uint32_t v;
        int word;
        if (text_is(p, t, "location")) {
            if (!uint_attribute(p, "location", &v)) return false;
            if (v > INT32_MAX) return fail(p, t, KILN_ERR_SHADER, "@location(%u) is out of range", v);
            a->io.location = (int32_t)v;
        } else if (text_is(p, t, "group")) {
            if (!uint_attribute(p, "group", &a->group)) return false;
            a->has_group = true;
        } else if (text_is(p, t, "binding")) {
            if (!uint_attribute(p, "binding", &a->binding)) return false;
            a->has_binding = true;
        } else if (text_is(p, t, "id")) {
            if (!uint_attribute(p, "id", &a->id)) return false;
            a->has_id = true;
        } else if (text_is(p, t, "size")) {
            if (!uint_attribute(p, "size", &a->size)) return false;
            if (a->size == 0) return fail(p, t, KILN_ERR_SHADER, "@size must be at least 1");
        } else if (text_is(p, t, "align")) {
            if (!uint_attribute(p, "align", &a->align)) return false;
            if (a->align == 0 || (a->align & (a->align - 1)) != 0)
                return fail(p, t, KILN_ERR_SHADER, "@align(%u) is not a power of two", a->align);
        } else if (text_is(p, t, "builtin")) {
            if (!expect_punct(p, '(', "'(' after @builtin")) return false;
            if (peek(p)->kind != WGSL_TOKEN_IDENT) return fail_expected(p, "a builtin name");
            word = lookup(p, peek(p), kiln_wgsl_builtins, kiln_wgsl_builtin_count);
            a->io.builtin = word < 0 ? KILN_WGSL_BUILTIN_OTHER : (kiln_wgsl_builtin)word;
            advance(p);
            if (!close_arguments(p, "builtin")) return false;
        } else if (text_is(p, t, "interpolate")) {
            if (!interpolate_attribute(p, &a->io)) return false;
        } else if (text_is(p, t, "invariant")) {
            a->io.invariant = true;
        } else if (text_is(p, t, "vertex")) {
            a->stage = KILN_WGSL_STAGE_VERTEX;
        } else if (text_is(p, t, "fragment")) {
            a->stage = KILN_WGSL_STAGE_FRAGMENT;
        } else if (text_is(p, t, "compute")) {
            a->stage = KILN_WGSL_STAGE_COMPUTE;
        } else if (text_is(p, t, "workgroup_size")) {
            if (!workgroup_size_attribute(p, a)) return false;
        } else if (is_punct(peek(p), '(')) {
            if (!skip_balanced(p)) return false; /* @diagnostic(...), @blend_src(n), ... */
        }
    }
    return true;
}

/* ---- types -------------------------------------------------------------------------------------- */

static bool same_type(const kiln_wgsl_type *a, const kiln_wgsl_type *b) {
    return a->kind == b->kind && a->scalar == b->scalar && a->components == b->components &&
           a->columns == b->columns && a->element == b->element && a->count == b->count &&
           a->struct_index == b->struct_index && a->handle == b->handle && a->space == b->space &&
           a->access == b->access && strcmp(a->texel_format, b->texel_format) == 0;
}

/* The index of `ty` in the module's type table, adding (and laying out) it when new; 0 on error. */
static uint32_t intern(parser *p, kiln_wgsl_type *ty, const wgsl_token *at) {
    kiln_wgsl_module *m = p->m;
    if (ty->kind != KILN_WGSL_TYPE_STRUCT && !kiln_wgsl_layout_type(m, ty)) {
        fail(p, at, KILN_ERR_SHADER, "type is larger than 4 GiB");
        return 0;
    }
    for (uint32_t i = 1; i < m->type_count; i++)
        if (same_type(&m->types[i], ty)) return i;
    if (m->type_count == KILN_WGSL_MAX_TYPES) {
        over_cap(p, at, "distinct types", KILN_WGSL_MAX_TYPES - 1, "KILN_WGSL_MAX_TYPES");
        return 0;
    }
    m->types[m->type_count] = *ty;
    return m->type_count++;
}

static uint32_t resolve_type(parser *p, unsigned depth);

static bool open_template(parser *p, const wgsl_token *name) {
    char what[80];
    snprintf(what, sizeof what, "'<' after '%.*s'", (int)name->length, token_text(p, name));
    return expect_punct(p, '<', what);
}

static bool close_template(parser *p, const wgsl_token *name) {
    char what[80];
    if (is_punct(peek(p), ',')) advance(p);
    snprintf(what, sizeof what, "'>' to close '%.*s<'", (int)name->length, token_text(p, name));
    return expect_punct(p, '>', what);
}

/* A template argument that must be a scalar type among `allowed` (a bit per kiln_wgsl_scalar). */
static bool scalar_argument(parser *p, const wgsl_token *name, unsigned allowed, unsigned depth,
                            kiln_wgsl_scalar *scalar) {
    const wgsl_token *at = peek(p);
    uint32_t e = resolve_type(p, depth + 1);
    if (!e) return false;
    const kiln_wgsl_type *t = &p->m->types[e];
    if (t->kind != KILN_WGSL_TYPE_SCALAR || !(allowed & (1u << t->scalar))) {
        char type_name[64];
        return fail(p, at, KILN_ERR_SHADER, "'%.*s' cannot hold '%s'", (int)name->length,
                    token_text(p, name), kiln_wgsl_type_name(p->m, e, type_name, sizeof type_name));
    }
    *scalar = t->scalar;
    return true;
}

#define ANY_SCALAR ((1u << KILN_WGSL_SCALAR_BOOL) | (1u << KILN_WGSL_SCALAR_F32) | \
                    (1u << KILN_WGSL_SCALAR_F16) | (1u << KILN_WGSL_SCALAR_I32) | \
                    (1u << KILN_WGSL_SCALAR_U32))
#define FLOAT_SCALAR ((1u << KILN_WGSL_SCALAR_F32) | (1u << KILN_WGSL_SCALAR_F16))
#define SAMPLED_SCALAR ((1u << KILN_WGSL_SCALAR_F32) | (1u << KILN_WGSL_SCALAR_I32) | \
                        (1u << KILN_WGSL_SCALAR_U32))
#define INTEGER_SCALAR ((1u << KILN_WGSL_SCALAR_I32) | (1u << KILN_WGSL_SCALAR_U32))

static kiln_wgsl_scalar suffix_scalar(char c) {
    switch (c) {
    case 'f': return KILN_WGSL_SCALAR_F32;
    case 'h': return KILN_WGSL_SCALAR_F16;
    case 'i': return KILN_WGSL_SCALAR_I32;
    case 'u': return KILN_WGSL_SCALAR_U32;
    default: return KILN_WGSL_SCALAR_NONE;
    }
}

static bool is_size_digit(char c) {
    return c >= '2' && c <= '4';
}

/* vecN<T>, vecNf/h/i/u: false when the name is not a vector. */
static bool vector_type(parser *p, const wgsl_token *t, unsigned depth, kiln_wgsl_type *ty, bool *ok) {
    const char *s = token_text(p, t);
    if (t->length < 4 || t->length > 5 || memcmp(s, "vec", 3) != 0 || !is_size_digit(s[3]))
        return false;
    ty->kind = KILN_WGSL_TYPE_VECTOR;
    ty->components = (uint32_t)(s[3] - '0');
    if (t->length == 5) {
        ty->scalar = suffix_scalar(s[4]);
        *ok = ty->scalar != KILN_WGSL_SCALAR_NONE;
        if (!*ok) fail(p, t, KILN_ERR_SHADER, "unknown type '%.5s'", s);
        return true;
    }
    *ok = open_template(p, t) && scalar_argument(p, t, ANY_SCALAR, depth, &ty->scalar) &&
          close_template(p, t);
    return true;
}

/* matCxR<T>, matCxRf/h: false when the name is not a matrix. */
static bool matrix_type(parser *p, const wgsl_token *t, unsigned depth, kiln_wgsl_type *ty, bool *ok) {
    const char *s = token_text(p, t);
    if (t->length < 6 || t->length > 7 || memcmp(s, "mat", 3) != 0 || !is_size_digit(s[3]) ||
        s[4] != 'x' || !is_size_digit(s[5]))
        return false;
    ty->kind = KILN_WGSL_TYPE_MATRIX;
    ty->columns = (uint32_t)(s[3] - '0');
    ty->components = (uint32_t)(s[5] - '0');
    if (t->length == 7) {
        ty->scalar = suffix_scalar(s[6]);
        *ok = ty->scalar == KILN_WGSL_SCALAR_F32 || ty->scalar == KILN_WGSL_SCALAR_F16;
        if (!*ok) fail(p, t, KILN_ERR_SHADER, "unknown type '%.7s'", s);
        return true;
    }
    *ok = open_template(p, t) && scalar_argument(p, t, FLOAT_SCALAR, depth, &ty->scalar) &&
          close_template(p, t);
    return true;
}

/* array<E> or array<E, N>. */
static bool array_type(parser *p, const wgsl_token *t, unsigned depth, kiln_wgsl_type *ty) {
    ty->kind = KILN_WGSL_TYPE_ARRAY;
    if (!open_template(p, t)) return false;
    const wgsl_token *at = peek(p);
    ty->element = resolve_type(p, depth + 1);
    if (!ty->element) return false;
    const kiln_wgsl_type *e = &p->m->types[ty->element];
    if (e->runtime_sized)
        return fail(p, at, KILN_ERR_SHADER, "an array element cannot be runtime-sized");
    if (e->kind == KILN_WGSL_TYPE_TEXTURE || e->kind == KILN_WGSL_TYPE_SAMPLER ||
        e->kind == KILN_WGSL_TYPE_POINTER)
        return fail(p, at, KILN_ERR_SHADER, "an array cannot hold textures, samplers or pointers");
    if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), '>')) {
        advance(p);
        const wgsl_token *count = peek(p);
        if (!const_uint(p, "array element count", &ty->count)) return false;
        if (ty->count == 0)
            return fail(p, count, KILN_ERR_SHADER, "array element count must be at least 1");
    }
    return close_template(p, t);
}

static bool pointer_type(parser *p, const wgsl_token *t, unsigned depth, kiln_wgsl_type *ty) {
    int v;
    ty->kind = KILN_WGSL_TYPE_POINTER;
    if (!open_template(p, t)) return false;
    if (!table_word(p, SPACES, COUNT(SPACES), "address space", &v)) return false;
    ty->space = (kiln_wgsl_address_space)v;
    if (!expect_punct(p, ',', "',' after the pointer's address space")) return false;
    ty->element = resolve_type(p, depth + 1);
    if (!ty->element) return false;
    if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), '>')) {
        advance(p);
        if (!table_word(p, ACCESSES, COUNT(ACCESSES), "access mode", &v)) return false;
        ty->access = (kiln_wgsl_access)v;
    }
    return close_template(p, t);
}

static const named_value_entry SAMPLED_TEXTURES[] = {
    {"texture_1d", KILN_WGSL_TEXTURE_1D},
    {"texture_2d", KILN_WGSL_TEXTURE_2D},
    {"texture_2d_array", KILN_WGSL_TEXTURE_2D_ARRAY},
    {"texture_3d", KILN_WGSL_TEXTURE_3D},
    {"texture_cube", KILN_WGSL_TEXTURE_CUBE},
    {"texture_cube_array", KILN_WGSL_TEXTURE_CUBE_ARRAY},
    {"texture_multisampled_2d", KILN_WGSL_TEXTURE_MULTISAMPLED_2D},
};

static const named_value_entry PLAIN_HANDLES[] = {
    {"texture_depth_2d", KILN_WGSL_TEXTURE_DEPTH_2D},
    {"texture_depth_2d_array", KILN_WGSL_TEXTURE_DEPTH_2D_ARRAY},
    {"texture_depth_cube", KILN_WGSL_TEXTURE_DEPTH_CUBE},
    {"texture_depth_cube_array", KILN_WGSL_TEXTURE_DEPTH_CUBE_ARRAY},
    {"texture_depth_multisampled_2d", KILN_WGSL_TEXTURE_DEPTH_MULTISAMPLED_2D},
    {"texture_external", KILN_WGSL_TEXTURE_EXTERNAL},
    {"sampler", KILN_WGSL_SAMPLER},
    {"sampler_comparison", KILN_WGSL_SAMPLER_COMPARISON},
};

static const named_value_entry STORAGE_TEXTURES[] = {
    {"texture_storage_1d", KILN_WGSL_TEXTURE_STORAGE_1D},
    {"texture_storage_2d", KILN_WGSL_TEXTURE_STORAGE_2D},
    {"texture_storage_2d_array", KILN_WGSL_TEXTURE_STORAGE_2D_ARRAY},
    {"texture_storage_3d", KILN_WGSL_TEXTURE_STORAGE_3D},
};

/* Textures and samplers: false when the name is none of them. */
static bool handle_type(parser *p, const wgsl_token *t, unsigned depth, kiln_wgsl_type *ty, bool *ok) {
    int h;
    *ok = true;
    if ((h = lookup(p, t, PLAIN_HANDLES, COUNT(PLAIN_HANDLES))) >= 0) {
        ty->handle = (kiln_wgsl_handle)h;
        ty->kind = h >= KILN_WGSL_SAMPLER ? KILN_WGSL_TYPE_SAMPLER : KILN_WGSL_TYPE_TEXTURE;
        return true;
    }
    if ((h = lookup(p, t, SAMPLED_TEXTURES, COUNT(SAMPLED_TEXTURES))) >= 0) {
        ty->handle = (kiln_wgsl_handle)h;
        ty->kind = KILN_WGSL_TYPE_TEXTURE;
        *ok = open_template(p, t) && scalar_argument(p, t, SAMPLED_SCALAR, depth, &ty->scalar) &&
              close_template(p, t);
        return true;
    }
    if ((h = lookup(p, t, STORAGE_TEXTURES, COUNT(STORAGE_TEXTURES))) >= 0) {
        int access = 0;
        ty->handle = (kiln_wgsl_handle)h;
        ty->kind = KILN_WGSL_TYPE_TEXTURE;
        *ok = false;
        if (!open_template(p, t)) return true;
        const wgsl_token *format = peek(p);
        if (format->kind != WGSL_TOKEN_IDENT) {
            fail_expected(p, "a texel format");
            return true;
        }
        if (format->length >= KILN_WGSL_FORMAT_MAX) {
            fail(p, format, KILN_ERR_SHADER, "'%.*s' is not a texel format", KILN_WGSL_FORMAT_MAX,
                 token_text(p, format));
            return true;
        }
        memcpy(ty->texel_format, token_text(p, format), format->length);
        advance(p);
        *ok = expect_punct(p, ',', "',' after the texel format") &&
              table_word(p, ACCESSES, COUNT(ACCESSES), "access mode", &access) &&
              close_template(p, t);
        ty->access = (kiln_wgsl_access)access;
        return true;
    }
    return false;
}

/* A predeclared type or type generator named by t (already consumed). */
static bool predeclared_type(parser *p, const wgsl_token *t, unsigned depth, kiln_wgsl_type *ty) {
    static const named_value_entry SCALARS[] = {
        {"f32", KILN_WGSL_SCALAR_F32}, {"f16", KILN_WGSL_SCALAR_F16}, {"i32", KILN_WGSL_SCALAR_I32},
        {"u32", KILN_WGSL_SCALAR_U32}, {"bool", KILN_WGSL_SCALAR_BOOL},
    };
    bool ok = false;
    int s = lookup(p, t, SCALARS, COUNT(SCALARS));
    if (s >= 0) {
        ty->kind = KILN_WGSL_TYPE_SCALAR;
        ty->scalar = (kiln_wgsl_scalar)s;
        ty->components = 1;
        return true;
    }
    if (vector_type(p, t, depth, ty, &ok) || matrix_type(p, t, depth, ty, &ok) ||
        handle_type(p, t, depth, ty, &ok))
        return ok;
    if (text_is(p, t, "array")) return array_type(p, t, depth, ty);
    if (text_is(p, t, "ptr")) return pointer_type(p, t, depth, ty);
    if (text_is(p, t, "atomic")) {
        ty->kind = KILN_WGSL_TYPE_ATOMIC;
        ty->components = 1;
        return open_template(p, t) && scalar_argument(p, t, INTEGER_SCALAR, depth, &ty->scalar) &&
               close_template(p, t);
    }
    return fail(p, t, KILN_ERR_SHADER, "unknown type '%.*s'", (int)t->length, token_text(p, t));
}

static bool resolve_struct(parser *p, uint32_t si, unsigned depth);
static bool resolve_alias(parser *p, uint32_t ai, unsigned depth);

/* Parses a type at the current token and returns its index in the type table; 0 on error. */
static uint32_t resolve_type(parser *p, unsigned depth) {
    const wgsl_token *t = peek(p);
    if (t->kind != WGSL_TOKEN_IDENT) {
        fail_expected(p, "a type");
        return 0;
    }
    if (depth > KILN_WGSL_MAX_NESTING) {
        fail(p, t, KILN_ERR_CAPACITY, "types nest deeper than %d levels (KILN_WGSL_MAX_NESTING)",
             KILN_WGSL_MAX_NESTING);
        return 0;
    }
    advance(p);
    /* Module-scope declarations shadow predeclared names. */
    int d = find_decl(p, t);
    if (d >= 0) {
        decl *dd = &p->decls[d];
        if (dd->kind == DECL_STRUCT) {
            if (dd->state == DECL_RESOLVING) {
                fail(p, t, KILN_ERR_SHADER, "struct '%.*s' contains itself", (int)t->length,
                     token_text(p, t));
                return 0;
            }
            if (dd->state == DECL_UNRESOLVED && !resolve_struct(p, dd->index, depth + 1)) return 0;
            return p->m->structs[dd->index].type;
        }
        if (dd->kind == DECL_ALIAS) {
            if (dd->state == DECL_RESOLVING) {
                fail(p, t, KILN_ERR_SHADER, "alias '%.*s' refers to itself", (int)t->length,
                     token_text(p, t));
                return 0;
            }
            if (dd->state == DECL_UNRESOLVED && !resolve_alias(p, dd->index, depth + 1)) return 0;
            return p->m->aliases[dd->index].type;
        }
        fail(p, t, KILN_ERR_SHADER, "'%.*s' is a %s, not a type", (int)t->length, token_text(p, t),
             decl_kind_name(dd->kind));
        return 0;
    }
    kiln_wgsl_type ty;
    memset(&ty, 0, sizeof ty);
    if (!predeclared_type(p, t, depth, &ty)) return 0;
    return intern(p, &ty, t);
}

/* ---- second pass: structs, aliases, constants, vars --------------------------------------------- */

static bool parse_member(parser *p, kiln_wgsl_struct *s, unsigned depth) {
    attrs a;
    if (!parse_attributes(p, &a)) return false;
    const wgsl_token *name = peek(p);
    if (name->kind != WGSL_TOKEN_IDENT) return fail_expected(p, "a member name");
    if (s->member_count == KILN_WGSL_MAX_MEMBERS)
        return fail(p, name, KILN_ERR_CAPACITY,
                    "struct '%s' has more than %d members (KILN_WGSL_MAX_MEMBERS)", s->name,
                    KILN_WGSL_MAX_MEMBERS);
    kiln_wgsl_member *mb = &s->members[s->member_count];
    if (!copy_name(p, name, mb->name)) return false;
    mb->line = name->line;
    mb->col = name->col;
    mb->size_attr = a.size;
    mb->align_attr = a.align;
    mb->io = a.io;
    advance(p);
    if (!expect_punct(p, ':', "':' after the member name")) return false;
    mb->type = resolve_type(p, depth + 1);
    if (!mb->type) return false;
    s->member_count++;
    return true;
}

static bool resolve_struct(parser *p, uint32_t si, unsigned depth) {
    decl *d = &p->decls[p->struct_decl[si]];
    kiln_wgsl_struct *s = &p->m->structs[si];
    size_t saved = p->pos;
    d->state = DECL_RESOLVING;
    p->pos = d->name + 1; /* the '{', as the first pass found */
    advance(p);
    while (!is_punct(peek(p), '}')) {
        if (!parse_member(p, s, depth)) return false;
        if (is_punct(peek(p), ',')) advance(p);
        else if (!is_punct(peek(p), '}')) return fail_expected(p, "',' or '}' after a struct member");
    }
    if (s->member_count == 0)
        return fail(p, &p->tok[d->name], KILN_ERR_SHADER, "struct '%s' has no members", s->name);
    kiln_wgsl_type ty;
    memset(&ty, 0, sizeof ty);
    ty.kind = KILN_WGSL_TYPE_STRUCT;
    ty.struct_index = si;
    if (!kiln_wgsl_layout_struct(p->m, s, &ty, p->err)) return false;
    s->type = intern(p, &ty, &p->tok[d->name]);
    if (!s->type) return false;
    p->pos = saved;
    d->state = DECL_RESOLVED;
    return true;
}

static bool resolve_alias(parser *p, uint32_t ai, unsigned depth) {
    decl *d = &p->decls[p->alias_decl[ai]];
    size_t saved = p->pos;
    d->state = DECL_RESOLVING;
    p->pos = d->name + 1;
    if (!expect_punct(p, '=', "'=' after the alias name")) return false;
    uint32_t type = resolve_type(p, depth + 1);
    if (!type) return false;
    if (!expect_punct(p, ';', "';' after the aliased type")) return false;
    p->m->aliases[ai].type = type;
    p->pos = saved;
    d->state = DECL_RESOLVED;
    return true;
}

static bool resolve_constants(parser *p) {
    for (uint32_t i = 0; i < p->m->constant_count; i++) {
        decl *d = &p->decls[p->constant_decl[i]];
        attrs a;
        int64_t ignored;
        p->pos = d->attrs;
        if (!parse_attributes(p, &a)) return false;
        if (a.has_id) p->m->constants[i].override_id = (int32_t)(a.id > INT32_MAX ? INT32_MAX : a.id);
        constant_value(p, i, 0, &ignored);
    }
    return true;
}

static bool resolve_types(parser *p) {
    for (uint32_t i = 0; i < p->m->struct_count; i++)
        if (p->decls[p->struct_decl[i]].state == DECL_UNRESOLVED && !resolve_struct(p, i, 0))
            return false;
    for (uint32_t i = 0; i < p->m->alias_count; i++)
        if (p->decls[p->alias_decl[i]].state == DECL_UNRESOLVED && !resolve_alias(p, i, 0))
            return false;
    return true;
}

static bool is_handle_type(const kiln_wgsl_type *t) {
    return t->kind == KILN_WGSL_TYPE_TEXTURE || t->kind == KILN_WGSL_TYPE_SAMPLER;
}

/* [attrs] var[<space[, access]>] name[: type] [= init]; */
static bool resolve_var(parser *p, uint32_t vi) {
    decl *d = &p->decls[p->var_decl[vi]];
    kiln_wgsl_var *v = &p->m->vars[vi];
    const wgsl_token *name = &p->tok[d->name];
    attrs a;
    int word;
    p->pos = d->attrs;
    if (!parse_attributes(p, &a)) return false;
    advance(p); /* var */
    if (is_punct(peek(p), '<')) {
        advance(p);
        if (!table_word(p, SPACES, COUNT(SPACES), "address space", &word)) return false;
        v->space = (kiln_wgsl_address_space)word;
        if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), '>')) {
            advance(p);
            if (!table_word(p, ACCESSES, COUNT(ACCESSES), "access mode", &word)) return false;
            v->access = (kiln_wgsl_access)word;
        }
        if (is_punct(peek(p), ',')) advance(p);
        if (!expect_punct(p, '>', "'>' to close the var's address space")) return false;
    }
    if (p->pos != d->name) return fail_expected(p, "the var's name");
    advance(p);
    if (is_punct(peek(p), ':')) {
        advance(p);
        v->type = resolve_type(p, 0);
        if (!v->type) return false;
    }
    const kiln_wgsl_type *t = &p->m->types[v->type];
    if (v->space == KILN_WGSL_SPACE_NONE) {
        if (!v->type || !is_handle_type(t))
            return fail(p, name, KILN_ERR_SHADER,
                        "var '%s' needs an address space (var<private>, var<uniform>, ...)", v->name);
        v->space = KILN_WGSL_SPACE_HANDLE;
    }
    if (v->space == KILN_WGSL_SPACE_FUNCTION)
        return fail(p, name, KILN_ERR_SHADER,
                    "var '%s': a module-scope var cannot be in the function address space", v->name);
    bool resource = v->space == KILN_WGSL_SPACE_HANDLE || v->space == KILN_WGSL_SPACE_UNIFORM ||
                    v->space == KILN_WGSL_SPACE_STORAGE;
    if (resource && !v->type)
        return fail(p, name, KILN_ERR_SHADER, "var '%s' needs a type", v->name);
    if (resource && !(a.has_group && a.has_binding))
        return fail(p, name, KILN_ERR_SHADER, "var '%s' needs both @group and @binding", v->name);
    if (a.has_group) v->group = (int32_t)(a.group > INT32_MAX ? INT32_MAX : a.group);
    if (a.has_binding) v->binding = (int32_t)(a.binding > INT32_MAX ? INT32_MAX : a.binding);
    if (v->access == KILN_WGSL_ACCESS_NONE && v->space != KILN_WGSL_SPACE_HANDLE)
        v->access = (v->space == KILN_WGSL_SPACE_UNIFORM || v->space == KILN_WGSL_SPACE_STORAGE)
                        ? KILN_WGSL_ACCESS_READ
                        : KILN_WGSL_ACCESS_READ_WRITE;
    d->state = DECL_RESOLVED;
    return true;
}

/* ---- entry points ------------------------------------------------------------------------------- */

static bool add_io(parser *p, kiln_wgsl_entry *e, bool output, const char *name, uint32_t type,
                   const kiln_wgsl_io_attrs *io, uint32_t line, uint32_t col) {
    uint32_t *count = output ? &e->output_count : &e->input_count;
    if (*count == KILN_WGSL_MAX_IO)
        return kiln_wgsl_fail_at(p->err, KILN_ERR_CAPACITY, p->name, line, col,
                                 "entry point '%s' has more than %d %s (KILN_WGSL_MAX_IO)", e->name,
                                 KILN_WGSL_MAX_IO, output ? "outputs" : "inputs");
    kiln_wgsl_io *slot = &(output ? e->outputs : e->inputs)[(*count)++];
    snprintf(slot->name, sizeof slot->name, "%s", name);
    slot->type = type;
    slot->attrs = *io;
    slot->line = line;
    slot->col = col;
    return true;
}

/* Adds a parameter or the return value; a struct without @location or @builtin of its own
 * contributes its members instead. `name` is NULL for the return value. */
static bool flatten_io(parser *p, kiln_wgsl_entry *e, bool output, const wgsl_token *name,
                       const wgsl_token *at, uint32_t type, const kiln_wgsl_io_attrs *io) {
    const kiln_wgsl_type *t = &p->m->types[type];
    if (t->kind == KILN_WGSL_TYPE_STRUCT && io->location < 0 && io->builtin == KILN_WGSL_BUILTIN_NONE) {
        const kiln_wgsl_struct *s = &p->m->structs[t->struct_index];
        for (uint32_t i = 0; i < s->member_count; i++) {
            const kiln_wgsl_member *mb = &s->members[i];
            if (!add_io(p, e, output, mb->name, mb->type, &mb->io, mb->line, mb->col)) return false;
        }
        return true;
    }
    char text[KILN_WGSL_NAME_MAX] = "";
    if (name && !copy_name(p, name, text)) return false;
    return add_io(p, e, output, text, type, io, at->line, at->col);
}

/* fn name(params) [-> [attrs] type] {, for a function whose attributes named a stage. */
static bool parse_entry(parser *p, function_info *f, const attrs *fa) {
    kiln_wgsl_module *m = p->m;
    decl *d = &p->decls[f->decl];
    const wgsl_token *name = &p->tok[d->name];
    if (m->entry_count == KILN_WGSL_MAX_ENTRIES)
        return over_cap(p, name, "entry points", KILN_WGSL_MAX_ENTRIES, "KILN_WGSL_MAX_ENTRIES");
    kiln_wgsl_entry *e = &m->entries[m->entry_count];
    if (!copy_name(p, name, e->name)) return false;
    e->stage = fa->stage;
    memcpy(e->workgroup_size, fa->workgroup_size, sizeof e->workgroup_size);
    e->line = name->line;
    e->col = name->col;
    p->pos = d->name + 1;
    advance(p); /* ( */
    while (!is_punct(peek(p), ')')) {
        attrs a;
        if (!parse_attributes(p, &a)) return false;
        const wgsl_token *param = peek(p);
        if (param->kind != WGSL_TOKEN_IDENT) return fail_expected(p, "a parameter name");
        advance(p);
        if (!expect_punct(p, ':', "':' after the parameter name")) return false;
        uint32_t type = resolve_type(p, 0);
        if (!type || !flatten_io(p, e, false, param, param, type, &a.io)) return false;
        if (is_punct(peek(p), ',')) advance(p);
        else if (!is_punct(peek(p), ')')) return fail_expected(p, "',' or ')' after a parameter");
    }
    advance(p);
    if (is_punct(peek(p), WGSL_PUNCT_ARROW)) {
        attrs a;
        advance(p);
        if (!parse_attributes(p, &a)) return false;
        const wgsl_token *at = peek(p);
        e->return_type = resolve_type(p, 0);
        if (!e->return_type || !flatten_io(p, e, true, NULL, at, e->return_type, &a.io)) return false;
    }
    if (p->pos != d->body_open) return fail_expected(p, "'{' to begin the entry point's body");
    f->entry = (int32_t)m->entry_count++;
    return true;
}

static bool resolve_functions(parser *p) {
    for (uint32_t i = 0; i < p->function_count; i++) {
        function_info *f = &p->functions[i];
        attrs a;
        p->pos = p->decls[f->decl].attrs;
        if (!parse_attributes(p, &a)) return false;
        if (a.stage != KILN_WGSL_STAGE_NONE && !parse_entry(p, f, &a)) return false;
    }
    return true;
}

/* Which vars each function names and which functions it calls, then the closure over calls. An
 * identifier right after '.' is a member or swizzle, never a module-scope name. */
static void analyse_uses(parser *p) {
    for (uint32_t i = 0; i < p->function_count; i++) {
        function_info *f = &p->functions[i];
        const decl *d = &p->decls[f->decl];
        for (size_t k = d->body_open + 1; k < d->body_close; k++) {
            const wgsl_token *t = &p->tok[k];
            if (t->kind != WGSL_TOKEN_IDENT || is_punct(&p->tok[k - 1], '.')) continue;
            int n = find_decl(p, t);
            if (n < 0) continue;
            uint32_t index = p->decls[n].index;
            if (p->decls[n].kind == DECL_VAR) f->var_uses |= 1ull << index;
            else if (p->decls[n].kind == DECL_FUNCTION) f->calls[index / 64] |= 1ull << (index % 64);
        }
    }
    bool changed = true;
    for (uint32_t round = 0; changed && round <= p->function_count; round++) {
        changed = false;
        for (uint32_t i = 0; i < p->function_count; i++) {
            function_info *f = &p->functions[i];
            uint64_t uses = f->var_uses;
            for (uint32_t j = 0; j < p->function_count; j++)
                if (f->calls[j / 64] & (1ull << (j % 64))) uses |= p->functions[j].var_uses;
            if (uses != f->var_uses) {
                f->var_uses = uses;
                changed = true;
            }
        }
    }
    for (uint32_t i = 0; i < p->function_count; i++)
        if (p->functions[i].entry >= 0)
            p->m->entries[p->functions[i].entry].var_uses = p->functions[i].var_uses;
}

/* ---- the whole module --------------------------------------------------------------------------- */

kiln_wgsl_module *kiln_wgsl_reflect(const char *source, size_t length, const char *source_name,
                                    kiln_error *err) {
    if (!source && length) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "wgsl reflect: source is NULL");
        return NULL;
    }
    kiln_wgsl_module *m = calloc(1, sizeof *m);
    parser *p = calloc(1, sizeof *p);
    wgsl_tokens tokens = {0};
    if (!m || !p) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory reflecting WGSL",
                       source_name ? source_name : "wgsl");
        goto fail;
    }
    snprintf(m->source_name, sizeof m->source_name, "%s", source_name ? source_name : "wgsl");
    m->type_count = 1; /* 0 is "no type" */
    if (!kiln_wgsl_lex(source ? source : "", length, m->source_name, &tokens, err)) goto fail;
    p->src = source ? source : "";
    p->name = m->source_name;
    p->tok = tokens.items;
    p->count = tokens.count;
    p->m = m;
    p->err = err;
    if (!scan_declarations(p) || !resolve_constants(p) || !resolve_types(p)) goto fail;
    for (uint32_t i = 0; i < m->var_count; i++)
        if (!resolve_var(p, i)) goto fail;
    if (!resolve_functions(p)) goto fail;
    analyse_uses(p);
    kiln_wgsl_tokens_free(&tokens);
    free(p);
    return m;
fail:
    kiln_wgsl_tokens_free(&tokens);
    free(p);
    free(m);
    return NULL;
}

void kiln_wgsl_module_free(kiln_wgsl_module *module) {
    free(module);
}
