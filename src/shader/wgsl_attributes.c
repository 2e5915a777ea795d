/* WGSL attributes: what the @... in front of a declaration, struct member, parameter or return
 * type say (private to the parser's files, wgsl_parser.h). Attributes the scanner has no use for
 * (@diagnostic, @blend_src, @must_use, ...) are skipped with their arguments. */
#include <stdio.h>
#include <string.h>

#include "wgsl_parser.h"

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

static bool close_arguments(parser *p, const char *attr) {
    char what[64];
    if (is_punct(peek(p), ',')) advance(p);
    snprintf(what, sizeof what, "')' to close @%s", attr);
    return wgsl_expect_punct(p, ')', what);
}

static bool uint_attribute(parser *p, const char *attr, uint32_t *value) {
    char what[64];
    snprintf(what, sizeof what, "'(' after @%s", attr);
    if (!wgsl_expect_punct(p, '(', what)) return false;
    snprintf(what, sizeof what, "@%s argument", attr);
    return wgsl_const_uint(p, what, value) && close_arguments(p, attr);
}

static bool interpolate_attribute(parser *p, kiln_wgsl_io_attrs *io) {
    int v;
    if (!wgsl_expect_punct(p, '(', "'(' after @interpolate")) return false;
    if (!wgsl_table_word(p, INTERPOLATIONS, KILN_ARRAY_COUNT(INTERPOLATIONS), "interpolation type", &v))
        return false;
    io->interpolation = (kiln_wgsl_interpolation)v;
    if (is_punct(peek(p), ',') && !is_punct(peek_ahead(p, 1), ')')) {
        advance(p);
        if (!wgsl_table_word(p, SAMPLINGS, KILN_ARRAY_COUNT(SAMPLINGS), "interpolation sampling", &v))
            return false;
        io->sampling = (kiln_wgsl_sampling)v;
    }
    return close_arguments(p, "interpolate");
}

/* @workgroup_size(x[, y[, z]]): an argument that is not a literal or a constant (an override
 * expression) reads 0 rather than failing, since nothing downstream needs its value. */
static bool workgroup_size_attribute(parser *p, attrs *a) {
    if (!wgsl_expect_punct(p, '(', "'(' after @workgroup_size")) return false;
    a->workgroup_size[0] = a->workgroup_size[1] = a->workgroup_size[2] = 1;
    for (int i = 0; !is_punct(peek(p), ')'); i++) {
        const wgsl_token *t = peek(p), *next = peek_ahead(p, 1);
        int64_t v = 0;
        if (i == 3)
            return wgsl_fail(p, t, KILN_ERR_SHADER, "@workgroup_size takes at most three arguments");
        bool alone = is_punct(next, ',') || is_punct(next, ')');
        if (alone && t->kind == WGSL_TOKEN_INT) v = t->value;
        else if (!(alone && wgsl_named_value(p, t, 0, &v)) || v < 0 || v > UINT32_MAX) v = 0;
        a->workgroup_size[i] = (uint32_t)v;
        if (!wgsl_skip_expression(p, false)) return false;
        if (is_punct(peek(p), ',')) advance(p);
        else if (!is_punct(peek(p), ')'))
            return wgsl_fail_expected(p, "',' or ')' in @workgroup_size");
    }
    advance(p);
    return true;
}

bool wgsl_parse_attributes(parser *p, attrs *a) {
    memset(a, 0, sizeof *a);
    a->io.location = -1;
    while (is_punct(peek(p), '@')) {
        advance(p);
        const wgsl_token *t = peek(p);
        if (t->kind != WGSL_TOKEN_IDENT) return wgsl_fail_expected(p, "an attribute name after '@'");
        advance(p);
        uint32_t v;
        int word;
        if (text_is(p, t, "location")) {
            if (!uint_attribute(p, "location", &v)) return false;
            if (v > INT32_MAX)
                return wgsl_fail(p, t, KILN_ERR_SHADER, "@location(%u) is out of range", v);
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
            if (a->size == 0) return wgsl_fail(p, t, KILN_ERR_SHADER, "@size must be at least 1");
        } else if (text_is(p, t, "align")) {
            if (!uint_attribute(p, "align", &a->align)) return false;
            if (a->align == 0 || (a->align & (a->align - 1)) != 0)
                return wgsl_fail(p, t, KILN_ERR_SHADER, "@align(%u) is not a power of two", a->align);
        } else if (text_is(p, t, "builtin")) {
            if (!wgsl_expect_punct(p, '(', "'(' after @builtin")) return false;
            if (peek(p)->kind != WGSL_TOKEN_IDENT) return wgsl_fail_expected(p, "a builtin name");
            word = wgsl_lookup(p, peek(p), kiln_wgsl_builtins, kiln_wgsl_builtin_count);
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
            if (!wgsl_skip_balanced(p)) return false; /* @diagnostic(...), @blend_src(n), ... */
        }
    }
    return true;
}
