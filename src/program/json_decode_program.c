/* The program.register message into a kiln_program_desc (program_json.h): bindings, transients,
 * depth slots, geometry slots, buffers and passes, each pass's stage, inputs, output, repeat and
 * buffer uses, decoded with json_fields.h's readers. */
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"
#include "program_layout.h"

/* ---- program.register ------------------------------------------------------------------------- */

static bool decode_slot_spec(const json_t *v, const char *fp, kiln_slot_spec *out, kiln_json_error *err) {
    json_t *shape, *sampling;
    char pp[PATH_MAX_CHARS];
    if (!msg_as_object(v, fp, err) || !msg_field_format(v, fp, &out->format, err)) return false;
    msg_path_field(pp, fp, "shape");
    if (!msg_field(v, fp, "shape", true, &shape, err) || !msg_decode_shape(shape, pp, &out->shape, err)) return false;
    msg_path_field(pp, fp, "sampling");
    return msg_field(v, fp, "sampling", true, &sampling, err) && msg_decode_sampling(sampling, pp, &out->sampling, err);
}

static bool decode_transient_spec(const json_t *v, const char *fp, kiln_transient_spec *out, kiln_json_error *err) {
    json_t *extent;
    char pp[PATH_MAX_CHARS];
    int s;
    if (!msg_as_object(v, fp, err) || !msg_field_format(v, fp, &out->format, err)) return false;
    msg_path_field(pp, fp, "extent");
    if (!msg_field(v, fp, "extent", true, &extent, err) || !msg_decode_extent(extent, pp, &out->extent, err) ||
        !msg_field_unit_enum(v, fp, "samples", &PROGRAM_SAMPLES, &s, err))
        return false;
    out->samples = (kiln_samples)s;
    return true;
}

/* {"vertex_entry_point", "geometry", "depth": u32 or null, "load"}: depth is required and null
 * when the pass does not depth-test. */
static bool decode_draw(const json_t *v, const char *fp, kiln_draw_spec *out, kiln_json_error *err) {
    json_t *depth;
    char dp[PATH_MAX_CHARS];
    int load;
    msg_path_field(dp, fp, "depth");
    if (!msg_field_string(v, fp, "vertex_entry_point", &out->vertex_entry_point, err) ||
        !msg_field_u32(v, fp, "geometry", &out->geometry, err) || !msg_field(v, fp, "depth", true, &depth, err) ||
        !msg_field_unit_enum(v, fp, "load", &PROGRAM_LOADS, &load, err))
        return false;
    out->load = (kiln_pass_load)load;
    out->depth = !json_is_null(depth);
    return !out->depth || msg_as_u32(depth, dp, &out->depth_slot, err);
}

/* {"vertex_entry_point", "vertex_layout", "instance_layout", "draw_sets", "cull", "depth": null or
 * {"slot", "write"}, "load"}, as the spec's example writes it. */
static bool decode_draw_sets(const json_t *v, const char *fp, kiln_draw_sets_spec *out, kiln_json_error *err) {
    json_t *depth;
    char dp[PATH_MAX_CHARS];
    int cull, load, write;
    msg_path_field(dp, fp, "depth");
    if (!msg_field_string(v, fp, "vertex_entry_point", &out->vertex_entry_point, err) ||
        !msg_field_layout(v, fp, "vertex_layout", &out->vertex_layout, err) ||
        !msg_field_layout(v, fp, "instance_layout", &out->instance_layout, err) ||
        !msg_field_u32(v, fp, "draw_sets", &out->list, err) ||
        !msg_field_unit_enum(v, fp, "cull", &PROGRAM_CULLS, &cull, err) ||
        !msg_field(v, fp, "depth", true, &depth, err) ||
        !msg_field_unit_enum(v, fp, "load", &PROGRAM_LOADS, &load, err))
        return false;
    out->cull = (kiln_cull)cull;
    out->load = (kiln_pass_load)load;
    out->depth = !json_is_null(depth);
    if (!out->depth) return true;
    if (!msg_as_object(depth, dp, err) || !msg_field_u32(depth, dp, "slot", &out->depth_slot, err) ||
        !msg_field_unit_enum(depth, dp, "write", &PROGRAM_DEPTH_WRITES, &write, err))
        return false;
    out->depth_write = (kiln_depth_write)write;
    return true;
}

