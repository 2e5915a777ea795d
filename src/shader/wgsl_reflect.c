/* WGSL declarations: what a module declares at module scope, resolved into kiln_wgsl_module.
 *
 * Two passes over the token stream. The first finds every module-scope declaration and its extent
 * (struct and function bodies by bracket matching, everything else up to its ';'), so the second
 * can resolve names in any order, as WGSL allows: a struct may use an alias declared after it.
 * The second pass (wgsl_types.c, then wgsl_entries.c) parses each declaration in full, resolving
 * types lazily and interning them (wgsl_layout.c lays each one out as it is interned). Function
 * bodies are never parsed: the usage analysis only reads their identifiers. Cycles (a struct that
 * contains itself, an alias of itself) are caught by a per-declaration "resolving" state, and every
 * recursion is bounded by KILN_WGSL_MAX_NESTING.
 *
 * This file is the parser's core, which the others build on (wgsl_parser.h): token and bracket
 * helpers, the table of declared names, the first pass, integer constant expressions, and
 * kiln_wgsl_reflect itself, which runs the passes in order. */
#include <kiln/core/utf8.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl_parser.h"

/* ---- tokens ------------------------------------------------------------------------------------- */

/* "'text'" or "end of input", for messages; long tokens are cut. */
static const char *describe(const parser *p, const wgsl_token *t, char *buf, size_t size) {
    if (t->kind == WGSL_TOKEN_END) return "end of input";
    int n = t->length < 40 ? (int)t->length : 40;
    snprintf(buf, size, "'%.*s%s'", n, token_text(p, t), t->length > 40 ? "..." : "");
    return buf;
}

bool wgsl_fail(parser *p, const wgsl_token *t, int code, const char *fmt, ...) {
    char message[360];
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(message, sizeof message, fmt, args);
    va_end(args);
    return kiln_wgsl_fail_at(p->err, code, p->name, t->line, t->col, "%s", message);
}

bool wgsl_fail_expected(parser *p, const char *what) {
    char buf[64];
    return wgsl_fail(p, peek(p), KILN_ERR_SHADER, "expected %s, found %s", what,
                     describe(p, peek(p), buf, sizeof buf));
}

bool wgsl_expect_punct(parser *p, int c, const char *what) {
    if (!is_punct(peek(p), c)) return wgsl_fail_expected(p, what);
    advance(p);
    return true;
}

bool wgsl_copy_name(parser *p, const wgsl_token *t, char *dst) {
    if (t->length >= KILN_WGSL_NAME_MAX)
        return wgsl_fail(p, t, KILN_ERR_CAPACITY,
                         "name '%.32s...' is longer than %d bytes (KILN_WGSL_NAME_MAX)",
                         token_text(p, t), KILN_WGSL_NAME_MAX - 1);
    memcpy(dst, token_text(p, t), t->length);
    dst[t->length] = '\0';
    return true;
}

/* The value an identifier token names in a table, or -1. */
int wgsl_lookup(const parser *p, const wgsl_token *t, const named_value_entry *table, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (text_is(p, t, table[i].name)) return table[i].value;
    return -1;
}

/* Reads one identifier that must be in `table`; `what` names the argument in the error. */
bool wgsl_table_word(parser *p, const named_value_entry *table, size_t n, const char *what,
                     int *value) {
    const wgsl_token *t = peek(p);
    char buf[64];
    *value = wgsl_lookup(p, t, table, n);
    if (*value < 0)
        return wgsl_fail(p, t, KILN_ERR_SHADER, "%s is not one WGSL knows: %s", what,
                         describe(p, t, buf, sizeof buf));
    advance(p);
    return true;
}

/* ---- brackets ----------------------------------------------------------------------------------- */

