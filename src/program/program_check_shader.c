/* The checks of a program's graph against its shader (program_check.h), as the WGSL scanner read
 * the module: entry points, vertex layouts, uniform windows, every input's texture and sampler,
 * program buffers, depth-only and frag_depth outputs, and blendable targets. */
#include "program_check.h"

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

bool program_check_entry_points(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!p->entry_point || !p->entry_point[0])
            return FAIL(c, KILN_PROGRAM_MISSING_ENTRY_POINT, "pass %u: names no entry point", i);
        if (fragment_entry(c, p)) continue;
        const kiln_wgsl_entry *e = kiln_wgsl_find_entry(c->module, p->entry_point);
        const char *want = is_compute(p) ? "@compute" : "@fragment";
        if (e)
            return FAIL(c, KILN_PROGRAM_MISSING_ENTRY_POINT,
                        "pass %u: entry point '%s' is not a %s function in the module (it is @%s)", i,
                        p->entry_point, want, kiln_wgsl_stage_name(e->stage));
        return FAIL(c, KILN_PROGRAM_MISSING_ENTRY_POINT, "pass %u: entry point '%s' is not a %s function in the module",
                    i, p->entry_point, want);
    }
    return true;
}

bool program_check_vertex_entries(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_draw(p) || vertex_entry(c, p)) continue;
        const char *name = vertex_entry_name(p);
        if (!name || !name[0])
            return FAIL(c, KILN_PROGRAM_MISSING_VERTEX_ENTRY, "pass %u: a draw pass names no vertex entry point", i);
        const kiln_wgsl_entry *e = kiln_wgsl_find_entry(c->module, name);
        if (e)
            return FAIL(c, KILN_PROGRAM_MISSING_VERTEX_ENTRY,
                        "pass %u: vertex entry point '%s' is not a @vertex function in the module (it is @%s)", i,
                        name, kiln_wgsl_stage_name(e->stage));
        return FAIL(c, KILN_PROGRAM_MISSING_VERTEX_ENTRY,
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

/* "geometry slot 0" for a draw pass; "the pass's instance layout" for a draw-sets pass. */
static const char *layout_source(const kiln_pass_spec *p, bool instance, char *buf, size_t size) {
    if (!is_sets(p)) snprintf(buf, size, "geometry slot %u", p->draw.geometry);
    else snprintf(buf, size, "the pass's %s layout", instance ? "instance" : "vertex");
    return buf;
}

/* Every @location the vertex stage reads is declared by the layouts it draws from (a draw pass:
 * its geometry slot's; a draw-sets pass: its vertex and instance layouts together) and read as the
 * type its format is consumed as; attributes the stage ignores are fine. */
bool program_check_vertex_layouts(const check_ctx *c) {
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
            const kiln_vertex_attribute_spec *attr = validate_find_location(vertex, (uint32_t)io->attrs.location);
            bool from_instance = !attr && instance;
            if (from_instance) attr = validate_find_location(instance, (uint32_t)io->attrs.location);
            char text[160], more[160], type[96], want[32], source[48];
            if (!attr && instance)
                return FAIL(c, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
                            "pass %u: %s reads @location(%d), which neither of the pass's layouts declares (vertex %s, "
                            "instance %s)", i, e->name, io->attrs.location, program_layout_text(vertex, text, sizeof text),
                            program_layout_text(instance, more, sizeof more));
            if (!attr)
                return FAIL(c, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH,
                            "pass %u: %s reads @location(%d), which geometry slot %u does not declare (its layout is "
                            "%s)", i, e->name, io->attrs.location, p->draw.geometry,
                            program_layout_text(vertex, text, sizeof text));
            const program_vertex_format *f = program_vertex_format_of(attr->format);
            kiln_wgsl_scalar scalar = KILN_WGSL_SCALAR_NONE;
            uint32_t count = 0;
            if (kiln_wgsl_type_components(c->module, io->type, &scalar, &count) && scalar == f->scalar &&
                count == f->components)
                continue;
            return FAIL(c, KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH, "pass %u: %s reads @location(%d) as %s; %s declares it %s, read as %s",
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
        return FAIL(c, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
                    "pass %u: %s declares a %s at @group(0) @binding(0), where the uniform window binds a "
                    "var<uniform>", i, e->name, kiln_wgsl_type_name(c->module, block->type, type, sizeof type));
    /* Dawn refuses a broken uniform layout at compile; the scanner agreeing is the usual case. */
    if (!kiln_wgsl_uniform_block_size(c->module, e, 0, 0, &size, &why))
        return FAIL(c, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
                    "pass %u: the block %s declares at @group(0) @binding(0) breaks a uniform layout rule: %s", i,
                    e->name, why.message);
    if (p->uniform_length < size)
        return FAIL(c, KILN_PROGRAM_UNIFORM_WINDOW_SHORT,
                    "pass %u: uniform window of %u bytes does not cover the %u-byte block %s declares at "
                    "@group(0) @binding(0)", i, p->uniform_length, size, e->name);
    return true;
}

bool program_check_uniform_windows(const check_ctx *c) {
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
        return FAIL(c, KILN_PROGRAM_INPUT_MISMATCH,
                    "pass %u: input %u (%s) is declared %s at @group(1) @binding(%u) in %s; it must be texture_depth_2d",
                    pass, n, validate_describe_input(d, in, false, what, sizeof what),
                    kiln_wgsl_type_name(c->module, v->type, type, sizeof type), 2 * n, e->name);
    }
    kiln_wgsl_handle want = validate_slot_texture(d, validate_input_slot(d, in));
    if (t->kind == KILN_WGSL_TYPE_TEXTURE && t->handle == want && t->scalar == KILN_WGSL_SCALAR_F32) return true;
    return FAIL(c, KILN_PROGRAM_INPUT_MISMATCH,
                "pass %u: input %u (%s) is declared %s at @group(1) @binding(%u); it must be %s<f32>", pass, n,
                validate_describe_input(d, in, false, what, sizeof what),
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
        return FAIL(c, KILN_PROGRAM_INPUT_MISMATCH,
                    "pass %u: input %u (%s) has a %s declared at @group(1) @binding(%u)%s", pass, n,
                    validate_describe_input(d, in, false, what, sizeof what),
                    kiln_wgsl_type_name(c->module, v->type, type, sizeof type), 2 * n + 1,
                    compare ? ", where its sampler_comparison binds" : "; a Texel depth read binds no sampler");
    }
    bool texel = validate_slot_is_texel(d, validate_input_slot(d, in));
    if (!texel && is_sampler(t) && t->handle == KILN_WGSL_SAMPLER) return true;
    char what[96], type[96];
    validate_describe_input(d, in, true, what, sizeof what);
    kiln_wgsl_type_name(c->module, v->type, type, sizeof type);
    const char *why = texel ? ""
                    : t->handle == KILN_WGSL_SAMPLER_COMPARISON ? "; only a Depth Compare input binds one"
                    : ", where its sampler binds";
    return FAIL(c, KILN_PROGRAM_INPUT_MISMATCH, "pass %u: input %u (%s) has a %s declared at @group(1) @binding(%u)%s",
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
        return FAIL(c, KILN_PROGRAM_INPUT_MISMATCH,
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
        return FAIL(c, KILN_PROGRAM_INPUT_MISMATCH,
                    "pass %u: %s returns nothing at @location(0); a pass returns its colour there as vec4<f32>", pass,
                    e->name);
    if (kiln_wgsl_type_components(c->module, colour->type, &scalar, &count) && scalar == KILN_WGSL_SCALAR_F32 &&
        count == 4)
        return true;
    char type[96];
    return FAIL(c, KILN_PROGRAM_INPUT_MISMATCH,
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

bool program_check_shader_inputs(const check_ctx *c) {
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
            return FAIL(c, KILN_PROGRAM_BUFFER_MISMATCH,
                        "pass %u: %s declares a %s at @group(2) @binding(%d), which no buffer use explains (the pass "
                        "binds %u buffer%s)", pass, e->name, kiln_wgsl_type_name(m, v->type, type, sizeof type),
                        v->binding, p->buffer_count, plural(p->buffer_count));
        const kiln_buffer_use *u = &p->buffers[v->binding];
        kiln_wgsl_access want = u->write ? KILN_WGSL_ACCESS_READ_WRITE : KILN_WGSL_ACCESS_READ;
        if (v->space == KILN_WGSL_SPACE_STORAGE && v->access == want) continue;
        return FAIL(c, KILN_PROGRAM_BUFFER_MISMATCH,
                    "pass %u: %s declares %s at @group(2) @binding(%d); buffer use %d (buffer %u) binds there as "
                    "var<storage, %s>", pass, e->name, v->name, v->binding, v->binding, u->index,
                    u->write ? "read_write" : "read");
    }
    return true;
}

bool program_check_buffer_bindings(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!check_stage_buffers(c, i, fragment_entry(c, p))) return false;
        if (is_draw(p) && !check_stage_buffers(c, i, vertex_entry(c, p))) return false;
    }
    return true;
}

/* A depth-only pass's fragment stage returns nothing, or frag_depth alone. */
bool program_check_depth_only_color(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        if (!is_depth_only(p)) continue;
        const kiln_wgsl_entry *e = fragment_entry(c, p);
        for (uint32_t k = 0; k < e->output_count; k++)
            if (e->outputs[k].attrs.location >= 0)
                return FAIL(c, KILN_PROGRAM_DEPTH_ONLY_COLOR,
                            "pass %u: %s returns a colour at @location(%d), and the pass is depth-only (output None); "
                            "it returns nothing or @builtin(frag_depth) alone", i, e->name,
                            e->outputs[k].attrs.location);
    }
    return true;
}

bool program_check_frag_depth(const check_ctx *c) {
    for (uint32_t i = 0; i < c->desc->pass_count; i++) {
        const kiln_pass_spec *p = &c->desc->passes[i];
        const kiln_wgsl_entry *e = fragment_entry(c, p);
        if (!kiln_wgsl_entry_output_builtin(e, KILN_WGSL_BUILTIN_FRAG_DEPTH) || names_depth(p)) continue;
        return FAIL(c, KILN_PROGRAM_UNDECLARED_DEPTH,
                    "pass %u: %s writes @builtin(frag_depth), and the pass attaches no depth slot to write it into", i,
                    e->name);
    }
    return true;
}

/* The one pipeline failure the CPU can predict; Dawn's own refusals come later, at creation. */
bool program_check_blendable(const check_ctx *c) {
    const kiln_program_desc *d = c->desc;
    for (uint32_t i = 0; i < d->pass_count; i++) {
        const kiln_pass_spec *p = &d->passes[i];
        if (p->blend == KILN_PROGRAM_BLEND_REPLACE || c->caps.float32_blendable || p->output.kind == KILN_OUTPUT_NONE)
            continue;
        kiln_texture_format format = validate_slot_format(d, p->output);
        if (format == KILN_FORMAT_R32_FLOAT)
            return FAIL(c, KILN_PROGRAM_PIPELINE_FAILED,
                        "pass %u: %s blending onto an %s output needs the float32-blendable feature, which this "
                        "device lacks", i, program_form_name(&PROGRAM_BLENDS, p->blend),
                        kiln_texture_format_name(format));
    }
    return true;
}
