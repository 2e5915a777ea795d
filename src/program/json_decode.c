/* JSON messages into the C descriptors: the enum forms, blobs and field checks of the JSON surface.
 *
 * Enums are externally tagged, as the spec's JSON writes them: a form without a payload is a string
 * ("Full", "Texel"), a form with one is an object of exactly one key ({"Binding": {"index": 0}}).
 * The form names are program_forms.c's tables. Every refusal names the field path it is about
 * (`passes[2].inputs[0]: unknown input form "Bindng"`), and every decoder either fills its whole
 * result or frees what it had built, so a caller acts on a message only once all of it has
 * decoded. Fields the surface does not know are ignored, as the spec's codec ignores them; a
 * missing required field is an error, never a default. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <kiln/core/base64.h>
#include <kiln/core/utf8.h>
#include <kiln/program_json.h>

#include "program_forms.h"
#include "program_layout.h"

#define PATH_MAX_CHARS 256

/* ---- errors and paths ------------------------------------------------------------------------- */

static bool fail(kiln_json_error *err, const char *cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(kiln_json_error *err, const char *cls, const char *fmt, ...) {
    if (!err) return false;
    snprintf(err->cls, sizeof err->cls, "%s", cls);
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(err->message, sizeof err->message, fmt, args);
    va_end(args);
    return false;
}

#define BAD(err, ...) fail((err), "bad_message", __VA_ARGS__)

static const char *type_name(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "an unknown value";
}

/* "passes[0]" + "entry_point" -> "passes[0].entry_point"; a top-level field is its bare name. */
/* Paths longer than PATH_MAX_CHARS are cut short: they only ever appear in messages. */
static void path_field(char out[PATH_MAX_CHARS], const char *path, const char *name) {
    int n = (path && *path) ? snprintf(out, PATH_MAX_CHARS, "%s.%s", path, name) : snprintf(out, PATH_MAX_CHARS, "%s", name);
    if (n < 0) out[0] = '\0';
}

static void path_index(char out[PATH_MAX_CHARS], const char *path, size_t i) {
    if (snprintf(out, PATH_MAX_CHARS, "%s[%zu]", path, i) < 0) out[0] = '\0';
}

/* ---- scalar fields ---------------------------------------------------------------------------- */

/* The field's value: NULL and true when an optional field is absent or null. */
static bool field(const json_t *obj, const char *path, const char *name, bool required, json_t **out,
                  kiln_json_error *err) {
    json_t *v = json_object_get(obj, name);
    if (!v || (!required && json_is_null(v))) {
        *out = NULL;
        if (!required) return true;
        char fp[PATH_MAX_CHARS];
        path_field(fp, path, name);
        return BAD(err, "%s: missing required field", fp);
    }
    *out = v;
    return true;
}

static bool as_u32(const json_t *v, const char *fp, uint32_t *out, kiln_json_error *err) {
    if (!json_is_integer(v)) return BAD(err, "%s: expected an unsigned 32-bit integer, got %s", fp, type_name(v));
    json_int_t n = json_integer_value(v);
    if (n < 0 || n > (json_int_t)UINT32_MAX)
        return BAD(err, "%s: expected an unsigned 32-bit integer, got %lld", fp, (long long)n);
    *out = (uint32_t)n;
    return true;
}

static bool as_string(const json_t *v, const char *fp, const char **out, kiln_json_error *err) {
    if (!json_is_string(v)) return BAD(err, "%s: expected a string, got %s", fp, type_name(v));
    *out = json_string_value(v);
    return true;
}

static bool as_array(const json_t *v, const char *fp, kiln_json_error *err) {
    return json_is_array(v) || BAD(err, "%s: expected an array, got %s", fp, type_name(v));
}

static bool as_object(const json_t *v, const char *fp, kiln_json_error *err) {
    return json_is_object(v) || BAD(err, "%s: expected an object, got %s", fp, type_name(v));
}

static bool field_u32(const json_t *obj, const char *path, const char *name, uint32_t *out, kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, name);
    return field(obj, path, name, true, &v, err) && as_u32(v, fp, out, err);
}

static bool field_string(const json_t *obj, const char *path, const char *name, const char **out,
                         kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, name);
    return field(obj, path, name, true, &v, err) && as_string(v, fp, out, err);
}

/* An optional string: NULL when absent or null. */
static bool field_optional_string(const json_t *obj, const char *path, const char *name, const char **out,
                                  kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, name);
    *out = NULL;
    return field(obj, path, name, false, &v, err) && (!v || as_string(v, fp, out, err));
}

static bool field_array(const json_t *obj, const char *path, const char *name, json_t **out, kiln_json_error *err) {
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, name);
    return field(obj, path, name, true, out, err) && as_array(*out, fp, err);
}

bool kiln_json_decode_u32_field(const json_t *message, const char *name, uint32_t *out, kiln_json_error *err) {
    return field_u32(message, "", name, out, err);
}

/* ---- enum forms ------------------------------------------------------------------------------- */

