/* Register-time validation of an authored program: the declared pass graph on its own, then the
 * graph against the shader's declarations as the WGSL scanner read them.
 *
 * Each failure class of program.h is one check function, and the checks run in the enum's order,
 * each over the whole program, so the class a program reports does not depend on which pass holds
 * the fault: the earliest class wins, and within a class the first pass (or slot) in list order.
 * Every later check may rely on what earlier ones established: after unsupported_stage every enum
 * value is in range and every list pointer is readable, after bad_output and bad_input every index
 * names a declared slot, and after missing_entry_point every pass has its @fragment entry. */
#include "program_validate.h"
#include <kiln/core/utf8.h>

#include "program_forms.h"
#include "program_layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct check_ctx {
    const kiln_program_desc *desc;
    const kiln_wgsl_module *module;
    kiln_program_caps caps;
    kiln_program_error *err;
} check_ctx;

static bool fail(const check_ctx *c, kiln_program_class cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(const check_ctx *c, kiln_program_class cls, const char *fmt, ...) {
    if (c->err) {
        c->err->cls = cls;
        va_list args;
        va_start(args, fmt);
        kiln_utf8_vformat(c->err->message, sizeof c->err->message, fmt, args);
        va_end(args);
    }
    return false;
}

static const char *plural(uint32_t n) { return n == 1 ? "" : "s"; }

/* Until bad_input refuses an over-long list, checks before it read only the inputs that fit. */
static uint32_t input_count(const kiln_pass_spec *p) {
    return p->input_count < KILN_PROGRAM_MAX_INPUTS ? p->input_count : KILN_PROGRAM_MAX_INPUTS;
}

/* A pass that rasterises through an authored vertex stage: a draw, indirect or draw-sets pass. */
static bool is_draw(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_DRAW || p->stage == KILN_STAGE_DRAW_INDEXED_INDIRECT ||
           p->stage == KILN_STAGE_DRAW_SETS;
}

/* A draw or indirect pass: one geometry slot, declared in kiln_draw_spec. */
static bool draws_geometry(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_DRAW || p->stage == KILN_STAGE_DRAW_INDEXED_INDIRECT;
}

static bool is_compute(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_COMPUTE;
}

static bool is_sets(const kiln_pass_spec *p) {
    return p->stage == KILN_STAGE_DRAW_SETS;
}

/* The two draw stages declare their depth, load and vertex entry point in their own structs. */
static bool names_depth(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.depth : is_draw(p) && p->draw.depth;
}

static uint32_t depth_slot_of(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.depth_slot : p->draw.depth_slot;
}

static kiln_pass_load load_of(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.load : p->draw.load;
}

static const char *vertex_entry_name(const kiln_pass_spec *p) {
    return is_sets(p) ? p->draw_sets.vertex_entry_point : p->draw.vertex_entry_point;
}

/* A draw pass with no colour output: it attaches its depth slot alone. */
static bool is_depth_only(const kiln_pass_spec *p) {
    return is_draw(p) && p->output.kind == KILN_OUTPUT_NONE;
}

/* The depth slot a pass attaches, or NULL. Indices must be in range (bad_depth). */
static const kiln_depth_spec *attached_depth(const kiln_program_desc *d, const kiln_pass_spec *p) {
    return names_depth(p) ? &d->depth_transients[depth_slot_of(p)] : NULL;
}

/* ---- slots: what a pass writes and what an input reads --------------------------------------- */

/* Reads and writes are compared as the output slot names them (a binding index or a transient
 * index), so an input resolves to the same form: a PassOutput becomes whatever that pass writes
 * (None when it writes nothing). Indices must already be in range (bad_input). */
static kiln_output_slot input_slot(const kiln_program_desc *d, const kiln_input_slot *in) {
    kiln_output_slot slot = {KILN_OUTPUT_NONE, 0};
    switch (in->kind) {
    case KILN_INPUT_BINDING: slot = (kiln_output_slot){KILN_OUTPUT_BINDING, in->index}; break;
    case KILN_INPUT_TRANSIENT: slot = (kiln_output_slot){KILN_OUTPUT_TRANSIENT, in->index}; break;
    case KILN_INPUT_PASS_OUTPUT: slot = d->passes[in->index].output; break;
    case KILN_INPUT_DEPTH: break; /* a depth slot is no colour slot (refused before this runs) */
    }
    return slot;
}

static bool same_slot(kiln_output_slot a, kiln_output_slot b) {
    return a.kind != KILN_OUTPUT_NONE && a.kind == b.kind && a.index == b.index;
}

static const char *slot_name(kiln_output_slot slot, char *buf, size_t size) {
    switch (slot.kind) {
    case KILN_OUTPUT_BINDING: snprintf(buf, size, "binding %u", slot.index); break;
    case KILN_OUTPUT_TRANSIENT: snprintf(buf, size, "transient %u", slot.index); break;
    case KILN_OUTPUT_NONE: snprintf(buf, size, "no slot"); break;
    }
    return buf;
}

static kiln_texture_format slot_format(const kiln_program_desc *d, kiln_output_slot slot) {
    return slot.kind == KILN_OUTPUT_BINDING ? d->bindings[slot.index].format : d->transients[slot.index].format;
}

/* A transient is read as Filtered { Clamp, Base }: only a Texel binding goes without a sampler. */
static bool slot_is_texel(const kiln_program_desc *d, kiln_output_slot slot) {
    return slot.kind == KILN_OUTPUT_BINDING && d->bindings[slot.index].sampling.texel;
}

/* The texture type the shader must declare for a slot; every slot but an array or volume binding
 * (a Target or Texture binding, a transient) reads as texture_2d. */
static kiln_wgsl_handle slot_texture(const kiln_program_desc *d, kiln_output_slot slot) {
    if (slot.kind != KILN_OUTPUT_BINDING) return KILN_WGSL_TEXTURE_2D;
    switch (d->bindings[slot.index].shape.kind) {
    case KILN_SHAPE_TEXTURE_ARRAY: return KILN_WGSL_TEXTURE_2D_ARRAY;
    case KILN_SHAPE_TEXTURE_VOLUME: return KILN_WGSL_TEXTURE_3D;
    case KILN_SHAPE_TARGET:
    case KILN_SHAPE_TEXTURE: break;
    }
    return KILN_WGSL_TEXTURE_2D;
}

/* "binding 2, a TextureArray slot" (what decides the texture type), "binding 2, a Texel slot"
 * (what decides the sampler), "transient 0", "the output of pass 1, transient 0". */
static const char *describe_input(const kiln_program_desc *d, const kiln_input_slot *in, bool sampling,
                                  char *buf, size_t size) {
    char slot[48];
    kiln_output_slot s = input_slot(d, in);
    if (in->kind == KILN_INPUT_DEPTH) {
        snprintf(buf, size, "depth slot %u, read %s", in->index, program_form_name(&PROGRAM_DEPTH_READS, in->depth_read));
    } else if (in->kind == KILN_INPUT_PASS_OUTPUT) {
        snprintf(buf, size, "the output of pass %u, %s", in->index, slot_name(s, slot, sizeof slot));
    } else if (s.kind == KILN_OUTPUT_BINDING) {
        const kiln_slot_spec *b = &d->bindings[s.index];
        snprintf(buf, size, "binding %u, a %s slot", s.index,
                 sampling ? program_form_name(&PROGRAM_SAMPLINGS, b->sampling.texel)
                          : program_form_name(&PROGRAM_SHAPES, b->shape.kind));
    } else {
        slot_name(s, buf, size);
    }
    return buf;
}

/* ---- the graph on its own --------------------------------------------------------------------- */

static bool check_supported(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (!program_form_valid(&PROGRAM_STAGES, p->stage))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: stage %d is not a %s", i, (int)p->stage,
                        PROGRAM_STAGES.c_type);
        if (is_draw(p) && !program_form_valid(&PROGRAM_LOADS, load_of(p)))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: load %d is not a kiln_pass_load", i,
                        (int)load_of(p));
        if (is_sets(p) && !program_form_valid(&PROGRAM_CULLS, p->draw_sets.cull))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: cull %d is not a kiln_cull", i,
                        (int)p->draw_sets.cull);
        if (is_sets(p) && p->draw_sets.depth && !program_form_valid(&PROGRAM_DEPTH_WRITES, p->draw_sets.depth_write))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: depth write %d is not a kiln_depth_write", i,
                        (int)p->draw_sets.depth_write);
        for (uint32_t n = 0; n < input_count(p); n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (!program_form_valid(&PROGRAM_INPUTS, in->kind))
                return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: input %u kind %d is not a %s", i, n,
                            (int)in->kind, PROGRAM_INPUTS.c_type);
            if (in->kind == KILN_INPUT_DEPTH && !program_form_valid(&PROGRAM_DEPTH_READS, in->depth_read))
                return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: input %u depth read %d is not a %s", i, n,
                            (int)in->depth_read, PROGRAM_DEPTH_READS.c_type);
        }
        if (!program_form_valid(&PROGRAM_OUTPUTS, p->output.kind))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: output kind %d is not a %s", i,
                        (int)p->output.kind, PROGRAM_OUTPUTS.c_type);
        if (!program_form_valid(&PROGRAM_BLENDS, p->blend))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: blend %d is not a %s", i, (int)p->blend,
                        PROGRAM_BLENDS.c_type);
    }
    /* A C caller can hand over what the JSON layer never produces; refusing it here keeps every
     * later check (and the runtime) free to index lists and switch on enums. */
    if (d->binding_count && !d->bindings)
        return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "bindings: %u declared but the list is NULL",
                    d->binding_count);
    if (d->transient_count && !d->transients)
        return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "transients: %u declared but the list is NULL",
                    d->transient_count);
    if (d->geometry_count && !d->geometries)
        return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "geometries: %u declared but the list is NULL",
                    d->geometry_count);
    if (d->buffer_count && !d->buffers)
        return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "buffers: %u declared but the list is NULL", d->buffer_count);
    if (d->depth_transient_count && !d->depth_transients)
        return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "depth_transients: %u declared but the list is NULL",
                    d->depth_transient_count);
    for (uint32_t i = 0; i < d->depth_transient_count; i++)
        if (!program_form_valid(&PROGRAM_SAMPLES, d->depth_transients[i].samples))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "depth transient %u: samples %d is not a %s", i,
                        (int)d->depth_transients[i].samples, PROGRAM_SAMPLES.c_type);
    for (uint32_t i = 0; i < d->binding_count; i++) {
        const kiln_slot_spec *b = &d->bindings[i];
        if ((unsigned)b->format >= KILN_FORMAT_COUNT)
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: format %d is not a kiln_texture_format", i,
                        (int)b->format);
        if (!program_form_valid(&PROGRAM_SHAPES, b->shape.kind))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: shape %d is not a %s", i, (int)b->shape.kind,
                        PROGRAM_SHAPES.c_type);
        if (!b->sampling.texel && !program_form_valid(&PROGRAM_WRAPS, b->sampling.wrap))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: wrap %d is not a %s", i,
                        (int)b->sampling.wrap, PROGRAM_WRAPS.c_type);
        if (!b->sampling.texel && !program_form_valid(&PROGRAM_MIPS, b->sampling.mips))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: mips %d is not a %s", i,
                        (int)b->sampling.mips, PROGRAM_MIPS.c_type);
    }
    for (uint32_t i = 0; i < d->transient_count; i++) {
        const kiln_transient_spec *t = &d->transients[i];
        if ((unsigned)t->format >= KILN_FORMAT_COUNT)
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "transient %u: format %d is not a kiln_texture_format",
                        i, (int)t->format);
        if (!program_form_valid(&PROGRAM_SAMPLES, t->samples))
            return fail(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "transient %u: samples %d is not a %s", i,
                        (int)t->samples, PROGRAM_SAMPLES.c_type);
    }
    return true;
}

