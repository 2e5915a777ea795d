/* The checks of a program's declared graph on its own (program_check.h): stages and enum values in
 * range, geometry and draw-sets layouts, divisors, depth sides and sample counts, then program
 * buffers, compute passes, indirect draws and every pass's output. */
#include "program_check.h"

bool program_check_supported(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (!program_form_valid(&PROGRAM_STAGES, p->stage))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: stage %d is not a %s", i, (int)p->stage,
                        PROGRAM_STAGES.c_type);
        if (is_draw(p) && !program_form_valid(&PROGRAM_LOADS, load_of(p)))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: load %d is not a kiln_pass_load", i,
                        (int)load_of(p));
        if (is_sets(p) && !program_form_valid(&PROGRAM_CULLS, p->draw_sets.cull))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: cull %d is not a kiln_cull", i,
                        (int)p->draw_sets.cull);
        if (is_sets(p) && p->draw_sets.depth && !program_form_valid(&PROGRAM_DEPTH_WRITES, p->draw_sets.depth_write))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: depth write %d is not a kiln_depth_write", i,
                        (int)p->draw_sets.depth_write);
        for (uint32_t n = 0; n < input_count(p); n++) {
            const kiln_input_slot *in = &p->inputs[n];
            if (!program_form_valid(&PROGRAM_INPUTS, in->kind))
                return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: input %u kind %d is not a %s", i, n,
                            (int)in->kind, PROGRAM_INPUTS.c_type);
            if (in->kind == KILN_INPUT_DEPTH && !program_form_valid(&PROGRAM_DEPTH_READS, in->depth_read))
                return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: input %u depth read %d is not a %s", i, n,
                            (int)in->depth_read, PROGRAM_DEPTH_READS.c_type);
        }
        if (!program_form_valid(&PROGRAM_OUTPUTS, p->output.kind))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: output kind %d is not a %s", i,
                        (int)p->output.kind, PROGRAM_OUTPUTS.c_type);
        if (!program_form_valid(&PROGRAM_BLENDS, p->blend))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "pass %u: blend %d is not a %s", i, (int)p->blend,
                        PROGRAM_BLENDS.c_type);
    }
    /* A C caller can hand over what the JSON layer never produces; refusing it here keeps every
     * later check (and the runtime) free to index lists and switch on enums. */
    if (d->binding_count && !d->bindings)
        return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "bindings: %u declared but the list is NULL",
                    d->binding_count);
    if (d->transient_count && !d->transients)
        return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "transients: %u declared but the list is NULL",
                    d->transient_count);
    if (d->geometry_count && !d->geometries)
        return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "geometries: %u declared but the list is NULL",
                    d->geometry_count);
    if (d->buffer_count && !d->buffers)
        return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "buffers: %u declared but the list is NULL", d->buffer_count);
    if (d->depth_transient_count && !d->depth_transients)
        return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "depth_transients: %u declared but the list is NULL",
                    d->depth_transient_count);
    for (uint32_t i = 0; i < d->depth_transient_count; i++)
        if (!program_form_valid(&PROGRAM_SAMPLES, d->depth_transients[i].samples))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "depth transient %u: samples %d is not a %s", i,
                        (int)d->depth_transients[i].samples, PROGRAM_SAMPLES.c_type);
    for (uint32_t i = 0; i < d->binding_count; i++) {
        const kiln_slot_spec *b = &d->bindings[i];
        if ((unsigned)b->format >= KILN_FORMAT_COUNT)
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: format %d is not a kiln_texture_format", i,
                        (int)b->format);
        if (!program_form_valid(&PROGRAM_SHAPES, b->shape.kind))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: shape %d is not a %s", i, (int)b->shape.kind,
                        PROGRAM_SHAPES.c_type);
        if (!b->sampling.texel && !program_form_valid(&PROGRAM_WRAPS, b->sampling.wrap))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: wrap %d is not a %s", i,
                        (int)b->sampling.wrap, PROGRAM_WRAPS.c_type);
        if (!b->sampling.texel && !program_form_valid(&PROGRAM_MIPS, b->sampling.mips))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "binding %u: mips %d is not a %s", i,
                        (int)b->sampling.mips, PROGRAM_MIPS.c_type);
    }
    for (uint32_t i = 0; i < d->transient_count; i++) {
        const kiln_transient_spec *t = &d->transients[i];
        if ((unsigned)t->format >= KILN_FORMAT_COUNT)
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "transient %u: format %d is not a kiln_texture_format",
                        i, (int)t->format);
        if (!program_form_valid(&PROGRAM_SAMPLES, t->samples))
            return FAIL(c, KILN_PROGRAM_UNSUPPORTED_STAGE, "transient %u: samples %d is not a %s", i,
                        (int)t->samples, PROGRAM_SAMPLES.c_type);
    }
    return true;
}

