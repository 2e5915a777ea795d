/* WGSL entry points and which module-scope vars each one uses (private to the parser's files,
 * wgsl_parser.h). An entry point's inputs and outputs are its parameters and return value, with a
 * struct that carries no @location or @builtin of its own standing for its members. Usage is read
 * from the identifiers in function bodies and closed over calls, so a var a helper touches counts
 * for every entry point that reaches that helper. */
#include <stdio.h>
#include <string.h>

#include "wgsl_parser.h"

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
    if (t->kind == KILN_WGSL_TYPE_STRUCT && io->location < 0 &&
        io->builtin == KILN_WGSL_BUILTIN_NONE) {
        const kiln_wgsl_struct *s = &p->m->structs[t->struct_index];
        for (uint32_t i = 0; i < s->member_count; i++) {
            const kiln_wgsl_member *mb = &s->members[i];
            if (!add_io(p, e, output, mb->name, mb->type, &mb->io, mb->line, mb->col)) return false;
        }
        return true;
    }
    char text[KILN_WGSL_NAME_MAX] = "";
    if (name && !wgsl_copy_name(p, name, text)) return false;
    return add_io(p, e, output, text, type, io, at->line, at->col);
}

/* fn name(params) [-> [attrs] type] {, for a function whose attributes named a stage. */
static bool parse_entry(parser *p, function_info *f, const attrs *fa) {
    kiln_wgsl_module *m = p->m;
    decl *d = &p->decls[f->decl];
    const wgsl_token *name = &p->tok[d->name];
    if (m->entry_count == KILN_WGSL_MAX_ENTRIES)
        return wgsl_over_cap(p, name, "entry points", KILN_WGSL_MAX_ENTRIES, "KILN_WGSL_MAX_ENTRIES");
    kiln_wgsl_entry *e = &m->entries[m->entry_count];
    if (!wgsl_copy_name(p, name, e->name)) return false;
    e->stage = fa->stage;
    memcpy(e->workgroup_size, fa->workgroup_size, sizeof e->workgroup_size);
    e->line = name->line;
    e->col = name->col;
    p->pos = d->name + 1;
    advance(p); /* ( */
    while (!is_punct(peek(p), ')')) {
        attrs a;
        if (!wgsl_parse_attributes(p, &a)) return false;
        const wgsl_token *param = peek(p);
        if (param->kind != WGSL_TOKEN_IDENT) return wgsl_fail_expected(p, "a parameter name");
        advance(p);
        if (!wgsl_expect_punct(p, ':', "':' after the parameter name")) return false;
        uint32_t type = wgsl_resolve_type(p, 0);
        if (!type || !flatten_io(p, e, false, param, param, type, &a.io)) return false;
        if (is_punct(peek(p), ',')) advance(p);
        else if (!is_punct(peek(p), ')')) return wgsl_fail_expected(p, "',' or ')' after a parameter");
    }
    advance(p);
    if (is_punct(peek(p), WGSL_PUNCT_ARROW)) {
        attrs a;
        advance(p);
        if (!wgsl_parse_attributes(p, &a)) return false;
        const wgsl_token *at = peek(p);
        e->return_type = wgsl_resolve_type(p, 0);
        if (!e->return_type || !flatten_io(p, e, true, NULL, at, e->return_type, &a.io)) return false;
    }
    if (p->pos != d->body_open) return wgsl_fail_expected(p, "'{' to begin the entry point's body");
    f->entry = (int32_t)m->entry_count++;
    return true;
}

bool wgsl_resolve_functions(parser *p) {
    for (uint32_t i = 0; i < p->function_count; i++) {
        function_info *f = &p->functions[i];
        attrs a;
        p->pos = p->decls[f->decl].attrs;
        if (!wgsl_parse_attributes(p, &a)) return false;
        if (a.stage != KILN_WGSL_STAGE_NONE && !parse_entry(p, f, &a)) return false;
    }
    return true;
}

/* Which vars each function names and which functions it calls, then the closure over calls. An
 * identifier right after '.' is a member or swizzle, never a module-scope name. */
void wgsl_analyse_uses(parser *p) {
    for (uint32_t i = 0; i < p->function_count; i++) {
        function_info *f = &p->functions[i];
        const decl *d = &p->decls[f->decl];
        for (size_t k = d->body_open + 1; k < d->body_close; k++) {
            const wgsl_token *t = &p->tok[k];
            if (t->kind != WGSL_TOKEN_IDENT || is_punct(&p->tok[k - 1], '.')) continue;
            int n = wgsl_find_decl(p, t);
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