static bool check_divisors(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->binding_count; i++) {
        const kiln_slot_shape *s = &d->bindings[i].shape;
        if (s->kind == KILN_SHAPE_TARGET && s->extent.divided && s->extent.divisor == 0)
            return fail(c, KILN_PROGRAM_ZERO_DIVISOR, "binding %u: Divided extent with divisor 0", i);
    }
    for (uint32_t i = 0; i < d->transient_count; i++) {
        const kiln_slot_extent *e = &d->transients[i].extent;
        if (e->divided && e->divisor == 0)
            return fail(c, KILN_PROGRAM_ZERO_DIVISOR, "transient %u: Divided extent with divisor 0", i);
    }
    for (uint32_t i = 0; i < d->depth_transient_count; i++) {
        const kiln_depth_extent *e = &d->depth_transients[i].extent;
        if (!e->fixed && e->output.divided && e->output.divisor == 0)
            return fail(c, KILN_PROGRAM_ZERO_DIVISOR, "depth transient %u: Output(Divided) extent with divisor 0", i);
    }
    return true;
}

static const kiln_vertex_attribute_spec *find_location(const kiln_geometry_layout *layout, uint32_t location);

static bool check_geometry_slots(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->geometry_count; i++) {
        kiln_geometry_error why;
        if (program_layout_check(&c->desc->geometries[i], &why) != KILN_GEOMETRY_OK)
            return fail(c, KILN_PROGRAM_BAD_GEOMETRY_SLOT, "geometry slot %u: %s (%s)", i, why.message,
                        kiln_geometry_class_name(why.cls));
    }
    return true;
}

/* A draw-sets pass's two layouts: each a valid layout, sharing no location (buffer 0 and buffer 1
 * bind at the locations their layouts declare; nothing is renumbered). */
static bool check_draw_sets_layouts(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_sets(p)) continue;
        const kiln_geometry_layout *v = &p->draw_sets.vertex_layout, *n = &p->draw_sets.instance_layout;
        kiln_geometry_error why;
        if (program_layout_check(v, &why) != KILN_GEOMETRY_OK)
            return fail(c, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT, "pass %u: vertex_layout: %s (%s)", i, why.message,
                        kiln_geometry_class_name(why.cls));
        if (program_layout_check(n, &why) != KILN_GEOMETRY_OK)
            return fail(c, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT, "pass %u: instance_layout: %s (%s)", i, why.message,
                        kiln_geometry_class_name(why.cls));
        for (uint32_t a = 0; a < n->attribute_count; a++)
            if (find_location(v, n->attributes[a].location))
                return fail(c, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT,
                            "pass %u: instance_layout[%u]: location %u is the vertex layout's too; the two layouts "
                            "share no location", i, a, n->attributes[a].location);
    }
    return true;
}