/* {"workgroups": [x, y, z]} or {"workgroups": "Output"}. */
static bool decode_compute(const json_t *v, const char *fp, kiln_compute_spec *out, kiln_json_error *err) {
    json_t *w;
    char wp[PATH_MAX_CHARS];
    msg_path_field(wp, fp, "workgroups");
    if (!msg_field(v, fp, "workgroups", true, &w, err)) return false;
    if (json_is_string(w) && strcmp(json_string_value(w), "Output") == 0) {
        out->from_output = true;
        return true;
    }
    if (!json_is_array(w) || json_array_size(w) != 3)
        return BAD(err, "%s: expected \"Output\" or an array of three workgroup counts", wp);
    uint32_t *counts[3] = {&out->x, &out->y, &out->z};
    for (size_t i = 0; i < 3; i++) {
        char ep[PATH_MAX_CHARS];
        msg_path_index(ep, wp, i);
        if (!msg_as_u32(json_array_get(w, i), ep, counts[i], err)) return false;
    }
    return true;
}

/* A pass's optional "buffers": [{"index", "write"}]. */
static bool decode_buffer_uses(const json_t *pass, const char *fp, kiln_pass_spec *out, kiln_json_error *err) {
    json_t *list;
    char lp[PATH_MAX_CHARS];
    msg_path_field(lp, fp, "buffers");
    if (!msg_field(pass, fp, "buffers", false, &list, err)) return false;
    if (!list) return true;
    if (!msg_as_array(list, lp, err)) return false;
    if (json_array_size(list) > KILN_PROGRAM_MAX_BUFFER_USES)
        return BAD(err, "%s: at most %d buffers, got %zu", lp, KILN_PROGRAM_MAX_BUFFER_USES, json_array_size(list));
    out->buffer_count = (uint32_t)json_array_size(list);
    for (uint32_t k = 0; k < out->buffer_count; k++) {
        char ep[PATH_MAX_CHARS];
        json_t *u = json_array_get(list, k), *write;
        msg_path_index(ep, lp, k);
        if (!msg_as_object(u, ep, err) || !msg_field_u32(u, ep, "index", &out->buffers[k].index, err) ||
            !msg_field(u, ep, "write", true, &write, err))
            return false;
        if (!json_is_boolean(write)) return BAD(err, "%s.write: expected a boolean, got %s", ep, msg_type_name(write));
        out->buffers[k].write = json_is_true(write);
    }
    return true;
}

/* "Fragment" is a string; {"Draw": DrawPass}, {"DrawIndexedIndirect": DrawPass plus "args"},
 * {"DrawSets": DrawSetsPass} and {"Compute": ComputePass} are read whole. */
static bool decode_stage(const json_t *v, const char *fp, kiln_pass_spec *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!msg_decode_form(v, fp, &PROGRAM_STAGES, &form, &payload, err)) return false;
    msg_path_payload(pp, fp, &PROGRAM_STAGES, form);
    if (payload && !msg_as_object(payload, pp, err)) return false;
    out->stage = (kiln_pass_stage)form;
    if (out->stage == KILN_STAGE_DRAW_SETS) return decode_draw_sets(payload, pp, &out->draw_sets, err);
    if (out->stage == KILN_STAGE_COMPUTE) return decode_compute(payload, pp, &out->compute, err);
    if (out->stage == KILN_STAGE_DRAW_INDEXED_INDIRECT) {
        json_t *args;
        char ap[PATH_MAX_CHARS];
        msg_path_field(ap, pp, "args");
        return decode_draw(payload, pp, &out->draw, err) && msg_field(payload, pp, "args", true, &args, err) &&
               msg_as_object(args, ap, err) && msg_field_u32(args, ap, "buffer", &out->draw.args_buffer, err) &&
               msg_field_u32(args, ap, "offset", &out->draw.args_offset, err);
    }
    return out->stage != KILN_STAGE_DRAW || decode_draw(payload, pp, &out->draw, err);
}

/* {"Binding"|"Transient": {"index"}}, {"PassOutput": {"pass"}}, {"Depth": {"index", "read"}}. */
static bool decode_input(const json_t *v, const char *fp, kiln_input_slot *out, kiln_json_error *err) {
    int form, read;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!msg_decode_form(v, fp, &PROGRAM_INPUTS, &form, &payload, err)) return false;
    msg_path_payload(pp, fp, &PROGRAM_INPUTS, form);
    if (!msg_as_object(payload, pp, err)) return false;
    *out = (kiln_input_slot){.kind = (kiln_input_kind)form};
    if (!msg_field_u32(payload, pp, out->kind == KILN_INPUT_PASS_OUTPUT ? "pass" : "index", &out->index, err))
        return false;
    if (out->kind != KILN_INPUT_DEPTH) return true;
    if (!msg_field_unit_enum(payload, pp, "read", &PROGRAM_DEPTH_READS, &read, err)) return false;
    out->depth_read = (kiln_depth_read)read;
    return true;
}

