/* JSON messages into the C descriptors: textures, geometry, instance buffers, draw sets, dispatch
 * and the message envelope (program.register is json_decode_program.c; the field readers both use
 * are json_fields.c).
 *
 * Every refusal names the field path it is about (`passes[2].inputs[0]: unknown input form
 * "Bindng"`), and every decoder either fills its whole result or frees what it had built, so a
 * caller acts on a message only once all of it has decoded. Fields the surface does not know are
 * ignored, as the spec's codec ignores them; a missing required field is an error, never a
 * default. */
#include <stdlib.h>
#include <string.h>

#include "json_fields.h"

/* ---- create_texture --------------------------------------------------------------------------- */

bool kiln_json_decode_create_texture(const json_t *message, kiln_json_texture *out, kiln_json_error *err) {
    *out = (kiln_json_texture){0};
    int usage, sampling;
    json_t *pixels;
    if (!msg_field_format(message, "", &out->desc.format, err) ||
        !msg_field_u32(message, "", "width", &out->desc.width, err) ||
        !msg_field_u32(message, "", "height", &out->desc.height, err) ||
        !msg_field_unit_enum(message, "", "usage", &PROGRAM_TEXTURE_USAGES, &usage, err) ||
        !msg_field_unit_enum(message, "", "sampling", &PROGRAM_TEXTURE_SAMPLINGS, &sampling, err) ||
        !msg_field(message, "", "pixels", false, &pixels, err))
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
    if (!msg_field_format(message, "", &out->format, err) || !msg_field_u32(message, "", "side", &out->side, err) ||
        !msg_field_u32(message, "", "layers", &out->layers, err) ||
        !msg_field_unit_enum(message, "", "mips", &PROGRAM_MIPS, &mips, err))
        return false;
    out->mips = mips == KILN_MIPS_CHAIN;
    return true;
}

bool kiln_json_decode_write_texture_layer(const json_t *message, kiln_json_layer_write *out, kiln_json_error *err) {
    *out = (kiln_json_layer_write){0};
    return msg_field_u32(message, "", "texture_id", &out->texture_id, err) &&
           msg_field_u32(message, "", "layer", &out->layer, err) &&
           msg_field_blob(message, "pixels", &out->pixels, &out->bytes, err);
}

void kiln_json_layer_write_free(kiln_json_layer_write *w) {
    if (!w) return;
    kiln_json_blob_free(&w->pixels);
    *w = (kiln_json_layer_write){0};
}

bool kiln_json_decode_create_texture_volume(const json_t *message, kiln_json_volume *out, kiln_json_error *err) {
    *out = (kiln_json_volume){0};
    if (!msg_field_format(message, "", &out->desc.format, err) ||
        !msg_field_u32(message, "", "width", &out->desc.width, err) ||
        !msg_field_u32(message, "", "height", &out->desc.height, err) ||
        !msg_field_u32(message, "", "depth", &out->desc.depth, err) ||
        !msg_field_blob(message, "pixels", &out->pixels, &out->desc.pixels, err))
        return false;
    out->desc.pixels_size = out->pixels.size;
    return true;
}

void kiln_json_volume_free(kiln_json_volume *v) {
    if (!v) return;
    kiln_json_blob_free(&v->pixels);
    *v = (kiln_json_volume){0};
}

/* ---- create_geometry / update_geometry -------------------------------------------------------- */

bool kiln_json_decode_geometry(const json_t *message, bool with_layout, kiln_json_geometry *out, kiln_json_error *err) {
    *out = (kiln_json_geometry){0};
    json_t *layout = NULL;
    bool ok = (!with_layout || (msg_field(message, "", "layout", true, &layout, err) &&
                                msg_decode_layout(layout, "layout", &out->desc.layout, err))) &&
              msg_field_blob(message, "vertices", &out->vertices, &out->desc.vertices, err) &&
              msg_field_blob(message, "indices", &out->indices, &out->desc.indices, err);
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
    bool ok = create ? msg_field_layout(message, "", "layout", &out->desc.layout, err) &&
                           msg_field_u32(message, "", "capacity", &out->desc.capacity, err)
                     : msg_field_u32(message, "", "instances_id", &out->instances_id, err) &&
                           msg_field_u32(message, "", "first", &out->first, err);
    ok = ok && msg_field_blob(message, "records", &out->records, &out->desc.records, err);
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
    msg_path_field(fp, path, name);
    return msg_field(obj, path, name, true, &v, err) && msg_as_object(v, fp, err) &&
           msg_field_u32(v, fp, "first", first, err) && msg_field_u32(v, fp, "count", count, err);
}

static bool decode_draw_spec(const json_t *v, const char *fp, kiln_draw *out, kiln_json_error *err) {
    return msg_as_object(v, fp, err) && msg_field_u32(v, fp, "geometry_id", &out->geometry_id, err) &&
           field_range(v, fp, "indices", &out->index_first, &out->index_count, err) &&
           msg_field_u32(v, fp, "instances_id", &out->instances_id, err) &&
           field_range(v, fp, "instances", &out->instance_first, &out->instance_count, err);
}