static bool check_depth_sides(const check_ctx *c) {
    uint32_t max = c->caps.max_texture_dimension_2d ? c->caps.max_texture_dimension_2d : 8192;
    for (uint32_t i = 0; i < c->desc->depth_transient_count; i++) {
        const kiln_depth_extent *e = &c->desc->depth_transients[i].extent;
        if (e->fixed && (e->side == 0 || e->side > max))
            return fail(c, KILN_PROGRAM_BAD_DEPTH_SIDE,
                        "depth transient %u: Fixed side %u is outside 1..%u (the device's maxTextureDimension2D)", i,
                        e->side, max);
    }
    return true;
}

/* Refused whether or not a pass reads the transient: the declaration itself cannot be honoured. */
static bool check_samples(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->transient_count; i++) {
        const kiln_transient_spec *t = &d->transients[i];
        if (t->samples == KILN_SAMPLES_FOUR && !kiln_texture_format_resolvable(t->format))
            return fail(c, KILN_PROGRAM_UNRESOLVABLE_SAMPLES, "transient %u: a Four transient of %s cannot be resolved",
                        i, kiln_texture_format_name(t->format));
    }
    return true;
}

/* ---- program buffers, compute passes and indirect draws ------------------------------------------ */

static bool check_buffers(const check_ctx *c) {
    uint64_t max = c->caps.max_storage_buffer_binding_size ? c->caps.max_storage_buffer_binding_size : 128u << 20;
    for (uint32_t i = 0; i < c->desc->buffer_count; i++) {
        uint32_t size = c->desc->buffers[i].size;
        if (size == 0 || size % 4 || size > max)
            return fail(c, KILN_PROGRAM_BAD_BUFFER,
                        "buffer %u: %u bytes; a program buffer is a non-zero multiple of 4 bytes, at most %llu (the "
                        "device's maxStorageBufferBindingSize)", i, size, (unsigned long long)max);
    }
    return true;
}

static bool check_buffer_uses(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->buffer_count > KILN_PROGRAM_MAX_BUFFER_USES)
            return fail(c, KILN_PROGRAM_BAD_BUFFER_USE, "pass %u: %u buffers bound; a pass binds at most %d", i,
                        p->buffer_count, KILN_PROGRAM_MAX_BUFFER_USES);
        for (uint32_t k = 0; k < p->buffer_count; k++) {
            const kiln_buffer_use *u = &p->buffers[k];
            if (u->index >= d->buffer_count)
                return fail(c, KILN_PROGRAM_BAD_BUFFER_USE,
                            "pass %u: buffer use %u names buffer %u, which is out of range (the program declares %u "
                            "buffer%s)", i, k, u->index, d->buffer_count, plural(d->buffer_count));
            for (uint32_t j = 0; j < k; j++)
                if (p->buffers[j].index == u->index)
                    return fail(c, KILN_PROGRAM_BAD_BUFFER_USE, "pass %u: buffer use %u binds buffer %u, which use %u "
                                "binds already", i, k, u->index, j);
            if (u->write && !is_compute(p))
                return fail(c, KILN_PROGRAM_BAD_BUFFER_USE,
                            "pass %u: buffer use %u writes buffer %u; only a compute pass writes a program buffer", i,
                            k, u->index);
        }
    }
    return true;
}

static bool check_compute_output(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_compute(p)) continue;
        if (p->output.kind != KILN_OUTPUT_NONE)
            return fail(c, KILN_PROGRAM_COMPUTE_OUTPUT, "pass %u: a compute pass must declare OutputSlot::None", i);
        if (p->blend != KILN_PROGRAM_BLEND_REPLACE)
            return fail(c, KILN_PROGRAM_COMPUTE_OUTPUT,
                        "pass %u: a compute pass declares blend Replace, not %s (it has no colour output)", i,
                        program_form_name(&PROGRAM_BLENDS, p->blend));
    }
    return true;
}

/* Counts from the output need the entry point's workgroup size as constants; a missing entry point
 * is missing_entry_point's to report. */
static bool check_workgroups(const check_ctx *c) {
    uint32_t max = c->caps.max_compute_workgroups_per_dimension ? c->caps.max_compute_workgroups_per_dimension : 65535;
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_compute(p)) continue;
        const kiln_compute_spec *w = &p->compute;
        if (!w->from_output) {
            if (w->x == 0 || w->y == 0 || w->z == 0 || w->x > max || w->y > max || w->z > max)
                return fail(c, KILN_PROGRAM_BAD_WORKGROUPS,
                            "pass %u: workgroup counts %u x %u x %u; each is 1..%u (the device's "
                            "maxComputeWorkgroupsPerDimension)", i, w->x, w->y, w->z, max);
            continue;
        }
        const kiln_wgsl_entry *e = p->entry_point ? kiln_wgsl_find_entry(c->module, p->entry_point) : NULL;
        if (e && e->stage == KILN_WGSL_STAGE_COMPUTE && (!e->workgroup_size[0] || !e->workgroup_size[1]))
            return fail(c, KILN_PROGRAM_BAD_WORKGROUPS,
                        "pass %u: counts from the output need %s's @workgroup_size as integer constants", i, e->name);
    }
    return true;
}

static bool check_indirect(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->stage != KILN_STAGE_DRAW_INDEXED_INDIRECT) continue;
        uint32_t b = p->draw.args_buffer, at = p->draw.args_offset;
        if (b >= d->buffer_count)
            return fail(c, KILN_PROGRAM_BAD_INDIRECT,
                        "pass %u: argument buffer %u is out of range (the program declares %u buffer%s)", i, b,
                        d->buffer_count, plural(d->buffer_count));
        if (at % 4 || (uint64_t)at + 20 > d->buffers[b].size)
            return fail(c, KILN_PROGRAM_BAD_INDIRECT,
                        "pass %u: arguments at offset %u of buffer %u (%u bytes) are not 20 bytes at a multiple of 4",
                        i, at, b, d->buffers[b].size);
    }
    return true;
}

static bool check_outputs(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        kiln_output_slot out = d->passes[i].output;
        if (out.kind == KILN_OUTPUT_BINDING && out.index >= d->binding_count)
            return fail(c, KILN_PROGRAM_BAD_OUTPUT,
                        "pass %u: output binding %u is out of range (the program declares %u binding%s)", i, out.index,
                        d->binding_count, plural(d->binding_count));
        if (out.kind == KILN_OUTPUT_BINDING && d->bindings[out.index].shape.kind != KILN_SHAPE_TARGET)
            return fail(c, KILN_PROGRAM_BAD_OUTPUT,
                        "pass %u: output binding %u is a %s; a pass writes only Target bindings", i, out.index,
                        program_form_name(&PROGRAM_SHAPES, d->bindings[out.index].shape.kind));
        if (out.kind == KILN_OUTPUT_TRANSIENT && out.index >= d->transient_count)
            return fail(c, KILN_PROGRAM_BAD_OUTPUT,
                        "pass %u: output transient %u is out of range (the program declares %u transient%s)", i,
                        out.index, d->transient_count, plural(d->transient_count));
    }
    return true;
}