#define MAX_BRACKET_DEPTH 256

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
bool wgsl_skip_balanced(parser *p) {
    size_t stack[MAX_BRACKET_DEPTH];
    size_t depth = 0;
    if (!is_opener(peek(p))) return wgsl_fail_expected(p, "'(', '[' or '{'");
    do {
        const wgsl_token *t = peek(p);
        if (t->kind == WGSL_TOKEN_END) {
            const wgsl_token *open = &p->tok[stack[depth - 1]];
            return wgsl_fail(p, open, KILN_ERR_SHADER, "'%c' is never closed", open->punct);
        }
        if (is_opener(t)) {
            if (depth == MAX_BRACKET_DEPTH)
                return wgsl_fail(p, t, KILN_ERR_SHADER, "brackets nest deeper than %d",
                                 MAX_BRACKET_DEPTH);
            stack[depth++] = p->pos;
        } else if (is_closer(t)) {
            const wgsl_token *open = &p->tok[stack[depth - 1]];
            if (closer_of(open->punct) != t->punct)
                return wgsl_fail(p, t, KILN_ERR_SHADER, "'%c' does not close the '%c' opened at %u:%u",
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
            return wgsl_fail(p, t, KILN_ERR_SHADER,
                             "expected ';' to end the '%.*s' that starts at %u:%u, found %s",
                             (int)start->length, token_text(p, start), start->line, start->col,
                             describe(p, t, buf, sizeof buf));
        if (is_opener(t)) {
            if (!wgsl_skip_balanced(p)) return false;
        } else {
            advance(p);
        }
    }
}

/* Moves past one expression: up to a ',' or ')' (or '>') outside brackets, not consuming it. */
bool wgsl_skip_expression(parser *p, bool stop_at_angle) {
    for (;;) {
        const wgsl_token *t = peek(p);
        if (is_punct(t, ',') || is_punct(t, ')') || (stop_at_angle && is_punct(t, '>'))) return true;
        if (t->kind == WGSL_TOKEN_END || is_punct(t, ';') || is_closer(t))
            return wgsl_fail_expected(p, "',' or ')'");
        if (is_opener(t)) {
            if (!wgsl_skip_balanced(p)) return false;
        } else {
            advance(p);
        }
    }
}

/* ---- names -------------------------------------------------------------------------------------- */

static uint32_t hash_name(const char *s, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The declaration named by an identifier token, or -1. */
int wgsl_find_decl(const parser *p, const wgsl_token *t) {
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

const char *wgsl_decl_kind_name(decl_kind kind) {
    switch (kind) {
    case DECL_STRUCT: return "struct";
    case DECL_ALIAS: return "alias";
    case DECL_CONSTANT: return "constant";
    case DECL_VAR: return "var";
    default: return "function";
    }
}

bool wgsl_over_cap(parser *p, const wgsl_token *t, const char *what, int cap, const char *cap_name) {
    return wgsl_fail(p, t, KILN_ERR_CAPACITY, "more than %d %s (%s)", cap, what, cap_name);
}

/* Records a declaration whose name is the token at `name`, refusing a second use of one name. */
static bool add_decl(parser *p, decl_kind kind, size_t attrs_at, size_t keyword, size_t name) {
    const wgsl_token *t = &p->tok[name];
    kiln_wgsl_module *m = p->m;
    char buf[64];
    if (t->kind != WGSL_TOKEN_IDENT) {
        const wgsl_token *k = &p->tok[keyword];
        return wgsl_fail(p, t, KILN_ERR_SHADER, "expected a name after '%.*s', found %s",
                         (int)k->length, token_text(p, k), describe(p, t, buf, sizeof buf));
    }
    int prior = wgsl_find_decl(p, t);
    if (prior >= 0) {
        const wgsl_token *o = &p->tok[p->decls[prior].name];
        return wgsl_fail(p, t, KILN_ERR_SHADER, "'%.*s' is already declared at %u:%u", (int)t->length,
                         token_text(p, t), o->line, o->col);
    }
    uint32_t index;
    char *dst = NULL;
    uint32_t *line = NULL, *col = NULL;
    switch (kind) {
    case DECL_STRUCT:
        if (m->struct_count == KILN_WGSL_MAX_STRUCTS)
            return wgsl_over_cap(p, t, "structs", KILN_WGSL_MAX_STRUCTS, "KILN_WGSL_MAX_STRUCTS");
        index = m->struct_count++;
        p->struct_decl[index] = p->decl_count;
        dst = m->structs[index].name, line = &m->structs[index].line, col = &m->structs[index].col;
        break;
    case DECL_ALIAS:
        if (m->alias_count == KILN_WGSL_MAX_ALIASES)
            return wgsl_over_cap(p, t, "aliases", KILN_WGSL_MAX_ALIASES, "KILN_WGSL_MAX_ALIASES");
        index = m->alias_count++;
        p->alias_decl[index] = p->decl_count;
        dst = m->aliases[index].name, line = &m->aliases[index].line, col = &m->aliases[index].col;
        break;
    case DECL_CONSTANT:
        if (m->constant_count == KILN_WGSL_MAX_CONSTANTS)
            return wgsl_over_cap(p, t, "const and override declarations", KILN_WGSL_MAX_CONSTANTS,
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
            return wgsl_over_cap(p, t, "module-scope vars", KILN_WGSL_MAX_VARS, "KILN_WGSL_MAX_VARS");
        index = m->var_count++;
        p->var_decl[index] = p->decl_count;
        m->vars[index].group = m->vars[index].binding = -1;
        dst = m->vars[index].name, line = &m->vars[index].line, col = &m->vars[index].col;
        break;
    default:
        if (p->function_count == KILN_WGSL_MAX_FUNCTIONS)
            return wgsl_over_cap(p, t, "functions", KILN_WGSL_MAX_FUNCTIONS,
                                 "KILN_WGSL_MAX_FUNCTIONS");
        index = p->function_count++;
        p->functions[index].decl = p->decl_count;
        p->functions[index].entry = -1;
        break;
    }
    if (dst) {
        if (!wgsl_copy_name(p, t, dst)) return false;
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
        if (peek(p)->kind != WGSL_TOKEN_IDENT)
            return wgsl_fail_expected(p, "an attribute name after '@'");
        advance(p);
        if (is_punct(peek(p), '(') && !wgsl_skip_balanced(p)) return false;
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
    if (!is_punct(peek(p), '(')) return wgsl_fail_expected(p, "'(' after the function name");
    if (!wgsl_skip_balanced(p)) return false;
    for (;;) {
        const wgsl_token *t = peek(p);
        if (is_punct(t, '{')) break;
        if (t->kind == WGSL_TOKEN_END || is_punct(t, ';') || is_closer(t)) {
            const wgsl_token *n = &p->tok[name];
            char what[128];
            snprintf(what, sizeof what, "'{' to begin the body of fn '%.*s'", (int)n->length,
                     token_text(p, n));
            return wgsl_fail_expected(p, what);
        }
        if (is_opener(t)) {
            if (!wgsl_skip_balanced(p)) return false;
        } else {
            advance(p);
        }
    }
    d->body_open = p->pos;
    if (!wgsl_skip_balanced(p)) return false;
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
                return wgsl_fail_expected(p, "'>' to close the var's address space");
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
            if (!is_punct(peek(p), '{')) return wgsl_fail_expected(p, "'{' after the struct name");
            if (!wgsl_skip_balanced(p)) return false;
        } else if (text_is(p, k, "const") || text_is(p, k, "override") || text_is(p, k, "alias")) {
            advance(p);
            decl_kind kind = text_is(p, k, "alias") ? DECL_ALIAS : DECL_CONSTANT;
            if (!add_decl(p, kind, attrs_at, keyword, p->pos)) return false;
            advance(p);
            if (!skip_to_semicolon(p, k)) return false;
        } else {
            return wgsl_fail_expected(p, "a declaration (struct, fn, var, const, override or alias)");
        }
    }
}

/* ---- constants ---------------------------------------------------------------------------------- */

/* Integer constant expressions: literals, named integer constants, parentheses, unary minus,
 * i32(...)/u32(...) conversions and + - * / %. Enough for array sizes such as `TILES_X * TILES_Y`;
 * anything else (a float, a call, a shift) is "not evaluable", which is only an error where a value
 * is needed. Advances past what it evaluated. */
static bool eval_sum(parser *p, unsigned depth, int64_t *value);

/* WGSL evaluates these expressions as AbstractInt, a 64-bit integer, and a result outside it is a
 * shader-creation error, not a value: every operation is checked, and the first operator that
 * overflows is kept for the error (wgsl_resolve_constants reports it). */
static bool overflowed(parser *p, const wgsl_token *op) {
    if (!p->overflow) p->overflow = op;
    return false;
}

bool wgsl_fail_overflow(parser *p) {
    return wgsl_fail(p, p->overflow, KILN_ERR_SHADER,
                     "the constant expression overflows at '%.*s': the result leaves the 64-bit integer "
                     "range WGSL evaluates constants in", (int)p->overflow->length, token_text(p, p->overflow));
}

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
        if (*value == INT64_MIN) return overflowed(p, t);
        *value = -*value;
        return true;
    }
    if (is_punct(t, '(')) {
        advance(p);
        if (!eval_sum(p, depth + 1, value) || !is_punct(peek(p), ')')) return false;
        advance(p);
        return true;
    }
    if (t->kind == WGSL_TOKEN_IDENT && (text_is(p, t, "u32") || text_is(p, t, "i32")) &&
        is_punct(peek_ahead(p, 1), '(')) {
        advance(p);
        return eval_factor(p, depth + 1, value);
    }
    if (t->kind == WGSL_TOKEN_IDENT && wgsl_named_value(p, t, depth + 1, value)) {
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
            if (__builtin_mul_overflow(*value, rhs, value)) return overflowed(p, op);
        } else {
            if (rhs == 0) return false;
            if (*value == INT64_MIN && rhs == -1) return overflowed(p, op);
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
        bool over = is_punct(op, '+') ? __builtin_add_overflow(*value, rhs, value)
                                       : __builtin_sub_overflow(*value, rhs, value);
        if (over) return overflowed(p, op);
    }
}

/* The integer value of the constant an identifier names, if it has one. */
bool wgsl_named_value(parser *p, const wgsl_token *t, unsigned depth, int64_t *value) {
    int d = wgsl_find_decl(p, t);
    if (d < 0 || p->decls[d].kind != DECL_CONSTANT) return false;
    return wgsl_constant_value(p, p->decls[d].index, depth, value);
}

/* Evaluates `const name [: type] = <integer constant expression>;`. Anything else has no value,
 * which is only an error where a value is needed. */
bool wgsl_constant_value(parser *p, uint32_t ci, unsigned depth, int64_t *value) {
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
bool wgsl_const_uint(parser *p, const char *what, uint32_t *value) {
    size_t start = p->pos;
    int64_t evaluated;
    if (eval_sum(p, 0, &evaluated)) {
        const wgsl_token *end = peek(p);
        if ((is_punct(end, ',') || is_punct(end, ')') || is_punct(end, '>')) && evaluated >= 0 &&
            evaluated <= UINT32_MAX) {
            *value = (uint32_t)evaluated;
            return true;
        }
    }
    if (p->overflow) return wgsl_fail_overflow(p);
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
        if (!wgsl_named_value(p, t, 0, &v))
            return wgsl_fail(p, t, KILN_ERR_SHADER,
                             "%s '%.*s' is not a constant with an integer literal value", what,
                             (int)t->length, token_text(p, t));
        if (v < 0 || v > UINT32_MAX)
            return wgsl_fail(p, t, KILN_ERR_SHADER, "%s '%.*s' is out of range", what, (int)t->length,
                             token_text(p, t));
        *value = (uint32_t)v;
        advance(p);
        return true;
    }
    if (alone && t->kind == WGSL_TOKEN_NUMBER)
        return wgsl_fail(p, t, KILN_ERR_SHADER, "%s %s is not an integer literal in the u32 range",
                         what, describe(p, t, buf, sizeof buf));
    return wgsl_fail(p, t, KILN_ERR_SHADER,
                     "%s %s is not an integer literal or a named integer constant", what,
                     quote_expression(p, buf, sizeof buf));
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
    if (!scan_declarations(p) || !wgsl_resolve_constants(p) || !wgsl_resolve_types(p)) goto fail;
    for (uint32_t i = 0; i < m->var_count; i++)
        if (!wgsl_resolve_var(p, i)) goto fail;
    if (!wgsl_resolve_functions(p)) goto fail;
    wgsl_analyse_uses(p);
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