/* Splits an externally tagged value into its form name and payload (NULL for a string form). */
static bool enum_split(const json_t *v, const char *fp, const char *what, const char **name, json_t **payload,
                       kiln_json_error *err) {
    if (json_is_string(v)) {
        *name = json_string_value(v);
        *payload = NULL;
        return true;
    }
    if (!json_is_object(v))
        return BAD(err, "%s: expected %s form (a string or an object of one key), got %s", fp, what, type_name(v));
    if (json_object_size(v) != 1)
        return BAD(err, "%s: %s form is an object of exactly one key, got %zu keys", fp, what, json_object_size(v));
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)v, key, value) {
        *name = key;
        *payload = value;
    }
    return true;
}

/* Checks that form `name` was written with a payload exactly when it takes one. */
static bool payload_matches(const char *fp, const char *what, const char *name, const json_t *payload, bool takes,
                            kiln_json_error *err) {
    if (takes && !payload)
        return BAD(err, "%s: the %s form \"%s\" takes a payload: {\"%s\": ...}", fp, what, name, name);
    if (!takes && payload)
        return BAD(err, "%s: the %s form \"%s\" is written as the string \"%s\"", fp, what, name, name);
    return true;
}

/* One of e's forms: *value is its C value and *payload its payload (NULL for a string form). */
static bool decode_form(const json_t *v, const char *fp, const program_enum *e, int *value, json_t **payload,
                        kiln_json_error *err) {
    const char *name = NULL;
    if (!enum_split(v, fp, e->what, &name, payload, err)) return false;
    int i = program_form_find(e, name);
    if (i < 0) return BAD(err, "%s: unknown %s form \"%s\"", fp, e->what, name);
    if (!payload_matches(fp, e->what, name, *payload, e->forms[i].payload, err)) return false;
    *value = i;
    return true;
}

/* A required field holding one of e's forms, all of them written as strings. */
static bool field_unit_enum(const json_t *obj, const char *path, const char *name, const program_enum *e, int *out,
                            kiln_json_error *err) {
    json_t *v, *payload;
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, name);
    return field(obj, path, name, true, &v, err) && decode_form(v, fp, e, out, &payload, err);
}

/* The path of a form's payload: "bindings[0].shape" + "Target". */
static void path_payload(char out[PATH_MAX_CHARS], const char *fp, const program_enum *e, int value) {
    path_field(out, fp, e->forms[value].name);
}

static bool field_format(const json_t *obj, const char *path, kiln_texture_format *out, kiln_json_error *err) {
    json_t *v;
    const char *name = NULL;
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, "format");
    if (!field(obj, path, "format", true, &v, err) || !as_string(v, fp, &name, err)) return false;
    return kiln_texture_format_from_name(name, out) || BAD(err, "%s: unknown format \"%s\"", fp, name);
}

/* "Full" or {"Divided": {"divisor": N}}. A zero divisor decodes; register refuses it by class. */
static bool decode_extent(const json_t *v, const char *fp, kiln_slot_extent *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!decode_form(v, fp, &PROGRAM_EXTENTS, &form, &payload, err)) return false;
    *out = (kiln_slot_extent){.divided = form == PROGRAM_EXTENT_DIVIDED};
    if (!out->divided) return true;
    path_payload(pp, fp, &PROGRAM_EXTENTS, form);
    return as_object(payload, pp, err) && field_u32(payload, pp, "divisor", &out->divisor, err);
}

static bool decode_shape(const json_t *v, const char *fp, kiln_slot_shape *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!decode_form(v, fp, &PROGRAM_SHAPES, &form, &payload, err)) return false;
    *out = (kiln_slot_shape){.kind = (kiln_slot_shape_kind)form};
    if (out->kind != KILN_SHAPE_TARGET) return true;
    path_payload(pp, fp, &PROGRAM_SHAPES, form);
    return decode_extent(payload, pp, &out->extent, err);
}

static bool decode_sampling(const json_t *v, const char *fp, kiln_slot_sampling *out, kiln_json_error *err) {
    int form, wrap, mip;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!decode_form(v, fp, &PROGRAM_SAMPLINGS, &form, &payload, err)) return false;
    *out = (kiln_slot_sampling){.texel = form == PROGRAM_SAMPLING_TEXEL};
    if (out->texel) return true;
    path_payload(pp, fp, &PROGRAM_SAMPLINGS, form);
    if (!as_object(payload, pp, err) || !field_unit_enum(payload, pp, "wrap", &PROGRAM_WRAPS, &wrap, err) ||
        !field_unit_enum(payload, pp, "mips", &PROGRAM_MIPS, &mip, err))
        return false;
    out->wrap = (kiln_wrap)wrap;
    out->mips = (kiln_mips)mip;
    return true;
}

/* ---- blobs ------------------------------------------------------------------------------------ */

static bool decode_base64(const char *text, size_t length, const char *fp, kiln_json_blob *out, kiln_json_error *err) {
    kiln_error e;
    if (!kiln_base64_decode(text, length, &out->bytes, &out->size, &e))
        return fail(err, e.code == KILN_ERR_OUT_OF_MEMORY ? "out_of_memory" : "bad_message", "%s: %s", fp, e.message);
    return true;
}