/* Only a draw pass (depth-only) may write no colour. */
static bool check_missing_output(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (p->stage == KILN_STAGE_FRAGMENT && p->output.kind == KILN_OUTPUT_NONE)
            return fail(c, KILN_PROGRAM_MISSING_OUTPUT, "pass %u: a fragment pass must declare a texture output", i);
    }
    return true;
}

/* ---- draw passes: geometry and depth slots -------------------------------------------------------- */

static bool check_draw_geometry(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (draws_geometry(p) && p->draw.geometry >= d->geometry_count)
            return fail(c, KILN_PROGRAM_BAD_GEOMETRY,
                        "pass %u: geometry slot %u is out of range (the program declares %u geometry slot%s)", i,
                        p->draw.geometry, d->geometry_count, plural(d->geometry_count));
    }
    return true;
}

static bool check_draw_depth(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (names_depth(p) && depth_slot_of(p) >= d->depth_transient_count)
            return fail(c, KILN_PROGRAM_BAD_DEPTH,
                        "pass %u: depth slot %u is out of range (the program declares %u depth transient%s)", i,
                        depth_slot_of(p), d->depth_transient_count, plural(d->depth_transient_count));
    }
    return true;
}

/* A depth attachment must be the size of the colour attachment it tests for, which for a Fixed
 * slot is not known until a dispatch binds the output. */
static bool check_fixed_depth(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        const kiln_depth_spec *depth = attached_depth(d, p);
        if (depth && !is_depth_only(p) && depth->extent.fixed)
            return fail(c, KILN_PROGRAM_FIXED_DEPTH,
                        "pass %u: depth slot %u is Fixed (side %u) beside a colour output; a Fixed slot attaches "
                        "only under a depth-only pass", i, depth_slot_of(p), depth->extent.side);
    }
    return true;
}

/* The extent of the colour output a pass writes: a Target binding's, or a transient's. */
static kiln_slot_extent output_extent(const kiln_program_desc *d, kiln_output_slot out) {
    return out.kind == KILN_OUTPUT_BINDING ? d->bindings[out.index].shape.extent : d->transients[out.index].extent;
}

static kiln_samples output_samples(const kiln_program_desc *d, kiln_output_slot out) {
    return out.kind == KILN_OUTPUT_TRANSIENT ? d->transients[out.index].samples : KILN_SAMPLES_ONE;
}

/* Full and Divided { 1 } resolve alike, so they count as one extent. */
static uint32_t effective_divisor(kiln_slot_extent e) {
    return e.divided ? e.divisor : 1;
}

static const char *extent_text(kiln_slot_extent e, char *buf, size_t size) {
    if (e.divided) snprintf(buf, size, "Divided %u", e.divisor);
    else snprintf(buf, size, "Full");
    return buf;
}

static bool check_depth_extents(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    char slot[48], want[32], got[32];
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        const kiln_depth_spec *depth = attached_depth(d, p);
        if (!depth || is_depth_only(p)) continue;
        kiln_slot_extent out = output_extent(d, p->output);
        if (effective_divisor(depth->extent.output) != effective_divisor(out))
            return fail(c, KILN_PROGRAM_DEPTH_EXTENT,
                        "pass %u: depth slot %u is Output(%s) beside %s, which is %s; a depth slot beside a colour "
                        "output declares Output of that output's extent", i, depth_slot_of(p),
                        extent_text(depth->extent.output, got, sizeof got), slot_name(p->output, slot, sizeof slot),
                        extent_text(out, want, sizeof want));
    }
    return true;
}

static bool check_depth_samples(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    char slot[48];
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        const kiln_depth_spec *depth = attached_depth(d, p);
        if (!depth || is_depth_only(p)) continue;
        kiln_samples out = output_samples(d, p->output);
        if (depth->samples != out)
            return fail(c, KILN_PROGRAM_DEPTH_SAMPLES,
                        "pass %u: depth slot %u has samples %s beside %s, which has %s; the attachments of one pass "
                        "share one sample count", i, depth_slot_of(p),
                        program_form_name(&PROGRAM_SAMPLES, depth->samples), slot_name(p->output, slot, sizeof slot),
                        program_form_name(&PROGRAM_SAMPLES, out));
    }
    return true;
}

/* A depth-only pass has no colour output for a blend or a colour load to describe, and one that
 * named no depth slot would attach nothing at all. */
static bool check_depth_only(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_depth_only(p)) continue;
        if (!names_depth(p))
            return fail(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass (output None) must name a depth slot to write", i);
        if (is_sets(p) && p->draw_sets.depth_write == KILN_DEPTH_TEST_ONLY)
            return fail(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass declares depth write Write, not TestOnly (it would write nothing)",
                        i);
        if (p->blend != KILN_PROGRAM_BLEND_REPLACE)
            return fail(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass declares blend Replace, not %s (it has no colour output)", i,
                        program_form_name(&PROGRAM_BLENDS, p->blend));
        if (load_of(p) != KILN_LOAD_LOAD)
            return fail(c, KILN_PROGRAM_BAD_DEPTH_ONLY,
                        "pass %u: a depth-only pass declares load Load, not Clear (it has no colour output to clear)",
                        i);
    }
    return true;
}

static bool check_inputs(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->input_count > KILN_PROGRAM_MAX_INPUTS)
            return fail(c, KILN_PROGRAM_BAD_INPUT, "pass %u: %u inputs declared; a pass reads at most %d", i,
                        p->input_count, KILN_PROGRAM_MAX_INPUTS);
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (in->kind == KILN_INPUT_BINDING && in->index >= d->binding_count)
                return fail(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads binding %u, which is out of range (the program declares %u "
                            "binding%s)", i, n, in->index, d->binding_count, plural(d->binding_count));
            if (in->kind == KILN_INPUT_TRANSIENT && in->index >= d->transient_count)
                return fail(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads transient %u, which is out of range (the program declares %u "
                            "transient%s)", i, n, in->index, d->transient_count, plural(d->transient_count));
            if (in->kind == KILN_INPUT_DEPTH && in->index >= d->depth_transient_count)
                return fail(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads depth slot %u, which is out of range (the program declares %u "
                            "depth transient%s)", i, n, in->index, d->depth_transient_count,
                            plural(d->depth_transient_count));
            if (in->kind == KILN_INPUT_PASS_OUTPUT && in->index >= d->pass_count)
                return fail(c, KILN_PROGRAM_BAD_INPUT,
                            "pass %u: input %u reads the output of pass %u, which is out of range (the program "
                            "declares %u pass%s)", i, n, in->index, d->pass_count, d->pass_count == 1 ? "" : "es");
        }
    }
    return true;
}

/* The list count is one more than the highest list a pass names, and every list below it is named:
 * a dispatch never carries a list nothing draws. */
static bool check_lists(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    uint32_t count = kiln_program_list_count(d), sets = 0, highest = 0;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        sets += is_sets(p);
        if (is_sets(p) && p->draw_sets.list > highest) highest = p->draw_sets.list;
    }
    /* S passes name at most S lists, so a gap, if any, lies at or below S. */
    for (uint32_t l = 0; l < count && l <= sets; l++) {
        bool named = false;
        for (uint32_t i = 0; i < d->pass_count && !named; i++)
            named = is_sets(&d->passes[i]) && d->passes[i].draw_sets.list == l;
        if (!named)
            return fail(c, KILN_PROGRAM_BAD_LIST,
                        "draw-set list %u is named by no pass, and a pass names list %u: lists are numbered densely "
                        "from 0", l, highest);
    }
    return true;
}