static bool decode_output(const json_t *v, const char *fp, kiln_output_slot *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!msg_decode_form(v, fp, &PROGRAM_OUTPUTS, &form, &payload, err)) return false;
    *out = (kiln_output_slot){.kind = (kiln_output_kind)form};
    if (out->kind == KILN_OUTPUT_NONE) return true;
    msg_path_payload(pp, fp, &PROGRAM_OUTPUTS, form);
    return msg_as_object(payload, pp, err) && msg_field_u32(payload, pp, "index", &out->index, err);
}

static bool decode_repeat(const json_t *pass, const char *fp, uint32_t pass_index, kiln_pass_spec *out,
                          kiln_json_error *err) {
    json_t *repeat;
    char pp[PATH_MAX_CHARS];
    msg_path_field(pp, fp, "repeat");
    if (!msg_field(pass, fp, "repeat", false, &repeat, err)) return false;
    if (!repeat) return true;
    if (!msg_as_object(repeat, pp, err) || !msg_field_u32(repeat, pp, "count", &out->repeat_count, err) ||
        !msg_field_u32(repeat, pp, "uniform_stride", &out->repeat_uniform_stride, err))
        return false;
    /* The desc spells "no repeat" as count 0, so a declared count of 0 is refused here, by the
     * class register gives any other count outside 1..4096. */
    if (out->repeat_count == 0)
        return kiln_json_error_set(err, kiln_program_class_name(KILN_PROGRAM_BAD_REPEAT),
                                   "pass %u: repeat count 0 is outside 1..%d", pass_index, KILN_PROGRAM_MAX_REPEAT);
    return true;
}

static bool decode_pass(const json_t *v, const char *fp, uint32_t pass_index, kiln_pass_spec *out,
                        kiln_json_error *err) {
    json_t *stage, *inputs, *output;
    char pp[PATH_MAX_CHARS];
    int blend;
    *out = (kiln_pass_spec){0};
    if (!msg_as_object(v, fp, err)) return false;
    msg_path_field(pp, fp, "stage");
    if (!msg_field(v, fp, "stage", true, &stage, err) || !decode_stage(stage, pp, out, err) ||
        !msg_field_string(v, fp, "entry_point", &out->entry_point, err) ||
        !msg_field_array(v, fp, "inputs", &inputs, err))
        return false;
    msg_path_field(pp, fp, "inputs");
    if (json_array_size(inputs) > KILN_PROGRAM_MAX_INPUTS)
        return BAD(err, "%s: at most %d inputs, got %zu", pp, KILN_PROGRAM_MAX_INPUTS, json_array_size(inputs));
    out->input_count = (uint32_t)json_array_size(inputs);
    for (uint32_t i = 0; i < out->input_count; i++) {
        char ip[PATH_MAX_CHARS];
        msg_path_index(ip, pp, i);
        if (!decode_input(json_array_get(inputs, i), ip, &out->inputs[i], err)) return false;
    }
    msg_path_field(pp, fp, "output");
    if (!msg_field(v, fp, "output", true, &output, err) || !decode_output(output, pp, &out->output, err) ||
        !msg_field_unit_enum(v, fp, "blend", &PROGRAM_BLENDS, &blend, err) ||
        !msg_field_u32(v, fp, "uniform_offset", &out->uniform_offset, err) ||
        !msg_field_u32(v, fp, "uniform_length", &out->uniform_length, err))
        return false;
    out->blend = (kiln_program_blend)blend;
    return decode_repeat(v, fp, pass_index, out, err) && decode_buffer_uses(v, fp, out, err);
}

static bool geometry_slot_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    json_t *layout;
    char lp[PATH_MAX_CHARS];
    msg_path_field(lp, fp, "layout");
    return msg_as_object(v, fp, err) && msg_field(v, fp, "layout", true, &layout, err) &&
           msg_decode_layout(layout, lp, out, err);
}