static bool decode_byte_array(const json_t *v, const char *fp, kiln_json_blob *out, kiln_json_error *err) {
    size_t size = json_array_size(v);
    uint8_t *bytes = size ? malloc(size) : NULL;
    if (size && !bytes) return fail(err, "out_of_memory", "%s: %zu bytes", fp, size);
    for (size_t i = 0; i < size; i++) {
        const json_t *e = json_array_get(v, i);
        json_int_t n = json_is_integer(e) ? json_integer_value(e) : -1;
        if (n < 0 || n > 255) {
            free(bytes);
            if (json_is_integer(e)) return BAD(err, "%s[%zu]: expected a byte 0..255, got %lld", fp, i, (long long)n);
            return BAD(err, "%s[%zu]: expected a byte 0..255, got %s", fp, i, type_name(e));
        }
        bytes[i] = (uint8_t)n;
    }
    *out = (kiln_json_blob){bytes, size};
    return true;
}

bool kiln_json_decode_blob(const json_t *value, const char *path, kiln_json_blob *out, kiln_json_error *err) {
    *out = (kiln_json_blob){0};
    if (json_is_string(value))
        return decode_base64(json_string_value(value), json_string_length(value), path, out, err);
    if (json_is_array(value)) return decode_byte_array(value, path, out, err);
    return BAD(err, "%s: expected a blob (an array of bytes 0..255 or a base64 string), got %s", path,
               value ? type_name(value) : "nothing");
}

void kiln_json_blob_free(kiln_json_blob *blob) {
    if (!blob) return;
    free(blob->bytes);
    *blob = (kiln_json_blob){0};
}

char *kiln_json_base64_encode(const void *bytes, size_t size) { return kiln_base64_encode(bytes, size); }

/* ---- create_texture --------------------------------------------------------------------------- */

bool kiln_json_decode_create_texture(const json_t *message, kiln_json_texture *out, kiln_json_error *err) {
    *out = (kiln_json_texture){0};
    int usage, sampling;
    json_t *pixels;
    if (!field_format(message, "", &out->desc.format, err) || !field_u32(message, "", "width", &out->desc.width, err) ||
        !field_u32(message, "", "height", &out->desc.height, err) ||
        !field_unit_enum(message, "", "usage", &PROGRAM_TEXTURE_USAGES, &usage, err) ||
        !field_unit_enum(message, "", "sampling", &PROGRAM_TEXTURE_SAMPLINGS, &sampling, err) ||
        !field(message, "", "pixels", false, &pixels, err))
        return false;
    if (pixels && !kiln_json_decode_blob(pixels, "pixels", &out->pixels, err)) return false;
    out->desc.usage = (kiln_texture_usage)usage;
    out->desc.sampling = (kiln_texture_sampling)sampling;
    /* A present but empty blob stays distinguishable from "no pixels" so create can refuse its length. */
    out->desc.pixels = pixels ? (out->pixels.bytes ? (const void *)out->pixels.bytes : (const void *)"") : NULL;
    out->desc.pixels_size = out->pixels.size;
    return true;
}

void kiln_json_texture_free(kiln_json_texture *t) {
    if (!t) return;
    kiln_json_blob_free(&t->pixels);
    *t = (kiln_json_texture){0};
}

/* ---- texture arrays and volumes --------------------------------------------------------------- */

bool kiln_json_decode_create_texture_array(const json_t *message, kiln_texture_array_desc *out, kiln_json_error *err) {
    *out = (kiln_texture_array_desc){0};
    int mips;
    if (!field_format(message, "", &out->format, err) || !field_u32(message, "", "side", &out->side, err) ||
        !field_u32(message, "", "layers", &out->layers, err) ||
        !field_unit_enum(message, "", "mips", &PROGRAM_MIPS, &mips, err))
        return false;
    out->mips = mips == KILN_MIPS_CHAIN;
    return true;
}

/* A required blob field; an empty blob points at "" so the registry refuses its length rather than
 * reading it as absent. */
static bool field_blob(const json_t *message, const char *name, kiln_json_blob *blob, const void **bytes,
                       kiln_json_error *err) {
    json_t *v;
    if (!field(message, "", name, true, &v, err) || !kiln_json_decode_blob(v, name, blob, err)) return false;
    *bytes = blob->bytes ? (const void *)blob->bytes : (const void *)"";
    return true;
}

bool kiln_json_decode_write_texture_layer(const json_t *message, kiln_json_layer_write *out, kiln_json_error *err) {
    *out = (kiln_json_layer_write){0};
    return field_u32(message, "", "texture_id", &out->texture_id, err) &&
           field_u32(message, "", "layer", &out->layer, err) &&
           field_blob(message, "pixels", &out->pixels, &out->bytes, err);
}

void kiln_json_layer_write_free(kiln_json_layer_write *w) {
    if (!w) return;
    kiln_json_blob_free(&w->pixels);
    *w = (kiln_json_layer_write){0};
}

bool kiln_json_decode_create_texture_volume(const json_t *message, kiln_json_volume *out, kiln_json_error *err) {
    *out = (kiln_json_volume){0};
    if (!field_format(message, "", &out->desc.format, err) || !field_u32(message, "", "width", &out->desc.width, err) ||
        !field_u32(message, "", "height", &out->desc.height, err) ||
        !field_u32(message, "", "depth", &out->desc.depth, err) ||
        !field_blob(message, "pixels", &out->pixels, &out->desc.pixels, err))
        return false;
    out->desc.pixels_size = out->pixels.size;
    return true;
}