bool program_check_divisors(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->binding_count; i++) {
        const kiln_slot_shape *s = &d->bindings[i].shape;
        if (s->kind == KILN_SHAPE_TARGET && s->extent.divided && s->extent.divisor == 0)
            return FAIL(c, KILN_PROGRAM_ZERO_DIVISOR, "binding %u: Divided extent with divisor 0", i);
    }
    for (uint32_t i = 0; i < d->transient_count; i++) {
        const kiln_slot_extent *e = &d->transients[i].extent;
        if (e->divided && e->divisor == 0)
            return FAIL(c, KILN_PROGRAM_ZERO_DIVISOR, "transient %u: Divided extent with divisor 0", i);
    }
    for (uint32_t i = 0; i < d->depth_transient_count; i++) {
        const kiln_depth_extent *e = &d->depth_transients[i].extent;
        if (!e->fixed && e->output.divided && e->output.divisor == 0)
            return FAIL(c, KILN_PROGRAM_ZERO_DIVISOR, "depth transient %u: Output(Divided) extent with divisor 0", i);
    }
    return true;
}

bool program_check_geometry_slots(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->geometry_count; i++) {
        kiln_geometry_error why;
        if (program_layout_check(&c->desc->geometries[i], &why) != KILN_GEOMETRY_OK)
            return FAIL(c, KILN_PROGRAM_BAD_GEOMETRY_SLOT, "geometry slot %u: %s (%s)", i, why.message,
                        kiln_geometry_class_name(why.cls));
    }
    return true;
}

/* A draw-sets pass's two layouts: each a valid layout, sharing no location (buffer 0 and buffer 1
 * bind at the locations their layouts declare; nothing is renumbered). */
bool program_check_draw_sets_layouts(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_sets(p)) continue;
        const kiln_geometry_layout *v = &p->draw_sets.vertex_layout, *n = &p->draw_sets.instance_layout;
        kiln_geometry_error why;
        if (program_layout_check(v, &why) != KILN_GEOMETRY_OK)
            return FAIL(c, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT, "pass %u: vertex_layout: %s (%s)", i, why.message,
                        kiln_geometry_class_name(why.cls));
        if (program_layout_check(n, &why) != KILN_GEOMETRY_OK)
            return FAIL(c, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT, "pass %u: instance_layout: %s (%s)", i, why.message,
                        kiln_geometry_class_name(why.cls));
        for (uint32_t a = 0; a < n->attribute_count; a++)
            if (validate_find_location(v, n->attributes[a].location))
                return FAIL(c, KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT,
                            "pass %u: instance_layout[%u]: location %u is the vertex layout's too; the two layouts "
                            "share no location", i, a, n->attributes[a].location);
    }
    return true;
}

bool program_check_depth_sides(const check_ctx *c) {
    uint32_t max = c->caps.max_texture_dimension_2d ? c->caps.max_texture_dimension_2d : 8192;
    for (uint32_t i = 0; i < c->desc->depth_transient_count; i++) {
        const kiln_depth_extent *e = &c->desc->depth_transients[i].extent;
        if (e->fixed && (e->side == 0 || e->side > max))
            return FAIL(c, KILN_PROGRAM_BAD_DEPTH_SIDE,
                        "depth transient %u: Fixed side %u is outside 1..%u (the device's maxTextureDimension2D)", i,
                        e->side, max);
    }
    return true;
}

/* Refused whether or not a pass reads the transient: the declaration itself cannot be honoured. */
bool program_check_samples(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->transient_count; i++) {
        const kiln_transient_spec *t = &d->transients[i];
        if (t->samples == KILN_SAMPLES_FOUR && !kiln_texture_format_resolvable(t->format))
            return FAIL(c, KILN_PROGRAM_UNRESOLVABLE_SAMPLES, "transient %u: a Four transient of %s cannot be resolved",
                        i, kiln_texture_format_name(t->format));
    }
    return true;
}


/* ---- program buffers, compute passes and indirect draws ------------------------------------------ */

bool program_check_buffers(const check_ctx *c) {
    uint64_t max = c->caps.max_storage_buffer_binding_size ? c->caps.max_storage_buffer_binding_size : 128u << 20;
    for (uint32_t i = 0; i < c->desc->buffer_count; i++) {
        uint32_t size = c->desc->buffers[i].size;
        if (size == 0 || size % 4 || size > max)
            return FAIL(c, KILN_PROGRAM_BAD_BUFFER,
                        "buffer %u: %u bytes; a program buffer is a non-zero multiple of 4 bytes, at most %llu (the "
                        "device's maxStorageBufferBindingSize)", i, size, (unsigned long long)max);
    }
    return true;
}