static bool attaches(const kiln_pass_spec *p, uint32_t depth_slot) {
    return names_depth(p) && depth_slot_of(p) == depth_slot;
}

/* A depth slot holds only what the passes attaching it drew, a multisampled one cannot be read,
 * and a texture cannot be attached and bound in one pass. */
static bool check_depth_inputs(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (in->kind != KILN_INPUT_DEPTH) continue;
            if (d->depth_transients[in->index].samples != KILN_SAMPLES_ONE)
                return fail(c, KILN_PROGRAM_BAD_DEPTH_INPUT,
                            "pass %u: input %u reads depth slot %u, which has samples Four; only a One depth slot is "
                            "read (draw the geometry again depth-only onto a One slot)", i, n, in->index);
            bool earlier = false;
            for (uint32_t j = 0; j < i && !earlier; j++) earlier = attaches(&d->passes[j], in->index);
            if (!earlier)
                return fail(c, KILN_PROGRAM_BAD_DEPTH_INPUT,
                            "pass %u: input %u reads depth slot %u, which no earlier pass attaches", i, n, in->index);
            if (attaches(p, in->index))
                return fail(c, KILN_PROGRAM_BAD_DEPTH_INPUT,
                            "pass %u: input %u reads depth slot %u, which this pass attaches", i, n, in->index);
        }
    }
    return true;
}

static bool written_before(const kiln_program_desc *d, uint32_t pass, kiln_output_slot slot) {
    for (uint32_t j = 0; j < pass; j++)
        if (same_slot(d->passes[j].output, slot)) return true;
    return false;
}

/* The graph is a sequence: reading only what an earlier pass wrote makes acyclicity one index
 * comparison. A binding needs no earlier writer: the dispatch supplies it with its own pixels. */
static bool check_read_order(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (in->kind == KILN_INPUT_TRANSIENT && !written_before(d, i, input_slot(d, in)))
                return fail(c, KILN_PROGRAM_READ_BEFORE_WRITE,
                            "pass %u: input %u reads transient %u before any pass writes it", i, n, in->index);
            if (in->kind != KILN_INPUT_PASS_OUTPUT) continue;
            if (in->index >= i)
                return fail(c, KILN_PROGRAM_READ_BEFORE_WRITE,
                            "pass %u: input %u reads the output of pass %u; a pass reads only the output of an "
                            "earlier pass", i, n, in->index);
            if (d->passes[in->index].output.kind == KILN_OUTPUT_NONE)
                return fail(c, KILN_PROGRAM_READ_BEFORE_WRITE,
                            "pass %u: input %u reads the output of pass %u, which writes no colour output", i, n,
                            in->index);
        }
    }
    return true;
}

/* A texture cannot be a render attachment and a bound texture in one pass. */
static bool check_own_output(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    char slot[48];
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        for (uint32_t n = 0; n < p->input_count; n++) {
            const kiln_input_slot *in = &p->inputs[n];
            kiln_output_slot s = input_slot(d, in);
            if (!same_slot(s, p->output)) continue;
            if (in->kind == KILN_INPUT_PASS_OUTPUT)
                return fail(c, KILN_PROGRAM_READS_OWN_OUTPUT,
                            "pass %u: input %u reads the output of pass %u (%s), the slot this pass writes", i, n,
                            in->index, slot_name(s, slot, sizeof slot));
            return fail(c, KILN_PROGRAM_READS_OWN_OUTPUT, "pass %u: input %u reads %s, the slot this pass writes", i,
                        n, slot_name(s, slot, sizeof slot));
        }
    }
    return true;
}

static bool check_final_binding(const check_ctx *c) {
    uint32_t last = c->desc->pass_count - 1;
    kiln_output_slot out = c->desc->passes[last].output;
    char slot[48];
    if (out.kind != KILN_OUTPUT_BINDING)
        return fail(c, KILN_PROGRAM_FINAL_PASS_NOT_BINDING,
                    "pass %u: the final pass writes %s; the final pass must write a binding", last,
                    slot_name(out, slot, sizeof slot));
    return true;
}

/* The binding the final pass writes is the reference every other extent divides. */
static bool check_reference_full(const check_ctx *c) {
    uint32_t last = c->desc->pass_count - 1;
    uint32_t b = c->desc->passes[last].output.index;
    const kiln_slot_extent *e = &c->desc->bindings[b].shape.extent;
    if (e->divided)
        return fail(c, KILN_PROGRAM_REFERENCE_NOT_FULL,
                    "pass %u: output binding %u is Target(Divided %u); the final pass's output sets the reference "
                    "size and must be Target(Full)", last, b, e->divisor);
    return true;
}

/* repeat_count 0 means "no repeat"; a declared repeat of count 0 is the JSON layer's to refuse. */
static bool check_repeats(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        uint32_t count = c->desc->passes[i].repeat_count;
        if (count > KILN_PROGRAM_MAX_REPEAT)
            return fail(c, KILN_PROGRAM_BAD_REPEAT, "pass %u: repeat count %u is outside 1..%d", i, count,
                        KILN_PROGRAM_MAX_REPEAT);
    }
    return true;
}

/* ---- the graph against the shader ----------------------------------------------------------- */

/* The pass's own entry point: its @fragment function, or a compute pass's @compute one. */
static const kiln_wgsl_entry *fragment_entry(const check_ctx *c, const kiln_pass_spec *p) {
    const kiln_wgsl_entry *e = p->entry_point ? kiln_wgsl_find_entry(c->module, p->entry_point) : NULL;
    kiln_wgsl_stage want = is_compute(p) ? KILN_WGSL_STAGE_COMPUTE : KILN_WGSL_STAGE_FRAGMENT;
    return e && e->stage == want ? e : NULL;
}

static const kiln_wgsl_entry *vertex_entry(const check_ctx *c, const kiln_pass_spec *p) {
    if (!is_draw(p) || !vertex_entry_name(p)) return NULL;
    const kiln_wgsl_entry *e = kiln_wgsl_find_entry(c->module, vertex_entry_name(p));
    return e && e->stage == KILN_WGSL_STAGE_VERTEX ? e : NULL;
}

static bool check_entry_points(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!p->entry_point || !p->entry_point[0])
            return fail(c, KILN_PROGRAM_MISSING_ENTRY_POINT, "pass %u: names no entry point", i);
        if (fragment_entry(c, p)) continue;
        const kiln_wgsl_entry *e = kiln_wgsl_find_entry(c->module, p->entry_point);
        const char *want = is_compute(p) ? "@compute" : "@fragment";
        if (e)
            return fail(c, KILN_PROGRAM_MISSING_ENTRY_POINT,
                        "pass %u: entry point '%s' is not a %s function in the module (it is @%s)", i,
                        p->entry_point, want, kiln_wgsl_stage_name(e->stage));
        return fail(c, KILN_PROGRAM_MISSING_ENTRY_POINT, "pass %u: entry point '%s' is not a %s function in the module",
                    i, p->entry_point, want);
    }
    return true;
}