/* {"Output": SlotExtent} or {"Fixed": {"side": N}}. */
static bool decode_depth_extent(const json_t *v, const char *fp, kiln_depth_extent *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!msg_decode_form(v, fp, &PROGRAM_DEPTH_EXTENTS, &form, &payload, err)) return false;
    msg_path_payload(pp, fp, &PROGRAM_DEPTH_EXTENTS, form);
    *out = (kiln_depth_extent){.fixed = form == PROGRAM_DEPTH_EXTENT_FIXED};
    if (!out->fixed) return msg_decode_extent(payload, pp, &out->output, err);
    return msg_as_object(payload, pp, err) && msg_field_u32(payload, pp, "side", &out->side, err);
}

static bool depth_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    kiln_depth_spec *d = out;
    json_t *extent;
    char ep[PATH_MAX_CHARS];
    int samples;
    msg_path_field(ep, fp, "extent");
    if (!msg_as_object(v, fp, err) || !msg_field(v, fp, "extent", true, &extent, err) ||
        !decode_depth_extent(extent, ep, &d->extent, err) ||
        !msg_field_unit_enum(v, fp, "samples", &PROGRAM_SAMPLES, &samples, err))
        return false;
    d->samples = (kiln_samples)samples;
    return true;
}

static bool buffer_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    return msg_as_object(v, fp, err) && msg_field_u32(v, fp, "size", &((kiln_buffer_spec *)out)->size, err);
}

static bool slot_spec_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    return decode_slot_spec(v, fp, out, err);
}

static bool transient_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    return decode_transient_spec(v, fp, out, err);
}

bool kiln_json_decode_program(const json_t *message, kiln_json_program *out, kiln_json_error *err) {
    *out = (kiln_json_program){0};
    kiln_program_desc *d = &out->desc;
    void *bindings = NULL, *transients = NULL, *geometries = NULL, *depths = NULL;
    json_t *passes;
    bool ok = msg_field_optional_string(message, "", "label", &d->label, err) &&
              msg_field_string(message, "", "wgsl", &d->wgsl, err) &&
              msg_decode_list(message, "bindings", sizeof(kiln_slot_spec), slot_spec_element, &bindings,
                              &d->binding_count, err) &&
              msg_decode_list(message, "transients", sizeof(kiln_transient_spec), transient_element, &transients,
                              &d->transient_count, err) &&
              msg_decode_list(message, "geometries", sizeof(kiln_geometry_layout), geometry_slot_element, &geometries,
                              &d->geometry_count, err) &&
              msg_decode_list(message, "depth_transients", sizeof(kiln_depth_spec), depth_element, &depths,
                              &d->depth_transient_count, err) &&
              msg_field_array(message, "", "passes", &passes, err);
    out->bindings = bindings;
    out->transients = transients;
    out->geometries = geometries;
    out->depth_transients = depths;
    /* "buffers" is kiln's own (docs/adr/002-program-compute-and-indirect-draws.md): optional, absent for none. */
    if (ok && json_object_get(message, "buffers")) {
        void *buffers = NULL;
        ok = msg_decode_list(message, "buffers", sizeof(kiln_buffer_spec), buffer_element, &buffers, &d->buffer_count,
                             err);
        out->buffers = buffers;
    }
    if (!ok) {
        kiln_json_program_free(out);
        return false;
    }
    d->pass_count = (uint32_t)json_array_size(passes);
    out->passes = calloc(d->pass_count ? d->pass_count : 1, sizeof *out->passes);
    if (!out->passes) {
        kiln_json_program_free(out);
        return kiln_json_error_set(err, "out_of_memory", "passes: %u elements", d->pass_count);
    }
    for (uint32_t i = 0; i < d->pass_count; i++) {
        char fp[PATH_MAX_CHARS];
        msg_path_index(fp, "passes", i);
        if (!decode_pass(json_array_get(passes, i), fp, i, &out->passes[i], err)) {
            kiln_json_program_free(out);
            return false;
        }
    }
    d->bindings = out->bindings;
    d->transients = out->transients;
    d->geometries = out->geometries;
    d->depth_transients = out->depth_transients;
    d->buffers = out->buffers;
    d->passes = out->passes;
    return true;
}

void kiln_json_program_free(kiln_json_program *p) {
    if (!p) return;
    free(p->bindings);
    free(p->transients);
    free(p->geometries);
    free(p->depth_transients);
    free(p->buffers);
    free(p->passes);
    *p = (kiln_json_program){0};
}