bool program_check_buffer_uses(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->buffer_count > KILN_PROGRAM_MAX_BUFFER_USES)
            return FAIL(c, KILN_PROGRAM_BAD_BUFFER_USE, "pass %u: %u buffers bound; a pass binds at most %d", i,
                        p->buffer_count, KILN_PROGRAM_MAX_BUFFER_USES);
        for (uint32_t k = 0; k < p->buffer_count; k++) {
            const kiln_buffer_use *u = &p->buffers[k];
            if (u->index >= d->buffer_count)
                return FAIL(c, KILN_PROGRAM_BAD_BUFFER_USE,
                            "pass %u: buffer use %u names buffer %u, which is out of range (the program declares %u "
                            "buffer%s)", i, k, u->index, d->buffer_count, plural(d->buffer_count));
            for (uint32_t j = 0; j < k; j++)
                if (p->buffers[j].index == u->index)
                    return FAIL(c, KILN_PROGRAM_BAD_BUFFER_USE, "pass %u: buffer use %u binds buffer %u, which use %u "
                                "binds already", i, k, u->index, j);
            if (u->write && !is_compute(p))
                return FAIL(c, KILN_PROGRAM_BAD_BUFFER_USE,
                            "pass %u: buffer use %u writes buffer %u; only a compute pass writes a program buffer", i,
                            k, u->index);
        }
    }
    return true;
}

bool program_check_compute_output(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_compute(p)) continue;
        if (p->output.kind != KILN_OUTPUT_NONE)
            return FAIL(c, KILN_PROGRAM_COMPUTE_OUTPUT, "pass %u: a compute pass must declare OutputSlot::None", i);
        if (p->blend != KILN_PROGRAM_BLEND_REPLACE)
            return FAIL(c, KILN_PROGRAM_COMPUTE_OUTPUT,
                        "pass %u: a compute pass declares blend Replace, not %s (it has no colour output)", i,
                        program_form_name(&PROGRAM_BLENDS, p->blend));
    }
    return true;
}

/* Counts from the output need the entry point's workgroup size as constants; a missing entry point
 * is missing_entry_point's to report. */
bool program_check_workgroups(const check_ctx *c) {
    uint32_t max = c->caps.max_compute_workgroups_per_dimension ? c->caps.max_compute_workgroups_per_dimension : 65535;
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_compute(p)) continue;
        const kiln_compute_spec *w = &p->compute;
        if (!w->from_output) {
            if (w->x == 0 || w->y == 0 || w->z == 0 || w->x > max || w->y > max || w->z > max)
                return FAIL(c, KILN_PROGRAM_BAD_WORKGROUPS,
                            "pass %u: workgroup counts %u x %u x %u; each is 1..%u (the device's "
                            "maxComputeWorkgroupsPerDimension)", i, w->x, w->y, w->z, max);
            continue;
        }
        const kiln_wgsl_entry *e = p->entry_point ? kiln_wgsl_find_entry(c->module, p->entry_point) : NULL;
        if (e && e->stage == KILN_WGSL_STAGE_COMPUTE && (!e->workgroup_size[0] || !e->workgroup_size[1]))
            return FAIL(c, KILN_PROGRAM_BAD_WORKGROUPS,
                        "pass %u: counts from the output need %s's @workgroup_size as integer constants", i, e->name);
    }
    return true;
}

bool program_check_indirect(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->stage != KILN_STAGE_DRAW_INDEXED_INDIRECT) continue;
        uint32_t b = p->draw.args_buffer, at = p->draw.args_offset;
        if (b >= d->buffer_count)
            return FAIL(c, KILN_PROGRAM_BAD_INDIRECT,
                        "pass %u: argument buffer %u is out of range (the program declares %u buffer%s)", i, b,
                        d->buffer_count, plural(d->buffer_count));
        if (at % 4 || (uint64_t)at + 20 > d->buffers[b].size)
            return FAIL(c, KILN_PROGRAM_BAD_INDIRECT,
                        "pass %u: arguments at offset %u of buffer %u (%u bytes) are not 20 bytes at a multiple of 4",
                        i, at, b, d->buffers[b].size);
    }
    return true;
}

bool program_check_outputs(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        kiln_output_slot out = d->passes[i].output;
        if (out.kind == KILN_OUTPUT_BINDING && out.index >= d->binding_count)
            return FAIL(c, KILN_PROGRAM_BAD_OUTPUT,
                        "pass %u: output binding %u is out of range (the program declares %u binding%s)", i, out.index,
                        d->binding_count, plural(d->binding_count));
        if (out.kind == KILN_OUTPUT_BINDING && d->bindings[out.index].shape.kind != KILN_SHAPE_TARGET)
            return FAIL(c, KILN_PROGRAM_BAD_OUTPUT,
                        "pass %u: output binding %u is a %s; a pass writes only Target bindings", i, out.index,
                        program_form_name(&PROGRAM_SHAPES, d->bindings[out.index].shape.kind));
        if (out.kind == KILN_OUTPUT_TRANSIENT && out.index >= d->transient_count)
            return FAIL(c, KILN_PROGRAM_BAD_OUTPUT,
                        "pass %u: output transient %u is out of range (the program declares %u transient%s)", i,
                        out.index, d->transient_count, plural(d->transient_count));
    }
    return true;
}

/* Only a draw pass (depth-only) may write no colour. */
bool program_check_missing_output(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (p->stage == KILN_STAGE_FRAGMENT && p->output.kind == KILN_OUTPUT_NONE)
            return FAIL(c, KILN_PROGRAM_MISSING_OUTPUT, "pass %u: a fragment pass must declare a texture output", i);
    }
    return true;
}