void kiln_json_volume_free(kiln_json_volume *v) {
    if (!v) return;
    kiln_json_blob_free(&v->pixels);
    *v = (kiln_json_volume){0};
}

/* ---- program.register ------------------------------------------------------------------------- */

static bool decode_slot_spec(const json_t *v, const char *fp, kiln_slot_spec *out, kiln_json_error *err) {
    json_t *shape, *sampling;
    char pp[PATH_MAX_CHARS];
    if (!as_object(v, fp, err) || !field_format(v, fp, &out->format, err)) return false;
    path_field(pp, fp, "shape");
    if (!field(v, fp, "shape", true, &shape, err) || !decode_shape(shape, pp, &out->shape, err)) return false;
    path_field(pp, fp, "sampling");
    return field(v, fp, "sampling", true, &sampling, err) && decode_sampling(sampling, pp, &out->sampling, err);
}

static bool decode_transient_spec(const json_t *v, const char *fp, kiln_transient_spec *out, kiln_json_error *err) {
    json_t *extent;
    char pp[PATH_MAX_CHARS];
    int s;
    if (!as_object(v, fp, err) || !field_format(v, fp, &out->format, err)) return false;
    path_field(pp, fp, "extent");
    if (!field(v, fp, "extent", true, &extent, err) || !decode_extent(extent, pp, &out->extent, err) ||
        !field_unit_enum(v, fp, "samples", &PROGRAM_SAMPLES, &s, err))
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
    path_field(dp, fp, "depth");
    if (!field_string(v, fp, "vertex_entry_point", &out->vertex_entry_point, err) ||
        !field_u32(v, fp, "geometry", &out->geometry, err) || !field(v, fp, "depth", true, &depth, err) ||
        !field_unit_enum(v, fp, "load", &PROGRAM_LOADS, &load, err))
        return false;
    out->load = (kiln_pass_load)load;
    out->depth = !json_is_null(depth);
    return !out->depth || as_u32(depth, dp, &out->depth_slot, err);
}

static bool decode_layout(const json_t *v, const char *fp, kiln_geometry_layout *out, kiln_json_error *err);

static bool field_layout(const json_t *obj, const char *path, const char *name, kiln_geometry_layout *out,
                         kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, name);
    return field(obj, path, name, true, &v, err) && decode_layout(v, fp, out, err);
}

/* {"vertex_entry_point", "vertex_layout", "instance_layout", "draw_sets", "cull", "depth": null or
 * {"slot", "write"}, "load"}, as the spec's example writes it. */
static bool decode_draw_sets(const json_t *v, const char *fp, kiln_draw_sets_spec *out, kiln_json_error *err) {
    json_t *depth;
    char dp[PATH_MAX_CHARS];
    int cull, load, write;
    path_field(dp, fp, "depth");
    if (!field_string(v, fp, "vertex_entry_point", &out->vertex_entry_point, err) ||
        !field_layout(v, fp, "vertex_layout", &out->vertex_layout, err) ||
        !field_layout(v, fp, "instance_layout", &out->instance_layout, err) ||
        !field_u32(v, fp, "draw_sets", &out->list, err) || !field_unit_enum(v, fp, "cull", &PROGRAM_CULLS, &cull, err) ||
        !field(v, fp, "depth", true, &depth, err) || !field_unit_enum(v, fp, "load", &PROGRAM_LOADS, &load, err))
        return false;
    out->cull = (kiln_cull)cull;
    out->load = (kiln_pass_load)load;
    out->depth = !json_is_null(depth);
    if (!out->depth) return true;
    if (!as_object(depth, dp, err) || !field_u32(depth, dp, "slot", &out->depth_slot, err) ||
        !field_unit_enum(depth, dp, "write", &PROGRAM_DEPTH_WRITES, &write, err))
        return false;
    out->depth_write = (kiln_depth_write)write;
    return true;
}

/* {"workgroups": [x, y, z]} or {"workgroups": "Output"}. */
static bool decode_compute(const json_t *v, const char *fp, kiln_compute_spec *out, kiln_json_error *err) {
    json_t *w;
    char wp[PATH_MAX_CHARS];
    path_field(wp, fp, "workgroups");
    if (!field(v, fp, "workgroups", true, &w, err)) return false;
    if (json_is_string(w) && strcmp(json_string_value(w), "Output") == 0) {
        out->from_output = true;
        return true;
    }
    if (!json_is_array(w) || json_array_size(w) != 3)
        return BAD(err, "%s: expected \"Output\" or an array of three workgroup counts", wp);
    uint32_t *counts[3] = {&out->x, &out->y, &out->z};
    for (size_t i = 0; i < 3; i++) {
        char ep[PATH_MAX_CHARS];
        path_index(ep, wp, i);
        if (!as_u32(json_array_get(w, i), ep, counts[i], err)) return false;
    }
    return true;
}

