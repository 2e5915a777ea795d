/* The WGSL scanner's queries over a scanned module: lookups of entry points, bindings, structs and
 * variables, entry-point IO, uniform block sizes, and the names used in messages. The module
 * itself is built by wgsl_reflect.c, wgsl_attributes.c, wgsl_types.c and wgsl_entries.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl_internal.h"

/* ---- queries ------------------------------------------------------------------------------------ */

const kiln_wgsl_entry *kiln_wgsl_find_entry(const kiln_wgsl_module *m, const char *name) {
    if (!m || !name) return NULL;
    for (uint32_t i = 0; i < m->entry_count; i++)
        if (strcmp(m->entries[i].name, name) == 0) return &m->entries[i];
    return NULL;
}

const kiln_wgsl_var *kiln_wgsl_find_binding(const kiln_wgsl_module *m, uint32_t group,
                                            uint32_t binding) {
    if (!m) return NULL;
    for (uint32_t i = 0; i < m->var_count; i++)
        if (m->vars[i].group == (int64_t)group && m->vars[i].binding == (int64_t)binding)
            return &m->vars[i];
    return NULL;
}

const kiln_wgsl_var *kiln_wgsl_entry_binding(const kiln_wgsl_module *m, const kiln_wgsl_entry *entry,
                                             uint32_t group, uint32_t binding) {
    if (!m || !entry) return NULL;
    for (uint32_t i = 0; i < m->var_count; i++)
        if (m->vars[i].group == (int64_t)group && m->vars[i].binding == (int64_t)binding &&
            (entry->var_uses & (1ull << i)))
            return &m->vars[i];
    return NULL;
}

const kiln_wgsl_struct *kiln_wgsl_find_struct(const kiln_wgsl_module *m, const char *name) {
    if (!m || !name) return NULL;
    for (uint32_t i = 0; i < m->struct_count; i++)
        if (strcmp(m->structs[i].name, name) == 0) return &m->structs[i];
    return NULL;
}

const kiln_wgsl_var *kiln_wgsl_find_var(const kiln_wgsl_module *m, const char *name) {
    if (!m || !name) return NULL;
    for (uint32_t i = 0; i < m->var_count; i++)
        if (strcmp(m->vars[i].name, name) == 0) return &m->vars[i];
    return NULL;
}

bool kiln_wgsl_entry_uses(const kiln_wgsl_module *m, const kiln_wgsl_entry *entry,
                          const kiln_wgsl_var *var) {
    if (!m || !entry || !var) return false;
    /* Addresses as integers: `var` may point anywhere, and C only orders pointers into one array. */
    uintptr_t first = (uintptr_t)m->vars, at = (uintptr_t)var;
    if (at < first || at >= first + m->var_count * sizeof *var) return false;
    return (entry->var_uses >> ((at - first) / sizeof *var)) & 1u;
}

static const kiln_wgsl_io *find_io(const kiln_wgsl_io *list, uint32_t count, int32_t location,
                                   kiln_wgsl_builtin builtin) {
    for (uint32_t i = 0; i < count; i++) {
        if (location >= 0 && list[i].attrs.location == location) return &list[i];
        if (builtin != KILN_WGSL_BUILTIN_NONE && list[i].attrs.builtin == builtin) return &list[i];
    }
    return NULL;
}

const kiln_wgsl_io *kiln_wgsl_entry_input_location(const kiln_wgsl_entry *entry, uint32_t location) {
    if (!entry || location > INT32_MAX) return NULL;
    return find_io(entry->inputs, entry->input_count, (int32_t)location, KILN_WGSL_BUILTIN_NONE);
}

const kiln_wgsl_io *kiln_wgsl_entry_output_location(const kiln_wgsl_entry *entry, uint32_t location) {
    if (!entry || location > INT32_MAX) return NULL;
    return find_io(entry->outputs, entry->output_count, (int32_t)location, KILN_WGSL_BUILTIN_NONE);
}

const kiln_wgsl_io *kiln_wgsl_entry_input_builtin(const kiln_wgsl_entry *entry, kiln_wgsl_builtin b) {
    return entry ? find_io(entry->inputs, entry->input_count, -1, b) : NULL;
}

const kiln_wgsl_io *kiln_wgsl_entry_output_builtin(const kiln_wgsl_entry *entry, kiln_wgsl_builtin b) {
    return entry ? find_io(entry->outputs, entry->output_count, -1, b) : NULL;
}

