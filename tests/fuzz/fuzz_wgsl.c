/* libFuzzer target: the WGSL scanner (kiln_wgsl_reflect) and every query on what it returns.
 *
 * The header promises that any byte string is safe input: the scanner reads nothing past the
 * source, bounds its recursion, and refuses with an error. What it accepts is then walked the way
 * register-time validation walks it: every type's layout in the uniform and storage spaces, its
 * name and components; every entry point's bindings, uniform block sizes, IO lookups; every
 * struct and var found again by name. Indices the module hands out must stay inside its arrays. */
#include <stdint.h>
#include <string.h>

#include <kiln/core/utf8.h>
#include <kiln/shader/wgsl_reflect.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(const kiln_error *err) {
    FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message));
    FUZZ_CHECK(kiln_utf8_check(err->message, strlen(err->message), NULL));
}

static void walk_types(const kiln_wgsl_module *m) {
    FUZZ_CHECK(m->type_count >= 1 && m->type_count <= KILN_WGSL_MAX_TYPES);
    for (uint32_t t = 0; t < m->type_count; t++) {
        const kiln_wgsl_type *type = &m->types[t];
        if (type->kind == KILN_WGSL_TYPE_ARRAY || type->kind == KILN_WGSL_TYPE_POINTER)
            FUZZ_CHECK(type->element < m->type_count);
        if (type->kind == KILN_WGSL_TYPE_STRUCT) FUZZ_CHECK(type->struct_index < m->struct_count);
        char name[128];
        kiln_wgsl_type_name(m, t, name, sizeof name);
        FUZZ_CHECK(memchr(name, '\0', sizeof name));
        kiln_wgsl_scalar scalar;
        uint32_t count;
        if (kiln_wgsl_type_components(m, t, &scalar, &count)) FUZZ_CHECK(count >= 1 && count <= 4);
        kiln_wgsl_layout layout;
        kiln_error err = {0};
        if (!kiln_wgsl_type_layout(m, t, KILN_WGSL_SPACE_UNIFORM, &layout, &err)) check_message(&err);
        if (!kiln_wgsl_type_layout(m, t, KILN_WGSL_SPACE_STORAGE, &layout, &err)) check_message(&err);
    }
    /* An index past the module is "no such type", never a read outside it. */
    char name[32];
    kiln_wgsl_type_name(m, m->type_count, name, sizeof name);
    kiln_wgsl_type_name(m, UINT32_MAX, name, sizeof name);
}

static void walk_io(const kiln_wgsl_module *m, const kiln_wgsl_io *io, uint32_t count) {
    FUZZ_CHECK(count <= KILN_WGSL_MAX_IO);
    for (uint32_t i = 0; i < count; i++) {
        FUZZ_CHECK(io[i].type < m->type_count);
        kiln_wgsl_io_missing_flat(m, &io[i]);
        kiln_wgsl_builtin_name(io[i].attrs.builtin);
    }
}

static void walk_entries(const kiln_wgsl_module *m) {
    FUZZ_CHECK(m->entry_count <= KILN_WGSL_MAX_ENTRIES);
    for (uint32_t e = 0; e < m->entry_count; e++) {
        const kiln_wgsl_entry *entry = &m->entries[e];
        FUZZ_CHECK(kiln_wgsl_find_entry(m, entry->name) != NULL);
        kiln_wgsl_stage_name(entry->stage);
        walk_io(m, entry->inputs, entry->input_count);
        walk_io(m, entry->outputs, entry->output_count);
        for (uint32_t l = 0; l < 4; l++) {
            kiln_wgsl_entry_input_location(entry, l);
            kiln_wgsl_entry_output_location(entry, l);
        }
        kiln_wgsl_entry_input_builtin(entry, KILN_WGSL_BUILTIN_POSITION);
        kiln_wgsl_entry_output_builtin(entry, KILN_WGSL_BUILTIN_FRAG_DEPTH);
        for (uint32_t v = 0; v < m->var_count; v++) {
            const kiln_wgsl_var *var = &m->vars[v];
            kiln_wgsl_entry_uses(m, entry, var);
            if (var->group < 0 || var->binding < 0) continue;
            uint32_t group = (uint32_t)var->group, binding = (uint32_t)var->binding;
            kiln_wgsl_entry_binding(m, entry, group, binding);
            uint32_t block = 0;
            kiln_error err = {0};
            if (!kiln_wgsl_uniform_block_size(m, entry, group, binding, &block, &err)) check_message(&err);
        }
    }
}

static void walk_declarations(const kiln_wgsl_module *m) {
    FUZZ_CHECK(m->struct_count <= KILN_WGSL_MAX_STRUCTS && m->var_count <= KILN_WGSL_MAX_VARS);
    for (uint32_t s = 0; s < m->struct_count; s++) {
        FUZZ_CHECK(m->structs[s].member_count <= KILN_WGSL_MAX_MEMBERS);
        FUZZ_CHECK(m->structs[s].type < m->type_count);
        for (uint32_t i = 0; i < m->structs[s].member_count; i++) FUZZ_CHECK(m->structs[s].members[i].type < m->type_count);
        FUZZ_CHECK(kiln_wgsl_find_struct(m, m->structs[s].name) != NULL);
    }
    for (uint32_t v = 0; v < m->var_count; v++) {
        const kiln_wgsl_var *var = &m->vars[v];
        FUZZ_CHECK(var->type < m->type_count);
        FUZZ_CHECK(kiln_wgsl_find_var(m, var->name) != NULL);
        kiln_wgsl_space_name(var->space);
        if (var->group >= 0 && var->binding >= 0)
            FUZZ_CHECK(kiln_wgsl_find_binding(m, (uint32_t)var->group, (uint32_t)var->binding) != NULL);
    }
    for (uint32_t a = 0; a < m->alias_count; a++) FUZZ_CHECK(m->aliases[a].type < m->type_count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kiln_error err = {0};
    kiln_wgsl_module *m = kiln_wgsl_reflect((const char *)data, size, "fuzz.wgsl", &err);
    if (!m) {
        FUZZ_CHECK(err.message[0] != '\0');
        check_message(&err);
        return 0;
    }
    walk_types(m);
    walk_declarations(m);
    walk_entries(m);
    kiln_wgsl_module_free(m);
    return 0;
}