/* A pass's optional "buffers": [{"index", "write"}]. */
static bool decode_buffer_uses(const json_t *pass, const char *fp, kiln_pass_spec *out, kiln_json_error *err) {
    json_t *list;
    char lp[PATH_MAX_CHARS];
    path_field(lp, fp, "buffers");
    if (!field(pass, fp, "buffers", false, &list, err)) return false;
    if (!list) return true;
    if (!as_array(list, lp, err)) return false;
    if (json_array_size(list) > KILN_PROGRAM_MAX_BUFFER_USES)
        return BAD(err, "%s: at most %d buffers, got %zu", lp, KILN_PROGRAM_MAX_BUFFER_USES, json_array_size(list));
    out->buffer_count = (uint32_t)json_array_size(list);
    for (uint32_t k = 0; k < out->buffer_count; k++) {
        char ep[PATH_MAX_CHARS];
        json_t *u = json_array_get(list, k), *write;
        path_index(ep, lp, k);
        if (!as_object(u, ep, err) || !field_u32(u, ep, "index", &out->buffers[k].index, err) ||
            !field(u, ep, "write", true, &write, err))
            return false;
        if (!json_is_boolean(write)) return BAD(err, "%s.write: expected a boolean, got %s", ep, type_name(write));
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
    if (!decode_form(v, fp, &PROGRAM_STAGES, &form, &payload, err)) return false;
    path_payload(pp, fp, &PROGRAM_STAGES, form);
    if (payload && !as_object(payload, pp, err)) return false;
    out->stage = (kiln_pass_stage)form;
    if (out->stage == KILN_STAGE_DRAW_SETS) return decode_draw_sets(payload, pp, &out->draw_sets, err);
    if (out->stage == KILN_STAGE_COMPUTE) return decode_compute(payload, pp, &out->compute, err);
    if (out->stage == KILN_STAGE_DRAW_INDEXED_INDIRECT) {
        json_t *args;
        char ap[PATH_MAX_CHARS];
        path_field(ap, pp, "args");
        return decode_draw(payload, pp, &out->draw, err) && field(payload, pp, "args", true, &args, err) &&
               as_object(args, ap, err) && field_u32(args, ap, "buffer", &out->draw.args_buffer, err) &&
               field_u32(args, ap, "offset", &out->draw.args_offset, err);
    }
    return out->stage != KILN_STAGE_DRAW || decode_draw(payload, pp, &out->draw, err);
}

/* {"Binding"|"Transient": {"index"}}, {"PassOutput": {"pass"}}, {"Depth": {"index", "read"}}. */
static bool decode_input(const json_t *v, const char *fp, kiln_input_slot *out, kiln_json_error *err) {
    int form, read;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!decode_form(v, fp, &PROGRAM_INPUTS, &form, &payload, err)) return false;
    path_payload(pp, fp, &PROGRAM_INPUTS, form);
    if (!as_object(payload, pp, err)) return false;
    *out = (kiln_input_slot){.kind = (kiln_input_kind)form};
    if (!field_u32(payload, pp, out->kind == KILN_INPUT_PASS_OUTPUT ? "pass" : "index", &out->index, err)) return false;
    if (out->kind != KILN_INPUT_DEPTH) return true;
    if (!field_unit_enum(payload, pp, "read", &PROGRAM_DEPTH_READS, &read, err)) return false;
    out->depth_read = (kiln_depth_read)read;
    return true;
}

static bool decode_output(const json_t *v, const char *fp, kiln_output_slot *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!decode_form(v, fp, &PROGRAM_OUTPUTS, &form, &payload, err)) return false;
    *out = (kiln_output_slot){.kind = (kiln_output_kind)form};
    if (out->kind == KILN_OUTPUT_NONE) return true;
    path_payload(pp, fp, &PROGRAM_OUTPUTS, form);
    return as_object(payload, pp, err) && field_u32(payload, pp, "index", &out->index, err);
}

static bool decode_repeat(const json_t *pass, const char *fp, uint32_t pass_index, kiln_pass_spec *out,
                          kiln_json_error *err) {
    json_t *repeat;
    char pp[PATH_MAX_CHARS];
    path_field(pp, fp, "repeat");
    if (!field(pass, fp, "repeat", false, &repeat, err)) return false;
    if (!repeat) return true;
    if (!as_object(repeat, pp, err) || !field_u32(repeat, pp, "count", &out->repeat_count, err) ||
        !field_u32(repeat, pp, "uniform_stride", &out->repeat_uniform_stride, err))
        return false;
    /* The desc spells "no repeat" as count 0, so a declared count of 0 is refused here, by the
     * class register gives any other count outside 1..4096. */
    if (out->repeat_count == 0)
        return fail(err, kiln_program_class_name(KILN_PROGRAM_BAD_REPEAT),
                    "pass %u: repeat count 0 is outside 1..%d", pass_index, KILN_PROGRAM_MAX_REPEAT);
    return true;
}

