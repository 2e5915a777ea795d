/* WGSL memory layout: AlignOf, SizeOf and array strides of host-shareable types, struct member
 * offsets, and the extra rules the uniform and storage address spaces put on them.
 *
 * WGSL lays a type out the same way in every address space. The uniform space does not pad
 * differently (as std140 would); it refuses layouts it cannot read instead: an array stride that is
 * not a multiple of 16, a struct or array member not 16-aligned, a member right after a struct
 * member closer than roundUp(16, that struct's size). So for a module Dawn accepts, the layout
 * here is the one the GPU reads, and SizeOf is the binding's minimum size. */
#include <stdio.h>

#include "wgsl_internal.h"

#define FOUR_GIB ((uint64_t)UINT32_MAX)

static uint64_t round_up(uint64_t align, uint64_t n) {
    return align ? (n + align - 1) / align * align : n;
}

static uint32_t scalar_bytes(kiln_wgsl_scalar s) {
    switch (s) {
    case KILN_WGSL_SCALAR_F16: return 2;
    case KILN_WGSL_SCALAR_F32:
    case KILN_WGSL_SCALAR_I32:
    case KILN_WGSL_SCALAR_U32: return 4;
    default: return 0; /* bool and none: not host-shareable */
    }
}

/* A vecN of b-byte components: vec3 aligns like vec4. */
static void vector_layout(uint32_t n, uint32_t b, uint32_t *size, uint32_t *align) {
    *size = n * b;
    *align = (n == 3 ? 4 : n) * b;
}

bool kiln_wgsl_layout_type(const kiln_wgsl_module *m, kiln_wgsl_type *t) {
    t->host_shareable = false;
    t->runtime_sized = false;
    t->size = t->align = t->stride = 0;
    uint32_t b = scalar_bytes(t->scalar);
    switch (t->kind) {
    case KILN_WGSL_TYPE_SCALAR:
        if (!b) return true;
        t->size = t->align = b;
        break;
    case KILN_WGSL_TYPE_ATOMIC:
        t->size = t->align = 4;
        break;
    case KILN_WGSL_TYPE_VECTOR:
        if (!b) return true;
        vector_layout(t->components, b, &t->size, &t->align);
        break;
    case KILN_WGSL_TYPE_MATRIX: {
        /* matCxR is C columns of vecR, each at the vecR's alignment. */
        uint32_t column_size, column_align;
        if (!b) return true;
        vector_layout(t->components, b, &column_size, &column_align);
        t->stride = (uint32_t)round_up(column_align, column_size);
        t->size = t->columns * t->stride;
        t->align = column_align;
        break;
    }
    case KILN_WGSL_TYPE_ARRAY: {
        const kiln_wgsl_type *e = &m->types[t->element];
        if (!e->host_shareable || e->runtime_sized) return true;
        uint64_t stride = round_up(e->align, e->size);
        uint64_t size = stride * t->count;
        if (stride > FOUR_GIB || size > FOUR_GIB) return false;
        t->stride = (uint32_t)stride;
        t->size = (uint32_t)size;
        t->align = e->align;
        t->runtime_sized = t->count == 0;
        break;
    }
    default:
        return true; /* structs are laid out by kiln_wgsl_layout_struct; handles have no layout */
    }
    t->host_shareable = true;
    return true;
}

static bool member_fail(const kiln_wgsl_module *m, const kiln_wgsl_struct *s,
                        const kiln_wgsl_member *mb, kiln_error *err, const char *why) {
    return kiln_wgsl_fail_at(err, KILN_ERR_SHADER, m->source_name, mb->line, mb->col,
                             "struct '%s' member '%s': %s", s->name, mb->name, why);
}

bool kiln_wgsl_layout_struct(const kiln_wgsl_module *m, kiln_wgsl_struct *s, kiln_wgsl_type *t,
                             kiln_error *err) {
    uint64_t offset = 0, align = 1;
    bool shareable = true;
    for (uint32_t i = 0; i < s->member_count; i++) {
        const kiln_wgsl_type *mt = &m->types[s->members[i].type];
        if (!mt->host_shareable) shareable = false;
    }
    t->host_shareable = false;
    t->runtime_sized = false;
    t->size = t->align = t->stride = 0;
    if (!shareable) return true; /* a struct holding a bool is fine in private memory */

    for (uint32_t i = 0; i < s->member_count; i++) {
        kiln_wgsl_member *mb = &s->members[i];
        const kiln_wgsl_type *mt = &m->types[mb->type];
        char why[160];
        if (mt->runtime_sized && i + 1 < s->member_count)
            return member_fail(m, s, mb, err, "a runtime-sized array must be the last member");
        if (mb->size_attr && mb->size_attr < mt->size) {
            snprintf(why, sizeof why, "@size(%u) is smaller than its type's size %u", mb->size_attr,
                     mt->size);
            return member_fail(m, s, mb, err, why);
        }
        uint64_t member_align = mb->align_attr ? mb->align_attr : mt->align;
        uint64_t member_size = mb->size_attr ? mb->size_attr : mt->size;
        offset = round_up(member_align, offset);
        if (offset + member_size > FOUR_GIB)
            return member_fail(m, s, mb, err, "the struct is larger than 4 GiB");
        mb->offset = (uint32_t)offset;
        mb->size = (uint32_t)member_size;
        mb->align = (uint32_t)member_align;
        offset += member_size;
        if (member_align > align) align = member_align;
        if (mt->runtime_sized) t->runtime_sized = true;
    }
    uint64_t size = round_up(align, offset);
    if (size > FOUR_GIB)
        return member_fail(m, s, &s->members[s->member_count - 1], err,
                           "the struct is larger than 4 GiB");
    t->host_shareable = true;
    t->size = (uint32_t)size;
    t->align = (uint32_t)align;
    return true;
}

