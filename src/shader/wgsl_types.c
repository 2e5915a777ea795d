/* WGSL types and the second pass over module-scope declarations (private to the parser's files,
 * wgsl_parser.h). A type is parsed where it is written, resolved against the declared structs and
 * aliases (lazily, so declaration order does not matter, with cycles caught by each declaration's
 * "resolving" state) and interned into the module's type table, which lays it out (wgsl_layout.c).
 * The second pass then fills in each struct, alias, constant @id and module-scope var. */
#include <stdio.h>
#include <string.h>

#include "wgsl_parser.h"

/* ---- types -------------------------------------------------------------------------------------- */

/* The address spaces and access modes a var, pointer or storage texture names. */
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
        wgsl_fail(p, at, KILN_ERR_SHADER, "type is larger than 4 GiB");
        return 0;
    }
    for (uint32_t i = 1; i < m->type_count; i++)
        if (same_type(&m->types[i], ty)) return i;
    if (m->type_count == KILN_WGSL_MAX_TYPES) {
        wgsl_over_cap(p, at, "distinct types", KILN_WGSL_MAX_TYPES - 1, "KILN_WGSL_MAX_TYPES");
        return 0;
    }
    m->types[m->type_count] = *ty;
    return m->type_count++;
}

static bool open_template(parser *p, const wgsl_token *name) {
    char what[80];
    snprintf(what, sizeof what, "'<' after '%.*s'", (int)name->length, token_text(p, name));
    return wgsl_expect_punct(p, '<', what);
}

static bool close_template(parser *p, const wgsl_token *name) {
    char what[80];
    if (is_punct(peek(p), ',')) advance(p);
    snprintf(what, sizeof what, "'>' to close '%.*s<'", (int)name->length, token_text(p, name));
    return wgsl_expect_punct(p, '>', what);
}

/* A template argument that must be a scalar type among `allowed` (a bit per kiln_wgsl_scalar). */
static bool scalar_argument(parser *p, const wgsl_token *name, unsigned allowed, unsigned depth,
                            kiln_wgsl_scalar *scalar) {
    const wgsl_token *at = peek(p);
    uint32_t e = wgsl_resolve_type(p, depth + 1);
    if (!e) return false;
    const kiln_wgsl_type *t = &p->m->types[e];
    if (t->kind != KILN_WGSL_TYPE_SCALAR || !(allowed & (1u << t->scalar))) {
        char type_name[64];
        return wgsl_fail(p, at, KILN_ERR_SHADER, "'%.*s' cannot hold '%s'", (int)name->length,
                         token_text(p, name),
                         kiln_wgsl_type_name(p->m, e, type_name, sizeof type_name));
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
        if (!*ok) wgsl_fail(p, t, KILN_ERR_SHADER, "unknown type '%.5s'", s);
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
        if (!*ok) wgsl_fail(p, t, KILN_ERR_SHADER, "unknown type '%.7s'", s);
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
    ty->element = wgsl_resolve_type(p, depth + 1);
    if (!ty->element) return false;
    const kiln_wgsl_type *e = &p->m->types[ty->element];
    if (e->runtime_sized)
        return wgsl_fail(p, at, KILN_ERR_SHADER, "an array element cannot be runtime-sized");
    if (e->kind == KILN_WGSL_TYPE_TEXTURE || e->kind == KILN_WGSL_TYPE_SAMPLER ||
        e->kind == KILN_WGSL_TYPE_POINTER)
        return wgsl_fail(p, at, KILN_ERR_SHADER,
                         "an array cannot hold textures, samplers or pointers");
    if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), '>')) {
        advance(p);
        const wgsl_token *count = peek(p);
        if (!wgsl_const_uint(p, "array element count", &ty->count)) return false;
        if (ty->count == 0)
            return wgsl_fail(p, count, KILN_ERR_SHADER, "array element count must be at least 1");
    }
    return close_template(p, t);
}