static bool decode_pass(const json_t *v, const char *fp, uint32_t pass_index, kiln_pass_spec *out,
                        kiln_json_error *err) {
    json_t *stage, *inputs, *output;
    char pp[PATH_MAX_CHARS];
    int blend;
    *out = (kiln_pass_spec){0};
    if (!as_object(v, fp, err)) return false;
    path_field(pp, fp, "stage");
    if (!field(v, fp, "stage", true, &stage, err) || !decode_stage(stage, pp, out, err) ||
        !field_string(v, fp, "entry_point", &out->entry_point, err) || !field_array(v, fp, "inputs", &inputs, err))
        return false;
    path_field(pp, fp, "inputs");
    if (json_array_size(inputs) > KILN_PROGRAM_MAX_INPUTS)
        return BAD(err, "%s: at most %d inputs, got %zu", pp, KILN_PROGRAM_MAX_INPUTS, json_array_size(inputs));
    out->input_count = (uint32_t)json_array_size(inputs);
    for (uint32_t i = 0; i < out->input_count; i++) {
        char ip[PATH_MAX_CHARS];
        path_index(ip, pp, i);
        if (!decode_input(json_array_get(inputs, i), ip, &out->inputs[i], err)) return false;
    }
    path_field(pp, fp, "output");
    if (!field(v, fp, "output", true, &output, err) || !decode_output(output, pp, &out->output, err) ||
        !field_unit_enum(v, fp, "blend", &PROGRAM_BLENDS, &blend, err) ||
        !field_u32(v, fp, "uniform_offset", &out->uniform_offset, err) ||
        !field_u32(v, fp, "uniform_length", &out->uniform_length, err))
        return false;
    out->blend = (kiln_program_blend)blend;
    return decode_repeat(v, fp, pass_index, out, err) && decode_buffer_uses(v, fp, out, err);
}

/* A required array field of `count` elements, each decoded into a calloc'd array of `size`-byte
 * elements by `decode`. */
typedef bool (*element_decoder)(const json_t *v, const char *fp, void *out, kiln_json_error *err);

static bool decode_list(const json_t *message, const char *name, size_t size, element_decoder decode, void **out,
                        uint32_t *count, kiln_json_error *err) {
    json_t *list;
    *out = NULL;
    if (!field_array(message, "", name, &list, err)) return false;
    *count = (uint32_t)json_array_size(list);
    uint8_t *items = calloc(*count ? *count : 1, size);
    if (!items) return fail(err, "out_of_memory", "%s: %u elements", name, *count);
    for (uint32_t i = 0; i < *count; i++) {
        char fp[PATH_MAX_CHARS];
        path_index(fp, name, i);
        if (!decode(json_array_get(list, i), fp, items + i * size, err)) {
            free(items);
            return false;
        }
    }
    *out = items;
    return true;
}

/* [{"location", "format"}, ...]. A list longer than a layout holds keeps its length, so register
 * and create refuse it by class; the attributes past the cap are not read. */
static bool decode_layout(const json_t *v, const char *fp, kiln_geometry_layout *out, kiln_json_error *err) {
    *out = (kiln_geometry_layout){0};
    if (!as_array(v, fp, err)) return false;
    size_t n = json_array_size(v);
    out->attribute_count = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    for (size_t i = 0; i < n && i < KILN_PROGRAM_MAX_ATTRIBUTES; i++) {
        char ap[PATH_MAX_CHARS], fmt[PATH_MAX_CHARS];
        const json_t *a = json_array_get(v, i);
        const char *name = NULL;
        path_index(ap, fp, i);
        path_field(fmt, ap, "format");
        if (!as_object(a, ap, err) || !field_u32(a, ap, "location", &out->attributes[i].location, err) ||
            !field_string(a, ap, "format", &name, err))
            return false;
        if (!program_vertex_format_find(name, &out->attributes[i].format))
            return BAD(err, "%s: unknown vertex format \"%s\"", fmt, name);
    }
    return true;
}

static bool geometry_slot_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    json_t *layout;
    char lp[PATH_MAX_CHARS];
    path_field(lp, fp, "layout");
    return as_object(v, fp, err) && field(v, fp, "layout", true, &layout, err) && decode_layout(layout, lp, out, err);
}

/* {"Output": SlotExtent} or {"Fixed": {"side": N}}. */
static bool decode_depth_extent(const json_t *v, const char *fp, kiln_depth_extent *out, kiln_json_error *err) {
    int form;
    json_t *payload;
    char pp[PATH_MAX_CHARS];
    if (!decode_form(v, fp, &PROGRAM_DEPTH_EXTENTS, &form, &payload, err)) return false;
    path_payload(pp, fp, &PROGRAM_DEPTH_EXTENTS, form);
    *out = (kiln_depth_extent){.fixed = form == PROGRAM_DEPTH_EXTENT_FIXED};
    if (!out->fixed) return decode_extent(payload, pp, &out->output, err);
    return as_object(payload, pp, err) && field_u32(payload, pp, "side", &out->side, err);
}

static bool depth_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    kiln_depth_spec *d = out;
    json_t *extent;
    char ep[PATH_MAX_CHARS];
    int samples;
    path_field(ep, fp, "extent");
    if (!as_object(v, fp, err) || !field(v, fp, "extent", true, &extent, err) ||
        !decode_depth_extent(extent, ep, &d->extent, err) ||
        !field_unit_enum(v, fp, "samples", &PROGRAM_SAMPLES, &samples, err))
        return false;
    d->samples = (kiln_samples)samples;
    return true;
}