bool kiln_wgsl_uniform_block_size(const kiln_wgsl_module *m, const kiln_wgsl_entry *entry,
                                  uint32_t group, uint32_t binding, uint32_t *size, kiln_error *err) {
    if (size) *size = 0;
    if (!m || !entry || !size)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "wgsl uniform block: missing argument");
    const kiln_wgsl_var *v = kiln_wgsl_entry_binding(m, entry, group, binding);
    if (!v)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "%s: entry point '%s' uses no var at @group(%u) @binding(%u)",
                              m->source_name, entry->name, group, binding);
    if (v->space != KILN_WGSL_SPACE_UNIFORM)
        return kiln_wgsl_fail_at(err, KILN_ERR_SHADER, m->source_name, v->line, v->col,
                                 "var '%s' at @group(%u) @binding(%u) is in the %s address space, "
                                 "not uniform", v->name, group, binding,
                                 kiln_wgsl_space_name(v->space));
    kiln_wgsl_layout layout;
    if (!kiln_wgsl_type_layout(m, v->type, KILN_WGSL_SPACE_UNIFORM, &layout, err)) return false;
    *size = layout.size;
    return true;
}

bool kiln_wgsl_type_components(const kiln_wgsl_module *m, uint32_t type, kiln_wgsl_scalar *scalar,
                               uint32_t *count) {
    if (!m || type == 0 || type >= m->type_count) return false;
    const kiln_wgsl_type *t = &m->types[type];
    if (t->kind != KILN_WGSL_TYPE_SCALAR && t->kind != KILN_WGSL_TYPE_VECTOR) return false;
    if (t->scalar == KILN_WGSL_SCALAR_BOOL || t->scalar == KILN_WGSL_SCALAR_NONE) return false;
    if (scalar) *scalar = t->scalar;
    if (count) *count = t->components;
    return true;
}

bool kiln_wgsl_io_missing_flat(const kiln_wgsl_module *m, const kiln_wgsl_io *io) {
    kiln_wgsl_scalar scalar;
    if (!io || io->attrs.location < 0 || !kiln_wgsl_type_components(m, io->type, &scalar, NULL))
        return false;
    bool integer = scalar == KILN_WGSL_SCALAR_I32 || scalar == KILN_WGSL_SCALAR_U32;
    return integer && io->attrs.interpolation != KILN_WGSL_INTERPOLATE_FLAT;
}

/* ---- names -------------------------------------------------------------------------------------- */

static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t size, size_t *len, const char *fmt, ...) {
    if (*len >= size) return;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, args);
    va_end(args);
    if (n > 0) *len = (size_t)n >= size - *len ? size : *len + (size_t)n;
}

static const char *access_name(kiln_wgsl_access access) {
    switch (access) {
    case KILN_WGSL_ACCESS_READ: return "read";
    case KILN_WGSL_ACCESS_WRITE: return "write";
    case KILN_WGSL_ACCESS_READ_WRITE: return "read_write";
    default: return "";
    }
}

static void write_type_name(const kiln_wgsl_module *m, uint32_t type, char *buf, size_t size,
                            size_t *len, unsigned depth) {
    if (type == 0 || type >= m->type_count || depth > KILN_WGSL_MAX_NESTING + 1) {
        append(buf, size, len, "?");
        return;
    }
    const kiln_wgsl_type *t = &m->types[type];
    const char *scalar = kiln_wgsl_scalar_name(t->scalar);
    switch (t->kind) {
    case KILN_WGSL_TYPE_SCALAR: append(buf, size, len, "%s", scalar); break;
    case KILN_WGSL_TYPE_VECTOR: append(buf, size, len, "vec%u<%s>", t->components, scalar); break;
    case KILN_WGSL_TYPE_MATRIX:
        append(buf, size, len, "mat%ux%u<%s>", t->columns, t->components, scalar);
        break;
    case KILN_WGSL_TYPE_ATOMIC: append(buf, size, len, "atomic<%s>", scalar); break;
    case KILN_WGSL_TYPE_STRUCT:
        append(buf, size, len, "%s",
               t->struct_index < m->struct_count ? m->structs[t->struct_index].name : "?");
        break;
    case KILN_WGSL_TYPE_ARRAY:
        append(buf, size, len, "array<");
        write_type_name(m, t->element, buf, size, len, depth + 1);
        if (t->count) append(buf, size, len, ", %u", t->count);
        append(buf, size, len, ">");
        break;
    case KILN_WGSL_TYPE_POINTER:
        append(buf, size, len, "ptr<%s, ", kiln_wgsl_space_name(t->space));
        write_type_name(m, t->element, buf, size, len, depth + 1);
        if (t->access) append(buf, size, len, ", %s", access_name(t->access));
        append(buf, size, len, ">");
        break;
    case KILN_WGSL_TYPE_TEXTURE:
    case KILN_WGSL_TYPE_SAMPLER:
        append(buf, size, len, "%s", kiln_wgsl_handle_name(t->handle));
        if (t->handle >= KILN_WGSL_TEXTURE_STORAGE_1D && t->handle <= KILN_WGSL_TEXTURE_STORAGE_3D)
            append(buf, size, len, "<%s, %s>", t->texel_format, access_name(t->access));
        else if (t->scalar != KILN_WGSL_SCALAR_NONE)
            append(buf, size, len, "<%s>", scalar);
        break;
    default: append(buf, size, len, "?"); break;
    }
}