static bool draw_element(const json_t *v, const char *fp, void *out, kiln_json_error *err) {
    return decode_draw_spec(v, fp, out, err);
}

bool kiln_json_decode_draw_set(const json_t *message, bool create, kiln_json_draw_set *out, kiln_json_error *err) {
    *out = (kiln_json_draw_set){0};
    void *draws = NULL;
    bool ok = (create ? msg_field_layout(message, "", "vertex_layout", &out->vertex_layout, err) &&
                            msg_field_layout(message, "", "instance_layout", &out->instance_layout, err)
                      : msg_field_u32(message, "", "draw_set_id", &out->draw_set_id, err) &&
                            msg_field_u32(message, "", "first", &out->first, err)) &&
              msg_decode_list(message, "draws", sizeof(kiln_draw), draw_element, &draws, &out->draw_count, err);
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
        msg_path_index(ep, fp, i);
        if (!msg_as_u32(json_array_get(list, i), ep, &id, err)) return false;
        if (ids) ids[i] = id;
    }
    return true;
}

bool kiln_json_decode_dispatch(const json_t *message, kiln_json_dispatch *out, kiln_json_error *err) {
    *out = (kiln_json_dispatch){0};
    json_t *bindings, *geometries, *draw_sets, *uniforms;
    if (!msg_field_u32(message, "", "program_id", &out->program_id, err) ||
        !msg_field_array(message, "", "bindings", &bindings, err) || !decode_ids(bindings, "bindings", NULL, err) ||
        !msg_field_array(message, "", "geometries", &geometries, err) ||
        !decode_ids(geometries, "geometries", NULL, err) || !msg_field_array(message, "", "draw_sets", &draw_sets, err))
        return false;
    size_t set_ids = 0;
    for (size_t i = 0; i < json_array_size(draw_sets); i++) {
        char fp[PATH_MAX_CHARS];
        msg_path_index(fp, "draw_sets", i);
        const json_t *list = json_array_get(draw_sets, i);
        if (!msg_as_array(list, fp, err) || !decode_ids(list, fp, NULL, err)) return false;
        set_ids += json_array_size(list);
    }
    if (!msg_field(message, "", "uniforms", true, &uniforms, err)) return false;
    out->binding_count = (uint32_t)json_array_size(bindings);
    out->bindings = calloc(out->binding_count ? out->binding_count : 1, sizeof *out->bindings);
    if (!out->bindings) return kiln_json_error_set(err, "out_of_memory", "bindings: %u ids", out->binding_count);
    decode_ids(bindings, "bindings", out->bindings, err);
    if (!kiln_json_decode_blob(uniforms, "uniforms", &out->uniforms, err)) {
        kiln_json_dispatch_free(out);
        return false;
    }
    out->geometry_count = (uint32_t)json_array_size(geometries);
    out->geometries = calloc(out->geometry_count ? out->geometry_count : 1, sizeof *out->geometries);
    if (!out->geometries) {
        kiln_json_dispatch_free(out);
        return kiln_json_error_set(err, "out_of_memory", "geometries: %u ids", out->geometry_count);
    }
    decode_ids(geometries, "geometries", out->geometries, err);
    out->draw_set_list_count = (uint32_t)json_array_size(draw_sets);
    out->draw_set_list_lengths = calloc(out->draw_set_list_count ? out->draw_set_list_count : 1, sizeof(uint32_t));
    out->draw_set_ids = calloc(set_ids ? set_ids : 1, sizeof(uint32_t));
    if (!out->draw_set_list_lengths || !out->draw_set_ids) {
        kiln_json_dispatch_free(out);
        return kiln_json_error_set(err, "out_of_memory", "draw_sets: %zu ids", set_ids);
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

bool kiln_json_message_kind(const json_t *message, const char **kind, kiln_json_error *err) {
    *kind = NULL;
    if (!message) return BAD(err, "message: expected an object, got nothing");
    const char *name = NULL;
    if (!msg_as_object(message, "message", err) || !msg_field_string(message, "", "kind", &name, err)) return false;
    for (uint32_t i = 0; i < kiln_json_kind_count(); i++)
        if (strcmp(name, kiln_json_kind_name(i)) == 0) {
            *kind = name;
            return true;
        }
    return BAD(err, "kind: unknown kind \"%s\"", name);
}

bool kiln_json_parse_message(const char *text, size_t length, json_t **out, const char **kind, kiln_json_error *err) {
    json_error_t jerr;
    *out = NULL;
    *kind = NULL;
    json_t *message = json_loadb(text ? text : "", text ? length : 0, JSON_REJECT_DUPLICATES, &jerr);
    if (!message)
        return kiln_json_error_set(err, "malformed_json", "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
    if (!kiln_json_message_kind(message, kind, err)) {
        json_decref(message);
        return false;
    }
    *out = message;
    return true;
}