static bool buffer_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    return as_object(v, fp, err) && field_u32(v, fp, "size", &((kiln_buffer_spec *)out)->size, err);
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
    bool ok = field_optional_string(message, "", "label", &d->label, err) &&
              field_string(message, "", "wgsl", &d->wgsl, err) &&
              decode_list(message, "bindings", sizeof(kiln_slot_spec), slot_spec_element, &bindings, &d->binding_count,
                          err) &&
              decode_list(message, "transients", sizeof(kiln_transient_spec), transient_element, &transients,
                          &d->transient_count, err) &&
              decode_list(message, "geometries", sizeof(kiln_geometry_layout), geometry_slot_element, &geometries,
                          &d->geometry_count, err) &&
              decode_list(message, "depth_transients", sizeof(kiln_depth_spec), depth_element, &depths,
                          &d->depth_transient_count, err) &&
              field_array(message, "", "passes", &passes, err);
    out->bindings = bindings;
    out->transients = transients;
    out->geometries = geometries;
    out->depth_transients = depths;
    /* "buffers" is kiln's own (docs/adr/002-program-compute-and-indirect-draws.md): optional, absent for none. */
    if (ok && json_object_get(message, "buffers")) {
        void *buffers = NULL;
        ok = decode_list(message, "buffers", sizeof(kiln_buffer_spec), buffer_element, &buffers, &d->buffer_count, err);
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
        return fail(err, "out_of_memory", "passes: %u elements", d->pass_count);
    }
    for (uint32_t i = 0; i < d->pass_count; i++) {
        char fp[PATH_MAX_CHARS];
        path_index(fp, "passes", i);
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

/* ---- create_geometry / update_geometry -------------------------------------------------------- */

bool kiln_json_decode_geometry(const json_t *message, bool with_layout, kiln_json_geometry *out, kiln_json_error *err) {
    *out = (kiln_json_geometry){0};
    json_t *layout = NULL;
    bool ok = (!with_layout || (field(message, "", "layout", true, &layout, err) &&
                                decode_layout(layout, "layout", &out->desc.layout, err))) &&
              field_blob(message, "vertices", &out->vertices, &out->desc.vertices, err) &&
              field_blob(message, "indices", &out->indices, &out->desc.indices, err);
    if (!ok) {
        kiln_json_geometry_free(out);
        return false;
    }
    out->desc.vertices_size = out->vertices.size;
    out->desc.indices_size = out->indices.size;
    return true;
}

void kiln_json_geometry_free(kiln_json_geometry *g) {
    if (!g) return;
    kiln_json_blob_free(&g->vertices);
    kiln_json_blob_free(&g->indices);
    *g = (kiln_json_geometry){0};
}

/* ---- instance buffers and draw sets ---------------------------------------------------------- */

bool kiln_json_decode_instances(const json_t *message, bool create, kiln_json_instances *out, kiln_json_error *err) {
    *out = (kiln_json_instances){0};
    bool ok = create ? field_layout(message, "", "layout", &out->desc.layout, err) &&
                           field_u32(message, "", "capacity", &out->desc.capacity, err)
                     : field_u32(message, "", "instances_id", &out->instances_id, err) &&
                           field_u32(message, "", "first", &out->first, err);
    ok = ok && field_blob(message, "records", &out->records, &out->desc.records, err);
    if (!ok) {
        kiln_json_instances_free(out);
        return false;
    }
    out->desc.records_size = out->records.size;
    return true;
}

void kiln_json_instances_free(kiln_json_instances *b) {
    if (!b) return;
    kiln_json_blob_free(&b->records);
    *b = (kiln_json_instances){0};
}

/* {"first", "count"} under `name`. */
static bool field_range(const json_t *obj, const char *path, const char *name, uint32_t *first, uint32_t *count,
                        kiln_json_error *err) {
    json_t *v;
    char fp[PATH_MAX_CHARS];
    path_field(fp, path, name);
    return field(obj, path, name, true, &v, err) && as_object(v, fp, err) && field_u32(v, fp, "first", first, err) &&
           field_u32(v, fp, "count", count, err);
}

static bool decode_draw_spec(const json_t *v, const char *fp, kiln_draw *out, kiln_json_error *err) {
    return as_object(v, fp, err) && field_u32(v, fp, "geometry_id", &out->geometry_id, err) &&
           field_range(v, fp, "indices", &out->index_first, &out->index_count, err) &&
           field_u32(v, fp, "instances_id", &out->instances_id, err) &&
           field_range(v, fp, "instances", &out->instance_first, &out->instance_count, err);
}

static bool draw_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    return decode_draw_spec(v, fp, out, err);
}

bool kiln_json_decode_draw_set(const json_t *message, bool create, kiln_json_draw_set *out, kiln_json_error *err) {
    *out = (kiln_json_draw_set){0};
    void *draws = NULL;
    bool ok = (create ? field_layout(message, "", "vertex_layout", &out->vertex_layout, err) &&
                            field_layout(message, "", "instance_layout", &out->instance_layout, err)
                      : field_u32(message, "", "draw_set_id", &out->draw_set_id, err) &&
                            field_u32(message, "", "first", &out->first, err)) &&
              decode_list(message, "draws", sizeof(kiln_draw), draw_element, &draws, &out->draw_count, err);
    out->draws = draws;
    if (!ok) kiln_json_draw_set_free(out);
    return ok;
}