const char *kiln_wgsl_type_name(const kiln_wgsl_module *m, uint32_t type, char *buf, size_t size) {
    size_t len = 0;
    if (!buf || size == 0) return "";
    buf[0] = '\0';
    if (!m) return buf;
    write_type_name(m, type, buf, size, &len, 0);
    return buf;
}

const char *kiln_wgsl_scalar_name(kiln_wgsl_scalar scalar) {
    switch (scalar) {
    case KILN_WGSL_SCALAR_BOOL: return "bool";
    case KILN_WGSL_SCALAR_F32: return "f32";
    case KILN_WGSL_SCALAR_F16: return "f16";
    case KILN_WGSL_SCALAR_I32: return "i32";
    case KILN_WGSL_SCALAR_U32: return "u32";
    default: return "none";
    }
}

const char *kiln_wgsl_handle_name(kiln_wgsl_handle handle) {
    static const char *const NAMES[] = {
        [KILN_WGSL_TEXTURE_1D] = "texture_1d",
        [KILN_WGSL_TEXTURE_2D] = "texture_2d",
        [KILN_WGSL_TEXTURE_2D_ARRAY] = "texture_2d_array",
        [KILN_WGSL_TEXTURE_3D] = "texture_3d",
        [KILN_WGSL_TEXTURE_CUBE] = "texture_cube",
        [KILN_WGSL_TEXTURE_CUBE_ARRAY] = "texture_cube_array",
        [KILN_WGSL_TEXTURE_MULTISAMPLED_2D] = "texture_multisampled_2d",
        [KILN_WGSL_TEXTURE_DEPTH_2D] = "texture_depth_2d",
        [KILN_WGSL_TEXTURE_DEPTH_2D_ARRAY] = "texture_depth_2d_array",
        [KILN_WGSL_TEXTURE_DEPTH_CUBE] = "texture_depth_cube",
        [KILN_WGSL_TEXTURE_DEPTH_CUBE_ARRAY] = "texture_depth_cube_array",
        [KILN_WGSL_TEXTURE_DEPTH_MULTISAMPLED_2D] = "texture_depth_multisampled_2d",
        [KILN_WGSL_TEXTURE_STORAGE_1D] = "texture_storage_1d",
        [KILN_WGSL_TEXTURE_STORAGE_2D] = "texture_storage_2d",
        [KILN_WGSL_TEXTURE_STORAGE_2D_ARRAY] = "texture_storage_2d_array",
        [KILN_WGSL_TEXTURE_STORAGE_3D] = "texture_storage_3d",
        [KILN_WGSL_TEXTURE_EXTERNAL] = "texture_external",
        [KILN_WGSL_SAMPLER] = "sampler",
        [KILN_WGSL_SAMPLER_COMPARISON] = "sampler_comparison",
    };
    if ((unsigned)handle >= KILN_ARRAY_COUNT(NAMES) || !NAMES[handle]) return "none";
    return NAMES[handle];
}

const char *kiln_wgsl_stage_name(kiln_wgsl_stage stage) {
    switch (stage) {
    case KILN_WGSL_STAGE_VERTEX: return "vertex";
    case KILN_WGSL_STAGE_FRAGMENT: return "fragment";
    case KILN_WGSL_STAGE_COMPUTE: return "compute";
    default: return "none";
    }
}

const char *kiln_wgsl_builtin_name(kiln_wgsl_builtin builtin) {
    for (size_t i = 0; i < kiln_wgsl_builtin_count; i++)
        if (kiln_wgsl_builtins[i].value == (int)builtin) return kiln_wgsl_builtins[i].name;
    return builtin == KILN_WGSL_BUILTIN_OTHER ? "other" : "none";
}

const char *kiln_wgsl_space_name(kiln_wgsl_address_space space) {
    switch (space) {
    case KILN_WGSL_SPACE_HANDLE: return "handle";
    case KILN_WGSL_SPACE_FUNCTION: return "function";
    case KILN_WGSL_SPACE_PRIVATE: return "private";
    case KILN_WGSL_SPACE_WORKGROUP: return "workgroup";
    case KILN_WGSL_SPACE_UNIFORM: return "uniform";
    case KILN_WGSL_SPACE_STORAGE: return "storage";
    default: return "none";
    }
}