static bool check_vertex_entries(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_draw(p) || vertex_entry(c, p)) continue;
        const char *name = vertex_entry_name(p);
        if (!name || !name[0])
            return fail(c, KILN_PROGRAM_MISSING_VERTEX_ENTRY, "pass %u: a draw pass names no vertex entry point", i);
        const kiln_wgsl_entry *e = kiln_wgsl_find_entry(c->module, name);
        if (e)
            return fail(c, KILN_PROGRAM_MISSING_VERTEX_ENTRY,
                        "pass %u: vertex entry point '%s' is not a @vertex function in the module (it is @%s)", i,
                        name, kiln_wgsl_stage_name(e->stage));
        return fail(c, KILN_PROGRAM_MISSING_VERTEX_ENTRY,
                    "pass %u: vertex entry point '%s' is not a @vertex function in the module", i, name);
    }
    return true;
}

/* "vec4<f32>", "u32": the type a format is read as. */
static const char *consumed_type(const program_vertex_format *f, char *buf, size_t size) {
    if (f->components == 1) snprintf(buf, size, "%s", kiln_wgsl_scalar_name(f->scalar));
    else snprintf(buf, size, "vec%u<%s>", f->components, kiln_wgsl_scalar_name(f->scalar));
    return buf;
}

/* Every @location the vertex stage reads is declared by the slot's layout and read as the type its
 * format is consumed as; attributes the stage ignores are fine. */
static const kiln_vertex_attribute_spec *find_location(const kiln_geometry_layout *layout, uint32_t location) {
    for (uint32_t a = 0; a < layout->attribute_count; a++)
        if (layout->attributes[a].location == location) return &layout->attributes[a];
    return NULL;
}

/* "geometry slot 0" for a draw pass; "the pass's instance layout" for a draw-sets pass. */
static const char *layout_source(const kiln_pass_spec *p, bool instance, char *buf, size_t size) {
    if (!is_sets(p)) snprintf(buf, size, "geometry slot %u", p->draw.geometry);
    else snprintf(buf, size, "the pass's %s layout", instance ? "instance" : "vertex");
    return buf;
}

/* Every @location the vertex stage reads is declared by the layouts it draws from (a draw pass:
 * its geometry slot's; a draw-sets pass: its vertex and instance layouts together) and read as the
 * type its format is consumed as; attributes the stage ignores are fine. */
static bool check_vertex_layouts(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        const kiln_wgsl_entry *e = vertex_entry(c, p);
        if (!e) continue;
        const kiln_geometry_layout *vertex = is_sets(p) ? &p->draw_sets.vertex_layout : &d->geometries[p->draw.geometry];
        const kiln_geometry_layout *instance = is_sets(p) ? &p->draw_sets.instance_layout : NULL;
        for (uint32_t k = 0; k < e->input_count; k++) {
            const kiln_wgsl_io *io = &e->inputs[k];
            if (io->attrs.location < 0) continue;
            const kiln_vertex_attribute_spec *attr = find_location(vertex, (uint32_t)io->attrs.location);
            bool from_instance = !attr && instance;
            if (from_instance) attr = find_location(instance, (uint32_t)io->attrs.location);
            char text[160], more[160], type[96], want[32], source[48];
            if (!attr && instance)
                return fail(c, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
                            "pass %u: %s reads @location(%d), which neither of the pass's layouts declares (vertex %s, "
                            "instance %s)", i, e->name, io->attrs.location, program_layout_text(vertex, text, sizeof text),
                            program_layout_text(instance, more, sizeof more));
            if (!attr)
                return fail(c, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
                            "pass %u: %s reads @location(%d), which geometry slot %u does not declare (its layout is "
                            "%s)", i, e->name, io->attrs.location, p->draw.geometry,
                            program_layout_text(vertex, text, sizeof text));
            const program_vertex_format *f = program_vertex_format_of(attr->format);
            kiln_wgsl_scalar scalar = KILN_WGSL_SCALAR_NONE;
            uint32_t count = 0;
            if (kiln_wgsl_type_components(c->module, io->type, &scalar, &count) && scalar == f->scalar &&
                count == f->components)
                continue;
            return fail(c, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH, "pass %u: %s reads @location(%d) as %s; %s declares it %s, read as %s",
                        i, e->name, io->attrs.location, kiln_wgsl_type_name(c->module, io->type, type, sizeof type),
                        layout_source(p, from_instance, source, sizeof source), f->name,
                        consumed_type(f, want, sizeof want));
        }
    }
    return true;
}

/* The window must be at least SizeOf the block, which is the minimum binding size Dawn checks at
 * draw time; refusing here moves that failure to the register call. Both stages of a draw pass
 * see group 0, so the window covers whichever block is larger. */
static bool check_uniform_window(const check_ctx *c, uint32_t i, const kiln_wgsl_entry *e) {
    const kiln_pass_spec *p = &c->desc->passes[i];
    const kiln_wgsl_var *block = kiln_wgsl_entry_binding(c->module, e, 0, 0);
    if (!block) return true;
    uint32_t size = 0;
    kiln_error why;
    char type[96];
    if (block->space != KILN_WGSL_SPACE_UNIFORM)
        return fail(c, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
                    "pass %u: %s declares a %s at @group(0) @binding(0), where the uniform window binds a "
                    "var<uniform>", i, e->name, kiln_wgsl_type_name(c->module, block->type, type, sizeof type));
    /* Dawn refuses a broken uniform layout at compile; the scanner agreeing is the usual case. */
    if (!kiln_wgsl_uniform_block_size(c->module, e, 0, 0, &size, &why))
        return fail(c, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
                    "pass %u: the block %s declares at @group(0) @binding(0) breaks a uniform layout rule: %s", i,
                    e->name, why.message);
    if (p->uniform_length < size)
        return fail(c, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
                    "pass %u: uniform window of %u bytes does not cover the %u-byte block %s declares at "
                    "@group(0) @binding(0)", i, p->uniform_length, size, e->name);
    return true;
}

static bool check_uniform_windows(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!check_uniform_window(c, i, fragment_entry(c, p))) return false;
        if (is_draw(p) && !check_uniform_window(c, i, vertex_entry(c, p))) return false;
    }
    return true;
}

static bool is_sampler(const kiln_wgsl_type *t) {
    return t->kind == KILN_WGSL_TYPE_SAMPLER;
}

/* Input n's texture at @group(1) @binding(2n): absent is fine (the shader ignores the input), but
 * present it must be the slot's texture type with f32 samples. */
static bool check_input_texture(const check_ctx *c, uint32_t pass, const kiln_wgsl_entry *e, uint32_t n) {
    const kiln_program_desc *d = c->desc;
    const kiln_input_slot *in = &d->passes[pass].inputs[n];
    const kiln_wgsl_var *v = kiln_wgsl_entry_binding(c->module, e, 1, 2 * n);
    if (!v) return true;
    const kiln_wgsl_type *t = &c->module->types[v->type];
    char what[96], type[96];
    if (in->kind == KILN_INPUT_DEPTH) {
        if (t->kind == KILN_WGSL_TYPE_TEXTURE && t->handle == KILN_WGSL_TEXTURE_DEPTH_2D) return true;
        return fail(c, KILN_PROGRAM_INPUT_MISMATCH,
                    "pass %u: input %u (%s) is declared %s at @group(1) @binding(%u) in %s; it must be texture_depth_2d",
                    pass, n, describe_input(d, in, false, what, sizeof what),
                    kiln_wgsl_type_name(c->module, v->type, type, sizeof type), 2 * n, e->name);
    }
    kiln_wgsl_handle want = slot_texture(d, input_slot(d, in));
    if (t->kind == KILN_WGSL_TYPE_TEXTURE && t->handle == want && t->scalar == KILN_WGSL_SCALAR_F32) return true;
    return fail(c, KILN_PROGRAM_INPUT_MISMATCH,
                "pass %u: input %u (%s) is declared %s at @group(1) @binding(%u); it must be %s<f32>", pass, n,
                describe_input(d, in, false, what, sizeof what),
                kiln_wgsl_type_name(c->module, v->type, type, sizeof type), 2 * n, kiln_wgsl_handle_name(want));
}