/* RequiredAlignOf(T, space): the uniform space wants structs and arrays on 16-byte boundaries. */
static uint32_t required_align(const kiln_wgsl_type *t, kiln_wgsl_address_space space) {
    bool aggregate = t->kind == KILN_WGSL_TYPE_STRUCT || t->kind == KILN_WGSL_TYPE_ARRAY;
    if (space == KILN_WGSL_SPACE_UNIFORM && aggregate) return (uint32_t)round_up(16, t->align);
    return t->align;
}

static bool check_space(const kiln_wgsl_module *m, uint32_t type, kiln_wgsl_address_space space,
                        unsigned depth, kiln_error *err);

static bool check_struct(const kiln_wgsl_module *m, const kiln_wgsl_struct *s,
                         kiln_wgsl_address_space space, unsigned depth, kiln_error *err) {
    const char *sp = kiln_wgsl_space_name(space);
    for (uint32_t i = 0; i < s->member_count; i++) {
        const kiln_wgsl_member *mb = &s->members[i];
        const kiln_wgsl_type *mt = &m->types[mb->type];
        char why[200], name[96];
        uint32_t need = required_align(mt, space);
        if (need && mb->offset % need != 0) {
            snprintf(why, sizeof why,
                     "offset %u is not a multiple of %u, the alignment %s needs in the %s address "
                     "space (add @align(%u))",
                     mb->offset, need, kiln_wgsl_type_name(m, mb->type, name, sizeof name), sp, need);
            return member_fail(m, s, mb, err, why);
        }
        if (space == KILN_WGSL_SPACE_UNIFORM && i > 0) {
            const kiln_wgsl_member *prev = &s->members[i - 1];
            const kiln_wgsl_type *pt = &m->types[prev->type];
            uint64_t gap = round_up(16, pt->size);
            if (pt->kind == KILN_WGSL_TYPE_STRUCT && (uint64_t)mb->offset - prev->offset < gap) {
                snprintf(why, sizeof why,
                         "it follows struct member '%s' by %u bytes; the uniform address space "
                         "needs %u (roundUp(16, SizeOf))",
                         prev->name, mb->offset - prev->offset, (uint32_t)gap);
                return member_fail(m, s, mb, err, why);
            }
        }
        if (!check_space(m, mb->type, space, depth + 1, err)) return false;
    }
    return true;
}

/* Checks the rules `space` adds to a type, recursively; depth is bounded by how types were built,
 * and checked again so a corrupted table cannot recurse without end. */
static bool check_space(const kiln_wgsl_module *m, uint32_t type, kiln_wgsl_address_space space,
                        unsigned depth, kiln_error *err) {
    const kiln_wgsl_type *t = &m->types[type];
    const char *sp = kiln_wgsl_space_name(space);
    char name[96];
    kiln_wgsl_type_name(m, type, name, sizeof name);
    if (depth > 2 * KILN_WGSL_MAX_NESTING + 2)
        return kiln_error_set(err, KILN_ERR_SHADER, "%s: type '%s' nests too deeply", m->source_name,
                              name);
    if (!t->host_shareable)
        return kiln_error_set(err, KILN_ERR_SHADER,
                              "%s: type '%s' is not host-shareable, so it cannot be in the %s "
                              "address space", m->source_name, name, sp);
    if (space == KILN_WGSL_SPACE_UNIFORM) {
        if (t->runtime_sized)
            return kiln_error_set(err, KILN_ERR_SHADER,
                                  "%s: type '%s' is runtime-sized, which the uniform address space "
                                  "does not allow", m->source_name, name);
        if (t->kind == KILN_WGSL_TYPE_ATOMIC)
            return kiln_error_set(err, KILN_ERR_SHADER,
                                  "%s: atomics are not allowed in the uniform address space",
                                  m->source_name);
        if (t->kind == KILN_WGSL_TYPE_ARRAY && t->stride % 16 != 0)
            return kiln_error_set(err, KILN_ERR_SHADER,
                                  "%s: type '%s' has element stride %u, which is not a multiple of "
                                  "16 as the uniform address space requires (use vec4 elements or "
                                  "a struct element with @size(16))",
                                  m->source_name, name, t->stride);
    }
    if (t->kind == KILN_WGSL_TYPE_ARRAY) return check_space(m, t->element, space, depth + 1, err);
    if (t->kind == KILN_WGSL_TYPE_STRUCT && t->struct_index < m->struct_count)
        return check_struct(m, &m->structs[t->struct_index], space, depth, err);
    return true;
}

bool kiln_wgsl_type_layout(const kiln_wgsl_module *m, uint32_t type, kiln_wgsl_address_space space,
                           kiln_wgsl_layout *out, kiln_error *err) {
    if (!m || !out || type == 0 || type >= m->type_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "wgsl layout: no such type (%u)", type);
    if (space != KILN_WGSL_SPACE_UNIFORM && space != KILN_WGSL_SPACE_STORAGE)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "wgsl layout: the %s address space has no host-shareable layout",
                              kiln_wgsl_space_name(space));
    if (!check_space(m, type, space, 0, err)) return false;
    const kiln_wgsl_type *t = &m->types[type];
    out->size = t->size;
    out->align = required_align(t, space);
    out->stride = t->kind == KILN_WGSL_TYPE_ARRAY ? t->stride : 0;
    return true;
}