void kiln_json_draw_set_free(kiln_json_draw_set *s) {
    if (!s) return;
    free(s->draws);
    *s = (kiln_json_draw_set){0};
}

/* ---- program.dispatch ------------------------------------------------------------------------- */

/* Checks every element of a list is a u32 id; stores them when ids is not NULL. */
static bool decode_ids(const json_t *list, const char *fp, uint32_t *ids, kiln_json_error *err) {
    for (size_t i = 0; i < json_array_size(list); i++) {
        char ep[PATH_MAX_CHARS];
        uint32_t id = 0;
        path_index(ep, fp, i);
        if (!as_u32(json_array_get(list, i), ep, &id, err)) return false;
        if (ids) ids[i] = id;
    }
    return true;
}

bool kiln_json_decode_dispatch(const json_t *message, kiln_json_dispatch *out, kiln_json_error *err) {
    *out = (kiln_json_dispatch){0};
    json_t *bindings, *geometries, *draw_sets, *uniforms;
    if (!field_u32(message, "", "program_id", &out->program_id, err) ||
        !field_array(message, "", "bindings", &bindings, err) || !decode_ids(bindings, "bindings", NULL, err) ||
        !field_array(message, "", "geometries", &geometries, err) ||
        !decode_ids(geometries, "geometries", NULL, err) || !field_array(message, "", "draw_sets", &draw_sets, err))
        return false;
    size_t set_ids = 0;
    for (size_t i = 0; i < json_array_size(draw_sets); i++) {
        char fp[PATH_MAX_CHARS];
        path_index(fp, "draw_sets", i);
        const json_t *list = json_array_get(draw_sets, i);
        if (!as_array(list, fp, err) || !decode_ids(list, fp, NULL, err)) return false;
        set_ids += json_array_size(list);
    }
    if (!field(message, "", "uniforms", true, &uniforms, err)) return false;
    out->binding_count = (uint32_t)json_array_size(bindings);
    out->bindings = calloc(out->binding_count ? out->binding_count : 1, sizeof *out->bindings);
    if (!out->bindings) return fail(err, "out_of_memory", "bindings: %u ids", out->binding_count);
    decode_ids(bindings, "bindings", out->bindings, err);
    if (!kiln_json_decode_blob(uniforms, "uniforms", &out->uniforms, err)) {
        kiln_json_dispatch_free(out);
        return false;
    }
    out->geometry_count = (uint32_t)json_array_size(geometries);
    out->geometries = calloc(out->geometry_count ? out->geometry_count : 1, sizeof *out->geometries);
    if (!out->geometries) {
        kiln_json_dispatch_free(out);
        return fail(err, "out_of_memory", "geometries: %u ids", out->geometry_count);
    }
    decode_ids(geometries, "geometries", out->geometries, err);
    out->draw_set_list_count = (uint32_t)json_array_size(draw_sets);
    out->draw_set_list_lengths = calloc(out->draw_set_list_count ? out->draw_set_list_count : 1, sizeof(uint32_t));
    out->draw_set_ids = calloc(set_ids ? set_ids : 1, sizeof(uint32_t));
    if (!out->draw_set_list_lengths || !out->draw_set_ids) {
        kiln_json_dispatch_free(out);
        return fail(err, "out_of_memory", "draw_sets: %zu ids", set_ids);
    }
    for (size_t i = 0, at = 0; i < out->draw_set_list_count; i++) {
        const json_t *list = json_array_get(draw_sets, i);
        out->draw_set_list_lengths[i] = (uint32_t)json_array_size(list);
        decode_ids(list, "draw_sets", out->draw_set_ids + at, err);
        at += json_array_size(list);
    }
    return true;
}

void kiln_json_dispatch_free(kiln_json_dispatch *d) {
    if (!d) return;
    free(d->bindings);
    free(d->geometries);
    free(d->draw_set_list_lengths);
    free(d->draw_set_ids);
    kiln_json_blob_free(&d->uniforms);
    *d = (kiln_json_dispatch){0};
}

/* ---- the message envelope --------------------------------------------------------------------- */

bool kiln_json_parse_message(const char *text, size_t length, json_t **out, const char **kind, kiln_json_error *err) {
    json_error_t jerr;
    *out = NULL;
    *kind = NULL;
    json_t *message = json_loadb(text ? text : "", text ? length : 0, JSON_REJECT_DUPLICATES, &jerr);
    if (!message) return fail(err, "malformed_json", "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
    const char *name = NULL;
    bool ok = as_object(message, "message", err) && field_string(message, "", "kind", &name, err);
    if (ok) {
        ok = false;
        for (uint32_t i = 0; i < kiln_json_kind_count() && !ok; i++) ok = strcmp(name, kiln_json_kind_name(i)) == 0;
        if (!ok) BAD(err, "kind: unknown kind \"%s\"", name);
    }
    if (!ok) {
        json_decref(message);
        return false;
    }
    *out = message;
    *kind = name;
    return true;
}