/* Input n's sampler at @binding(2n + 1): a Texel slot binds nothing there, every other slot a
 * filtering or non-filtering sampler (never a comparison sampler: only Depth Compare inputs,
 * which arrive with draw passes, bind one). */
static bool check_input_sampler(const check_ctx *c, uint32_t pass, const kiln_wgsl_entry *e, uint32_t n) {
    const kiln_program_desc *d = c->desc;
    const kiln_input_slot *in = &d->passes[pass].inputs[n];
    const kiln_wgsl_var *v = kiln_wgsl_entry_binding(c->module, e, 1, 2 * n + 1);
    if (!v) return true;
    const kiln_wgsl_type *t = &c->module->types[v->type];
    if (in->kind == KILN_INPUT_DEPTH) {
        bool compare = in->depth_read == KILN_DEPTH_READ_COMPARE;
        if (compare && is_sampler(t) && t->handle == KILN_WGSL_SAMPLER_COMPARISON) return true;
        char what[96], type[96];
        return fail(c, KILN_PROGRAM_INPUT_MISMATCH,
                    "pass %u: input %u (%s) has a %s declared at @group(1) @binding(%u)%s", pass, n,
                    describe_input(d, in, false, what, sizeof what),
                    kiln_wgsl_type_name(c->module, v->type, type, sizeof type), 2 * n + 1,
                    compare ? ", where its sampler_comparison binds" : "; a Texel depth read binds no sampler");
    }
    bool texel = slot_is_texel(d, input_slot(d, in));
    if (!texel && is_sampler(t) && t->handle == KILN_WGSL_SAMPLER) return true;
    char what[96], type[96];
    describe_input(d, in, true, what, sizeof what);
    kiln_wgsl_type_name(c->module, v->type, type, sizeof type);
    const char *why = texel ? ""
                    : t->handle == KILN_WGSL_SAMPLER_COMPARISON ? "; only a Depth Compare input binds one"
                    : ", where its sampler binds";
    return fail(c, KILN_PROGRAM_INPUT_MISMATCH, "pass %u: input %u (%s) has a %s declared at @group(1) @binding(%u)%s",
                pass, n, what, type, 2 * n + 1, why);
}

/* A group 1 var above the inputs' bindings would be missing from the pipeline layout. */
static bool check_unexplained_bindings(const check_ctx *c, uint32_t pass, const kiln_wgsl_entry *e) {
    const kiln_wgsl_module *m = c->module;
    uint32_t inputs = c->desc->passes[pass].input_count;
    for (uint32_t i = 0; i < m->var_count; i++) {
        const kiln_wgsl_var *v = &m->vars[i];
        if (v->group != 1 || v->binding < 0 || (uint32_t)v->binding < 2 * inputs) continue;
        if (!kiln_wgsl_entry_uses(m, e, v)) continue;
        char type[96];
        return fail(c, KILN_PROGRAM_INPUT_MISMATCH,
                    "pass %u: %s declares a %s at @group(1) @binding(%d), which no input explains (the pass declares "
                    "%u input%s)", pass, e->name, kiln_wgsl_type_name(m, v->type, type, sizeof type), v->binding,
                    inputs, plural(inputs));
    }
    return true;
}

static bool check_colour_output(const check_ctx *c, uint32_t pass, const kiln_wgsl_entry *e) {
    const kiln_wgsl_io *colour = kiln_wgsl_entry_output_location(e, 0);
    kiln_wgsl_scalar scalar = KILN_WGSL_SCALAR_NONE;
    uint32_t count = 0;
    if (!colour)
        return fail(c, KILN_PROGRAM_INPUT_MISMATCH,
                    "pass %u: %s returns nothing at @location(0); a pass returns its colour there as vec4<f32>", pass,
                    e->name);
    if (kiln_wgsl_type_components(c->module, colour->type, &scalar, &count) && scalar == KILN_WGSL_SCALAR_F32 &&
        count == 4)
        return true;
    char type[96];
    return fail(c, KILN_PROGRAM_INPUT_MISMATCH,
                "pass %u: %s returns %s at @location(0); a pass returns its colour as vec4<f32>", pass, e->name,
                kiln_wgsl_type_name(c->module, colour->type, type, sizeof type));
}

/* Group 1 against both stages of a draw pass (the vertex stage sees the inputs too). */
static bool check_stage_inputs(const check_ctx *c, uint32_t i, const kiln_wgsl_entry *e) {
    const kiln_pass_spec *p = &c->desc->passes[i];
    for (uint32_t n = 0; n < p->input_count; n++)
        if (!check_input_texture(c, i, e, n) || !check_input_sampler(c, i, e, n)) return false;
    return check_unexplained_bindings(c, i, e);
}

static bool check_shader_inputs(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        const kiln_wgsl_entry *e = fragment_entry(c, p);
        if (!check_stage_inputs(c, i, e)) return false;
        if (is_draw(p) && !check_stage_inputs(c, i, vertex_entry(c, p))) return false;
        if (!is_depth_only(p) && !is_compute(p) && !check_colour_output(c, i, e)) return false;
    }
    return true;
}

/* Group 2 against one stage: buffer use k at @binding(k) is var<storage, read_write> when the pass
 * writes it and var<storage, read> otherwise (or absent); nothing above the pass's uses. */
static bool check_stage_buffers(const check_ctx *c, uint32_t pass, const kiln_wgsl_entry *e) {
    const kiln_wgsl_module *m = c->module;
    const kiln_pass_spec *p = &c->desc->passes[pass];
    char type[96];
    for (uint32_t i = 0; e && i < m->var_count; i++) {
        const kiln_wgsl_var *v = &m->vars[i];
        if (v->group != 2 || !kiln_wgsl_entry_uses(m, e, v)) continue;
        if (v->binding < 0 || (uint32_t)v->binding >= p->buffer_count)
            return fail(c, KILN_PROGRAM_BUFFER_MISMATCH,
                        "pass %u: %s declares a %s at @group(2) @binding(%d), which no buffer use explains (the pass "
                        "binds %u buffer%s)", pass, e->name, kiln_wgsl_type_name(m, v->type, type, sizeof type),
                        v->binding, p->buffer_count, plural(p->buffer_count));
        const kiln_buffer_use *u = &p->buffers[v->binding];
        kiln_wgsl_access want = u->write ? KILN_WGSL_ACCESS_READ_WRITE : KILN_WGSL_ACCESS_READ;
        if (v->space == KILN_WGSL_SPACE_STORAGE && v->access == want) continue;
        return fail(c, KILN_PROGRAM_BUFFER_MISMATCH,
                    "pass %u: %s declares %s at @group(2) @binding(%d); buffer use %d (buffer %u) binds there as "
                    "var<storage, %s>", pass, e->name, v->name, v->binding, v->binding, u->index,
                    u->write ? "read_write" : "read");
    }
    return true;
}