static bool pointer_type(parser *p, const wgsl_token *t, unsigned depth, kiln_wgsl_type *ty) {
    int v;
    ty->kind = KILN_WGSL_TYPE_POINTER;
    if (!open_template(p, t)) return false;
    if (!wgsl_table_word(p, SPACES, KILN_ARRAY_COUNT(SPACES), "address space", &v)) return false;
    ty->space = (kiln_wgsl_address_space)v;
    if (!wgsl_expect_punct(p, ',', "',' after the pointer's address space")) return false;
    ty->element = wgsl_resolve_type(p, depth + 1);
    if (!ty->element) return false;
    if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), '>')) {
        advance(p);
        if (!wgsl_table_word(p, ACCESSES, KILN_ARRAY_COUNT(ACCESSES), "access mode", &v)) return false;
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
    if ((h = wgsl_lookup(p, t, PLAIN_HANDLES, KILN_ARRAY_COUNT(PLAIN_HANDLES))) >= 0) {
        ty->handle = (kiln_wgsl_handle)h;
        ty->kind = h >= KILN_WGSL_SAMPLER ? KILN_WGSL_TYPE_SAMPLER : KILN_WGSL_TYPE_TEXTURE;
        return true;
    }
    if ((h = wgsl_lookup(p, t, SAMPLED_TEXTURES, KILN_ARRAY_COUNT(SAMPLED_TEXTURES))) >= 0) {
        ty->handle = (kiln_wgsl_handle)h;
        ty->kind = KILN_WGSL_TYPE_TEXTURE;
        *ok = open_template(p, t) && scalar_argument(p, t, SAMPLED_SCALAR, depth, &ty->scalar) &&
              close_template(p, t);
        return true;
    }
    if ((h = wgsl_lookup(p, t, STORAGE_TEXTURES, KILN_ARRAY_COUNT(STORAGE_TEXTURES))) >= 0) {
        int access = 0;
        ty->handle = (kiln_wgsl_handle)h;
        ty->kind = KILN_WGSL_TYPE_TEXTURE;
        *ok = false;
        if (!open_template(p, t)) return true;
        const wgsl_token *format = peek(p);
        if (format->kind != WGSL_TOKEN_IDENT) {
            wgsl_fail_expected(p, "a texel format");
            return true;
        }
        if (format->length >= KILN_WGSL_FORMAT_MAX) {
            wgsl_fail(p, format, KILN_ERR_SHADER, "'%.*s' is not a texel format", KILN_WGSL_FORMAT_MAX,
                      token_text(p, format));
            return true;
        }
        memcpy(ty->texel_format, token_text(p, format), format->length);
        advance(p);
        *ok = wgsl_expect_punct(p, ',', "',' after the texel format") &&
              wgsl_table_word(p, ACCESSES, KILN_ARRAY_COUNT(ACCESSES), "access mode", &access) &&
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
    int s = wgsl_lookup(p, t, SCALARS, KILN_ARRAY_COUNT(SCALARS));
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
    return wgsl_fail(p, t, KILN_ERR_SHADER, "unknown type '%.*s'", (int)t->length, token_text(p, t));
}

static bool resolve_struct(parser *p, uint32_t si, unsigned depth);
static bool resolve_alias(parser *p, uint32_t ai, unsigned depth);

/* Parses a type at the current token and returns its index in the type table; 0 on error. */
uint32_t wgsl_resolve_type(parser *p, unsigned depth) {
    const wgsl_token *t = peek(p);
    if (t->kind != WGSL_TOKEN_IDENT) {
        wgsl_fail_expected(p, "a type");
        return 0;
    }
    if (depth > KILN_WGSL_MAX_NESTING) {
        wgsl_fail(p, t, KILN_ERR_CAPACITY, "types nest deeper than %d levels (KILN_WGSL_MAX_NESTING)",
                  KILN_WGSL_MAX_NESTING);
        return 0;
    }
    advance(p);
    /* Module-scope declarations shadow predeclared names. */
    int d = wgsl_find_decl(p, t);
    if (d >= 0) {
        decl *dd = &p->decls[d];
        if (dd->kind == DECL_STRUCT) {
            if (dd->state == DECL_RESOLVING) {
                wgsl_fail(p, t, KILN_ERR_SHADER, "struct '%.*s' contains itself", (int)t->length,
                          token_text(p, t));
                return 0;
            }
            if (dd->state == DECL_UNRESOLVED && !resolve_struct(p, dd->index, depth + 1)) return 0;
            return p->m->structs[dd->index].type;
        }
        if (dd->kind == DECL_ALIAS) {
            if (dd->state == DECL_RESOLVING) {
                wgsl_fail(p, t, KILN_ERR_SHADER, "alias '%.*s' refers to itself", (int)t->length,
                          token_text(p, t));
                return 0;
            }
            if (dd->state == DECL_UNRESOLVED && !resolve_alias(p, dd->index, depth + 1)) return 0;
            return p->m->aliases[dd->index].type;
        }
        wgsl_fail(p, t, KILN_ERR_SHADER, "'%.*s' is a %s, not a type", (int)t->length,
                  token_text(p, t), wgsl_decl_kind_name(dd->kind));
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
    if (!wgsl_parse_attributes(p, &a)) return false;
    const wgsl_token *name = peek(p);
    if (name->kind != WGSL_TOKEN_IDENT) return wgsl_fail_expected(p, "a member name");
    if (s->member_count == KILN_WGSL_MAX_MEMBERS)
        return wgsl_fail(p, name, KILN_ERR_CAPACITY,
                         "struct '%s' has more than %d members (KILN_WGSL_MAX_MEMBERS)", s->name,
                         KILN_WGSL_MAX_MEMBERS);
    kiln_wgsl_member *mb = &s->members[s->member_count];
    if (!wgsl_copy_name(p, name, mb->name)) return false;
    mb->line = name->line;
    mb->col = name->col;
    mb->size_attr = a.size;
    mb->align_attr = a.align;
    mb->io = a.io;
    advance(p);
    if (!wgsl_expect_punct(p, ':', "':' after the member name")) return false;
    mb->type = wgsl_resolve_type(p, depth + 1);
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
        else if (!is_punct(peek(p), '}'))
            return wgsl_fail_expected(p, "',' or '}' after a struct member");
    }
    if (s->member_count == 0)
        return wgsl_fail(p, &p->tok[d->name], KILN_ERR_SHADER, "struct '%s' has no members", s->name);
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
    if (!wgsl_expect_punct(p, '=', "'=' after the alias name")) return false;
    uint32_t type = wgsl_resolve_type(p, depth + 1);
    if (!type) return false;
    if (!wgsl_expect_punct(p, ';', "';' after the aliased type")) return false;
    p->m->aliases[ai].type = type;
    p->pos = saved;
    d->state = DECL_RESOLVED;
    return true;
}

bool wgsl_resolve_constants(parser *p) {
    for (uint32_t i = 0; i < p->m->constant_count; i++) {
        decl *d = &p->decls[p->constant_decl[i]];
        attrs a;
        int64_t ignored;
        p->pos = d->attrs;
        if (!wgsl_parse_attributes(p, &a)) return false;
        if (a.has_id) p->m->constants[i].override_id = (int32_t)(a.id > INT32_MAX ? INT32_MAX : a.id);
        wgsl_constant_value(p, i, 0, &ignored);
        if (p->overflow) return wgsl_fail_overflow(p);
    }
    return true;
}

bool wgsl_resolve_types(parser *p) {
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
bool wgsl_resolve_var(parser *p, uint32_t vi) {
    decl *d = &p->decls[p->var_decl[vi]];
    kiln_wgsl_var *v = &p->m->vars[vi];
    const wgsl_token *name = &p->tok[d->name];
    attrs a;
    int word;
    p->pos = d->attrs;
    if (!wgsl_parse_attributes(p, &a)) return false;
    advance(p); /* var */
    if (is_punct(peek(p), '<')) {
        advance(p);
        if (!wgsl_table_word(p, SPACES, KILN_ARRAY_COUNT(SPACES), "address space", &word)) return false;
        v->space = (kiln_wgsl_address_space)word;
        if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), '>')) {
            advance(p);
            if (!wgsl_table_word(p, ACCESSES, KILN_ARRAY_COUNT(ACCESSES), "access mode", &word)) return false;
            v->access = (kiln_wgsl_access)word;
        }
        if (is_punct(peek(p), ',')) advance(p);
        if (!wgsl_expect_punct(p, '>', "'>' to close the var's address space")) return false;
    }
    if (p->pos != d->name) return wgsl_fail_expected(p, "the var's name");
    advance(p);
    if (is_punct(peek(p), ':')) {
        advance(p);
        v->type = wgsl_resolve_type(p, 0);
        if (!v->type) return false;
    }
    const kiln_wgsl_type *t = &p->m->types[v->type];
    if (v->space == KILN_WGSL_SPACE_NONE) {
        if (!v->type || !is_handle_type(t))
            return wgsl_fail(p, name, KILN_ERR_SHADER,
                             "var '%s' needs an address space (var<private>, var<uniform>, ...)",
                             v->name);
        v->space = KILN_WGSL_SPACE_HANDLE;
    }
    if (v->space == KILN_WGSL_SPACE_FUNCTION)
        return wgsl_fail(p, name, KILN_ERR_SHADER,
                         "var '%s': a module-scope var cannot be in the function address space",
                         v->name);
    bool resource = v->space == KILN_WGSL_SPACE_HANDLE || v->space == KILN_WGSL_SPACE_UNIFORM ||
                    v->space == KILN_WGSL_SPACE_STORAGE;
    if (resource && !v->type)
        return wgsl_fail(p, name, KILN_ERR_SHADER, "var '%s' needs a type", v->name);
    if (resource && !(a.has_group && a.has_binding))
        return wgsl_fail(p, name, KILN_ERR_SHADER, "var '%s' needs both @group and @binding", v->name);
    if (a.has_group) v->group = (int32_t)(a.group > INT32_MAX ? INT32_MAX : a.group);
    if (a.has_binding) v->binding = (int32_t)(a.binding > INT32_MAX ? INT32_MAX : a.binding);
    if (v->access == KILN_WGSL_ACCESS_NONE && v->space != KILN_WGSL_SPACE_HANDLE)
        v->access = (v->space == KILN_WGSL_SPACE_UNIFORM || v->space == KILN_WGSL_SPACE_STORAGE)
                        ? KILN_WGSL_ACCESS_READ
                        : KILN_WGSL_ACCESS_READ_WRITE;
    d->state = DECL_RESOLVED;
    return true;
}