static bool check_buffer_bindings(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!check_stage_buffers(c, i, fragment_entry(c, p))) return false;
        if (is_draw(p) && !check_stage_buffers(c, i, vertex_entry(c, p))) return false;
    }
    return true;
}

/* A depth-only pass's fragment stage returns nothing, or frag_depth alone. */
static bool check_depth_only_color(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_depth_only(p)) continue;
        const kiln_wgsl_entry *e = fragment_entry(c, p);
        for (uint32_t k = 0; k < e->output_count; k++)
            if (e->outputs[k].attrs.location >= 0)
                return fail(c, KILN_PROGRAM_DEPTH_ONLY_COLOR,
                            "pass %u: %s returns a colour at @location(%d), and the pass is depth-only (output None); "
                            "it returns nothing or @builtin(frag_depth) alone", i, e->name,
                            e->outputs[k].attrs.location);
    }
    return true;
}

static bool check_frag_depth(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        const kiln_wgsl_entry *e = fragment_entry(c, p);
        if (!kiln_wgsl_entry_output_builtin(e, KILN_WGSL_BUILTIN_FRAG_DEPTH) || names_depth(p)) continue;
        return fail(c, KILN_PROGRAM_UNDECLARED_DEPTH,
                    "pass %u: %s writes @builtin(frag_depth), and the pass attaches no depth slot to write it into", i,
                    e->name);
    }
    return true;
}

/* The one pipeline failure the CPU can predict; Dawn's own refusals come later, at creation. */
static bool check_blendable(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->blend == KILN_PROGRAM_BLEND_REPLACE || c->caps.float32_blendable || p->output.kind == KILN_OUTPUT_NONE)
            continue;
        kiln_texture_format format = slot_format(d, p->output);
        if (format == KILN_FORMAT_R32_FLOAT)
            return fail(c, KILN_PROGRAM_PIPELINE_FAILED,
                        "pass %u: %s blending onto an %s output needs the float32-blendable feature, which this "
                        "device lacks", i, program_form_name(&PROGRAM_BLENDS, p->blend),
                        kiln_texture_format_name(format));
    }
    return true;
}

/* ---- entry -------------------------------------------------------------------------------------- */

typedef bool (*check_fn)(const check_ctx *c);

/* One function per class, in the order of kiln_program_class (empty_graph runs first, inline,
 * since every other check reads the pass list). */
static const check_fn checks[] = {
    check_supported,        /* unsupported_stage */
    check_geometry_slots,   /* bad_geometry_slot */
    check_draw_sets_layouts, /* bad_draw_sets_layout */
    check_divisors,         /* zero_divisor */
    check_depth_sides,      /* bad_depth_side */
    check_samples,          /* unresolvable_samples */
    check_buffers,          /* bad_buffer */
    check_buffer_uses,      /* bad_buffer_use */
    check_compute_output,   /* compute_output */
    check_workgroups,       /* bad_workgroups */
    check_indirect,         /* bad_indirect */
    check_outputs,          /* bad_output */
    check_missing_output,   /* missing_output */
    check_draw_geometry,    /* bad_geometry */
    check_draw_depth,       /* bad_depth */
    check_fixed_depth,      /* fixed_depth_with_output */
    check_depth_extents,    /* depth_extent_mismatch */
    check_depth_samples,    /* depth_samples_mismatch */
    check_depth_only,       /* bad_depth_only */
    check_lists,            /* bad_list */
    check_inputs,           /* bad_input */
    check_depth_inputs,     /* bad_depth_input */
    check_read_order,       /* read_before_write */
    check_own_output,       /* reads_own_output */
    check_final_binding,    /* final_pass_not_binding */
    check_reference_full,   /* reference_not_full */
    check_repeats,          /* bad_repeat */
    check_entry_points,     /* missing_entry_point */
    check_vertex_entries,   /* missing_vertex_entry_point */
    check_vertex_layouts,   /* vertex_layout_mismatch */
    check_uniform_windows,  /* uniform_window_short */
    check_shader_inputs,    /* input_mismatch */
    check_buffer_bindings,  /* buffer_mismatch */
    check_depth_only_color, /* depth_only_returns_color */
    check_frag_depth,       /* frag_depth_without_slot */
    check_blendable,        /* pipeline_creation_failed */
};
_Static_assert(sizeof checks / sizeof checks[0] == KILN_PROGRAM_PIPELINE_FAILED - KILN_PROGRAM_UNSUPPORTED_STAGE + 1,
               "one check per register class from unsupported_stage to pipeline_creation_failed");

bool kiln_program_validate(const kiln_program_desc *desc, const kiln_wgsl_module *module,
                           const kiln_program_caps *caps, kiln_program_error *err) {
    check_ctx c = {desc, module, caps ? *caps : (kiln_program_caps){0}, err};
    if (err) {
        err->cls = KILN_PROGRAM_OK;
        err->message[0] = '\0';
    }
    if (!desc) return fail(&c, KILN_PROGRAM_EMPTY_GRAPH, "no program descriptor");
    if (desc->pass_count == 0) return fail(&c, KILN_PROGRAM_EMPTY_GRAPH, "the program declares no passes");
    if (!desc->passes)
        return fail(&c, KILN_PROGRAM_EMPTY_GRAPH, "passes: %u declared but the list is NULL", desc->pass_count);
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (!checks[i](&c)) return false;
    return true;
}

bool kiln_program_check_flat(const kiln_wgsl_module *m, kiln_program_error *err) {
    for (uint32_t i = 0; m && i < m->entry_count; i++) {
        const kiln_wgsl_entry *e = &m->entries[i];
        bool vertex = e->stage == KILN_WGSL_STAGE_VERTEX;
        if (!vertex && e->stage != KILN_WGSL_STAGE_FRAGMENT) continue;
        const kiln_wgsl_io *list = vertex ? e->outputs : e->inputs;
        uint32_t count = vertex ? e->output_count : e->input_count;
        for (uint32_t k = 0; k < count; k++) {
            if (!kiln_wgsl_io_missing_flat(m, &list[k])) continue;
            check_ctx c = {.err = err};
            char type[96];
            return fail(&c, KILN_PROGRAM_INVALID_WGSL,
                        "%s:%u:%u: error: %s's %s @location(%d) is %s, an integer varying, and must be declared "
                        "@interpolate(flat)", m->source_name, list[k].line, list[k].col, e->name,
                        vertex ? "output" : "input", list[k].attrs.location,
                        kiln_wgsl_type_name(m, list[k].type, type, sizeof type));
        }
    }
    return true;
}

uint32_t kiln_program_list_count(const kiln_program_desc *desc) {
    uint32_t count = 0;
    for (uint32_t i = 0; desc && desc->passes && i < desc->pass_count; i++) {
        const kiln_pass_spec *p = &desc->passes[i];
        if (is_sets(p) && p->draw_sets.list >= count)
            count = p->draw_sets.list == UINT32_MAX ? UINT32_MAX : p->draw_sets.list + 1;
    }
    return count;
}
