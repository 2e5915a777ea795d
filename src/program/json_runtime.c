/* The JSON runtime: one message in, one reply out. It owns a texture registry and a program runtime
 * and routes each message by its "kind" to a handler that decodes the whole message first (the
 * decoders of json_decode.c and json_decode_program.c) and only then calls the C API, so a refused
 * message changes nothing. It reaches the runtime through the public headers alone, as any host of
 * program.h and program_json.h could.
 *
 * Handlers return the Ok payload or NULL with the error filled; kiln_json_runtime_handle wraps either in
 * the reply envelope. The reply's class is always a stable identifier: one of the C API's classes
 * where the C API refused, or one of the surface's own (program_json.h lists them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <kiln/program.h>
#include <kiln/program_json.h>

struct kiln_json_runtime {
    kiln_texture_registry *textures;
    kiln_programs *programs;
};

kiln_json_runtime *kiln_json_runtime_create(kiln_gfx *gfx, kiln_resources *res, kiln_error *err) {
    kiln_json_runtime *rt = calloc(1, sizeof *rt);
    if (!rt) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "json runtime: out of memory");
        return NULL;
    }
    rt->textures = kiln_texture_registry_create(res, err);
    if (rt->textures) rt->programs = kiln_programs_create(gfx, res, rt->textures, err);
    if (!rt->programs) {
        kiln_json_runtime_destroy(rt);
        return NULL;
    }
    return rt;
}

bool kiln_json_runtime_recreate(kiln_json_runtime *rt, kiln_gfx *gfx, kiln_resources *res, kiln_error *err) {
    if (!rt) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_json_runtime_recreate needs a runtime");
    kiln_resources *old_res = kiln_texture_registry_resources(rt->textures);
    kiln_texture_registry_move_to(rt->textures, res);
    kiln_programs *programs = kiln_programs_recreate(rt->programs, gfx, res, rt->textures, err);
    if (!programs) {
        kiln_texture_registry_move_to(rt->textures, old_res); /* as it was: nothing changed */
        return false;
    }
    rt->programs = programs;
    return true;
}

void kiln_json_runtime_destroy(kiln_json_runtime *rt) {
    if (!rt) return;
    /* Programs hold registry ids and views, so they go first. */
    kiln_programs_destroy(rt->programs);
    kiln_texture_registry_destroy(rt->textures);
    free(rt);
}

kiln_texture_registry *kiln_json_runtime_textures(kiln_json_runtime *rt) {
    return rt ? rt->textures : NULL;
}

kiln_programs *kiln_json_runtime_programs(kiln_json_runtime *rt) {
    return rt ? rt->programs : NULL;
}

/* ---- helpers ---------------------------------------------------------------------------------- */

/* A handler's refusal: err filled (kiln_json_error_set), and no Ok payload. */
#define REFUSED(err, cls, ...) (kiln_json_error_set((err), (cls), __VA_ARGS__), (json_t *)NULL)

static json_t *out_of_memory(kiln_json_error *err) {
    return REFUSED(err, "out_of_memory", "out of memory building the reply");
}

/* Records the queue when one of its dispatches names the texture, before the texture changes. */
static void record_queue_using(kiln_json_runtime *rt, uint32_t id) {
    if (kiln_programs_queue_uses_texture(rt->programs, id)) kiln_programs_frame(rt->programs, NULL);
}

/* An empty Ok payload. */
static json_t *ok_empty(kiln_json_error *err) {
    json_t *o = json_object();
    return o ? o : out_of_memory(err);
}

static json_t *ok_id(const char *name, uint32_t id, kiln_json_error *err) {
    json_t *o = json_pack("{s:I}", name, (json_int_t)id);
    return o ? o : out_of_memory(err);
}

/* The program log's record since `before`, which is what a refusal just logged. */
typedef struct log_mark {
    uint32_t count;
    uint64_t dropped;
} log_mark;

static log_mark mark_log(kiln_programs *p) {
    kiln_log *log = kiln_programs_log(p);
    return (log_mark){kiln_log_count(log), log->dropped};
}

static const char *logged_since(kiln_programs *p, log_mark before) {
    kiln_log *log = kiln_programs_log(p);
    uint32_t count = kiln_log_count(log);
    if (count == 0 || (count == before.count && log->dropped == before.dropped)) return NULL;
    return kiln_log_at(log, count - 1)->message;
}

static bool texture_is_plain(const kiln_json_runtime *rt, uint32_t id) {
    const kiln_texture_info *info = kiln_texture_registry_info(rt->textures, id);
    return info && info->kind == KILN_TEXTURE_PLAIN;
}

/* ---- texture kinds ---------------------------------------------------------------------------- */

static json_t *handle_create_texture(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_texture t;
    if (!kiln_json_decode_create_texture(msg, &t, err)) return NULL;
    kiln_error kerr = {0};
    uint32_t id = kiln_texture_registry_add(rt->textures, &t.desc, &kerr);
    kiln_json_texture_free(&t);
    return id ? ok_id("texture_id", id, err) : REFUSED(err, "invalid_texture", "%s", kerr.message);
}

static json_t *handle_update_texture(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    kiln_json_blob pixels;
    json_t *value = json_object_get(msg, "pixels");
    if (!kiln_json_decode_u32_field(msg, "texture_id", &id, err)) return NULL;
    if (!value) return REFUSED(err, "bad_message", "pixels: missing required field");
    if (!kiln_json_decode_blob(value, "pixels", &pixels, err)) return NULL;
    /* An array or volume is not a texture update_texture can name, as the spec has it. */
    bool known = texture_is_plain(rt, id);
    /* Messages act in arrival order: a dispatch queued before this update reads the texture as it
     * was, so the queue records first (its failures are logged against their dispatches). */
    if (known) record_queue_using(rt, id);
    kiln_error kerr = {0};
    bool ok = known && kiln_texture_registry_update(rt->textures, id, pixels.bytes ? (const void *)pixels.bytes : "",
                                            pixels.size, &kerr);
    kiln_json_blob_free(&pixels);
    if (!known && kiln_texture_registry_info(rt->textures, id))
        return REFUSED(err, "unknown_texture", "texture_id: texture %u is not a plain texture", id);
    if (!known) return REFUSED(err, "unknown_texture", "texture_id: unknown texture %u", id);
    return ok ? ok_empty(err) : REFUSED(err, "invalid_texture", "%s", kerr.message);
}

static json_t *handle_destroy_texture(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    if (!kiln_json_decode_u32_field(msg, "texture_id", &id, err)) return NULL;
    if (!kiln_texture_registry_info(rt->textures, id))
        return REFUSED(err, "unknown_texture", "texture_id: unknown texture %u", id);
    record_queue_using(rt, id); /* a dispatch queued before the destroy still sees the texture */
    kiln_error kerr = {0};
    if (kiln_texture_registry_remove(rt->textures, id, &kerr)) return ok_empty(err);
    return REFUSED(err, "invalid_texture", "%s", kerr.message);
}

static json_t *handle_read_texture(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    if (!kiln_json_decode_u32_field(msg, "texture_id", &id, err)) return NULL;
    const kiln_texture_info *info = kiln_texture_registry_info(rt->textures, id);
    if (!info) return REFUSED(err, "unknown_texture", "texture_id: unknown texture %u", id);
    if (info->kind != KILN_TEXTURE_PLAIN)
        return REFUSED(err, "unknown_texture", "texture_id: texture %u is not a plain texture", id);
    /* A read answers with what every message before it asked for, queued dispatches included; a
     * failed dispatch fails only the reads of what it writes. */
    kiln_error kerr = {0};
    if (!kiln_programs_frame_for_read(rt->programs, id, &kerr)) return REFUSED(err, "frame_failed", "%s", kerr.message);
    kiln_texture_info copy = *info;
    void *pixels = NULL;
    size_t size = 0;
    if (!kiln_texture_registry_read(rt->textures, id, &pixels, &size, &kerr))
        return REFUSED(err, "read_failed", "%s", kerr.message);
    char *text = kiln_json_base64_encode(pixels, size);
    free(pixels);
    if (!text) return out_of_memory(err);
    json_t *o = json_pack("{s:I,s:s,s:I,s:I,s:s}", "texture_id", (json_int_t)id, "format",
                          kiln_texture_format_name(copy.format), "width", (json_int_t)copy.width, "height",
                          (json_int_t)copy.height, "pixels", text);
    free(text);
    return o ? o : out_of_memory(err);
}

static json_t *handle_create_texture_array(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_texture_array_desc desc;
    if (!kiln_json_decode_create_texture_array(msg, &desc, err)) return NULL;
    kiln_error kerr = {0};
    uint32_t id = kiln_texture_registry_add_array(rt->textures, &desc, &kerr);
    return id ? ok_id("texture_id", id, err) : REFUSED(err, "invalid_texture", "%s", kerr.message);
}

/* Fire-and-forget, as the spec has it: a refused write is logged under "texture" and leaves the
 * layer as it was; the reply carries the same warning and its class, as a dropped dispatch's does. */
static json_t *handle_write_texture_layer(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_layer_write w;
    if (!kiln_json_decode_write_texture_layer(msg, &w, err)) return NULL;
    const kiln_texture_info *info = kiln_texture_registry_info(rt->textures, w.texture_id);
    const char *cls = !info                             ? "unknown_texture"
                      : info->kind != KILN_TEXTURE_ARRAY ? kiln_dispatch_class_name(KILN_DISPATCH_WRONG_KIND)
                                                         : "invalid_texture";
    /* A dispatch queued before this write reads the layer as it was (arrival order). */
    if (info && info->kind == KILN_TEXTURE_ARRAY) record_queue_using(rt, w.texture_id);
    kiln_error kerr = {0};
    bool ok = kiln_texture_registry_write_layer(rt->textures, w.texture_id, w.layer, w.bytes, w.pixels.size, &kerr);
    kiln_json_layer_write_free(&w);
    if (ok) return ok_empty(err);
    kiln_log *log = kiln_programs_log(rt->programs);
    kiln_log_add(log, KILN_LOG_WARN, "texture", "dropped %s; the layer is unchanged", kerr.message);
    return REFUSED(err, cls, "%s", kiln_log_at(log, kiln_log_count(log) - 1)->message);
}

static json_t *handle_create_texture_volume(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_volume v;
    if (!kiln_json_decode_create_texture_volume(msg, &v, err)) return NULL;
    kiln_error kerr = {0};
    uint32_t id = kiln_texture_registry_add_volume(rt->textures, &v.desc, &kerr);
    kiln_json_volume_free(&v);
    return id ? ok_id("texture_id", id, err) : REFUSED(err, "invalid_texture", "%s", kerr.message);
}

/* ---- program kinds ---------------------------------------------------------------------------- */

static json_t *handle_register(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_program decoded;
    if (!kiln_json_decode_program(msg, &decoded, err)) return NULL;
    kiln_program_error perr = {0};
    uint32_t id = kiln_programs_register(rt->programs, &decoded.desc, &perr);
    kiln_json_program_free(&decoded);
    if (id) return ok_id("program_id", id, err);
    return REFUSED(err, kiln_program_class_name(perr.cls), "%s", perr.message);
}

static json_t *handle_dispatch(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_dispatch d;
    if (!kiln_json_decode_dispatch(msg, &d, err)) return NULL;
    log_mark before = mark_log(rt->programs);
    kiln_dispatch_desc desc = {.program_id = d.program_id, .texture_ids = d.bindings, .texture_count = d.binding_count,
                               .geometry_ids = d.geometries, .geometry_count = d.geometry_count,
                               .draw_set_list_count = d.draw_set_list_count,
                               .draw_set_list_lengths = d.draw_set_list_lengths, .draw_set_ids = d.draw_set_ids,
                               .uniforms = d.uniforms.bytes,
                               .uniforms_size = d.uniforms.size};
    kiln_dispatch_class cls = kiln_programs_dispatch_with(rt->programs, &desc);
    const char *warning = logged_since(rt->programs, before);
    json_t *reply = cls == KILN_DISPATCH_OK
                        ? ok_empty(err)
                        : REFUSED(err, kiln_dispatch_class_name(cls), "%s", warning ? warning : "dropped");
    kiln_json_dispatch_free(&d);
    return reply;
}

/* ---- instance buffers and draw sets ------------------------------------------------------------- */

static json_t *handle_create_instances(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_instances b;
    if (!kiln_json_decode_instances(msg, true, &b, err)) return NULL;
    kiln_instances_error ierr = {0};
    uint32_t id = kiln_programs_create_instances(rt->programs, &b.desc, &ierr);
    kiln_json_instances_free(&b);
    return id ? ok_id("instances_id", id, err) : REFUSED(err, kiln_instances_class_name(ierr.cls), "%s", ierr.message);
}

static json_t *handle_update_instances(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_instances b;
    if (!kiln_json_decode_instances(msg, false, &b, err)) return NULL;
    /* A dispatch queued before the update draws the records as they were. */
    if (kiln_programs_queue_uses_instances(rt->programs, b.instances_id)) kiln_programs_frame(rt->programs, NULL);
    kiln_instances_error ierr = {0};
    bool ok = kiln_programs_update_instances(rt->programs, b.instances_id, b.first, b.desc.records,
                                             b.desc.records_size, &ierr);
    kiln_json_instances_free(&b);
    return ok ? ok_empty(err) : REFUSED(err, kiln_instances_class_name(ierr.cls), "%s", ierr.message);
}

static json_t *handle_destroy_instances(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    if (!kiln_json_decode_u32_field(msg, "instances_id", &id, err)) return NULL;
    if (kiln_programs_destroy_instances(rt->programs, id)) return ok_empty(err);
    return REFUSED(err, kiln_instances_class_name(KILN_INSTANCES_UNKNOWN_ID), "instances_id: unknown instance "
                   "buffer %u", id);
}

static json_t *handle_create_draw_set(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_draw_set s;
    if (!kiln_json_decode_draw_set(msg, true, &s, err)) return NULL;
    kiln_draw_set_error derr = {0};
    uint32_t id = kiln_programs_create_draw_set(rt->programs, &s.vertex_layout, &s.instance_layout, s.draws,
                                                s.draw_count, &derr);
    kiln_json_draw_set_free(&s);
    return id ? ok_id("draw_set_id", id, err) : REFUSED(err, kiln_draw_set_class_name(derr.cls), "%s", derr.message);
}

static json_t *handle_update_draw_set(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_draw_set s;
    if (!kiln_json_decode_draw_set(msg, false, &s, err)) return NULL;
    if (kiln_programs_queue_uses_draw_set(rt->programs, s.draw_set_id)) kiln_programs_frame(rt->programs, NULL);
    kiln_draw_set_error derr = {0};
    bool ok = kiln_programs_update_draw_set(rt->programs, s.draw_set_id, s.first, s.draws, s.draw_count, &derr);
    kiln_json_draw_set_free(&s);
    return ok ? ok_empty(err) : REFUSED(err, kiln_draw_set_class_name(derr.cls), "%s", derr.message);
}

static json_t *handle_destroy_draw_set(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    if (!kiln_json_decode_u32_field(msg, "draw_set_id", &id, err)) return NULL;
    if (kiln_programs_queue_uses_draw_set(rt->programs, id)) kiln_programs_frame(rt->programs, NULL);
    if (kiln_programs_destroy_draw_set(rt->programs, id)) return ok_empty(err);
    return REFUSED(err, kiln_draw_set_class_name(KILN_DRAW_SET_UNKNOWN_ID), "draw_set_id: unknown draw set %u", id);
}

/* ---- geometry kinds --------------------------------------------------------------------------- */

static json_t *handle_create_geometry(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    kiln_json_geometry g;
    if (!kiln_json_decode_geometry(msg, true, &g, err)) return NULL;
    kiln_geometry_error gerr = {0};
    uint32_t id = kiln_programs_create_geometry(rt->programs, &g.desc, &gerr);
    kiln_json_geometry_free(&g);
    return id ? ok_id("geometry_id", id, err) : REFUSED(err, kiln_geometry_class_name(gerr.cls), "%s", gerr.message);
}

/* Records the queue when one of its dispatches draws the geometry: messages act in arrival order,
 * so a dispatch queued before an update or a destroy draws the geometry as it was. */
static void record_queue_drawing(kiln_json_runtime *rt, uint32_t id) {
    if (kiln_programs_queue_uses_geometry(rt->programs, id)) kiln_programs_frame(rt->programs, NULL);
}

static json_t *handle_update_geometry(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    kiln_json_geometry g;
    if (!kiln_json_decode_u32_field(msg, "geometry_id", &id, err) || !kiln_json_decode_geometry(msg, false, &g, err))
        return NULL;
    kiln_geometry_error gerr = {0};
    if (kiln_programs_geometry_layout(rt->programs, id)) record_queue_drawing(rt, id);
    bool ok = kiln_programs_update_geometry(rt->programs, id, &g.desc, &gerr);
    kiln_json_geometry_free(&g);
    return ok ? ok_empty(err) : REFUSED(err, kiln_geometry_class_name(gerr.cls), "%s", gerr.message);
}

static json_t *handle_destroy_geometry(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    if (!kiln_json_decode_u32_field(msg, "geometry_id", &id, err)) return NULL;
    if (!kiln_programs_geometry_layout(rt->programs, id)) {
        kiln_programs_destroy_geometry(rt->programs, id); /* logs the warn-drop */
        return REFUSED(err, kiln_geometry_class_name(KILN_GEOMETRY_UNKNOWN_ID), "geometry_id: unknown geometry %u", id);
    }
    record_queue_drawing(rt, id);
    kiln_programs_destroy_geometry(rt->programs, id);
    return ok_empty(err);
}

static json_t *handle_destroy_program(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    if (!kiln_json_decode_u32_field(msg, "program_id", &id, err)) return NULL;
    /* The runtime logs its own warning; the reply names the field, as every unknown id does. */
    if (kiln_programs_destroy_program(rt->programs, id)) return ok_empty(err);
    return REFUSED(err, "unknown_program", "program_id: unknown program %u", id);
}

static json_t *handle_timings(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    uint32_t id;
    if (!kiln_json_decode_u32_field(msg, "program_id", &id, err)) return NULL;
    /* A caller on this surface asks for timings between frames: every frame it submitted counts. */
    kiln_programs_await_timings(rt->programs);
    /* The C call reports at most `max` rows, so grow until a call leaves room to spare. */
    uint32_t max = 64, n;
    kiln_pass_timing *rows = NULL;
    for (;;) {
        kiln_pass_timing *grown = realloc(rows, max * sizeof *rows);
        if (!grown) {
            free(rows);
            return out_of_memory(err);
        }
        rows = grown;
        n = kiln_programs_timings(rt->programs, id, rows, max);
        if (n < max) break;
        max *= 2;
    }
    if (n == 0) {
        free(rows);
        return REFUSED(err, "unknown_program", "program_id: unknown program %u", id);
    }
    json_t *list = json_array();
    for (uint32_t i = 0; list && i < n; i++) {
        const kiln_pass_timing *r = &rows[i];
        json_array_append_new(list, json_pack("{s:s,s:I,s:I,s:I,s:f,s:o}", "stage",
                                              kiln_pass_stage_name(r->stage), "width",
                                              (json_int_t)r->width, "height", (json_int_t)r->height, "divisor",
                                              (json_int_t)r->divisor, "cpu_record_ns", r->cpu_record_ns, "gpu_ns",
                                              r->gpu_ns < 0 ? json_null() : json_real(r->gpu_ns)));
    }
    free(rows);
    json_t *o = list ? json_pack("{s:I,s:o}", "program_id", (json_int_t)id, "rows", list) : NULL;
    return o ? o : out_of_memory(err);
}

static json_t *handle_logs(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    (void)msg;
    kiln_log *log = kiln_programs_log(rt->programs);
    json_t *records = json_array();
    kiln_log_record r;
    while (records && kiln_log_take(log, &r))
        json_array_append_new(records, json_pack("{s:s,s:s,s:s}", "level", kiln_log_level_name(r.level), "category",
                                                 r.category, "message", r.message));
    json_t *o = records ? json_pack("{s:o,s:I}", "records", records, "dropped", (json_int_t)log->dropped) : NULL;
    return o ? o : out_of_memory(err);
}

static json_t *handle_describe_kinds(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    (void)rt;
    const json_t *prefix = json_object_get(msg, "prefix");
    if (prefix && !json_is_null(prefix) && !json_is_string(prefix))
        return REFUSED(err, "bad_message", "prefix: expected a string");
    json_t *o = kiln_json_describe_kinds(json_is_string(prefix) ? json_string_value(prefix) : NULL);
    return o ? o : out_of_memory(err);
}

static json_t *handle_frame(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err) {
    (void)msg;
    kiln_error kerr = {0};
    return kiln_programs_frame(rt->programs, &kerr) ? ok_empty(err) : REFUSED(err, "frame_failed", "%s", kerr.message);
}

/* ---- routing ---------------------------------------------------------------------------------- */

typedef json_t *(*kind_handler)(kiln_json_runtime *rt, const json_t *msg, kiln_json_error *err);

static const struct {
    const char *kind;
    kind_handler handle;
} HANDLERS[] = {
    {"create_texture", handle_create_texture},
    {"update_texture", handle_update_texture},
    {"destroy_texture", handle_destroy_texture},
    {"read_texture", handle_read_texture},
    {"create_texture_array", handle_create_texture_array},
    {"write_texture_layer", handle_write_texture_layer},
    {"create_texture_volume", handle_create_texture_volume},
    {"create_geometry", handle_create_geometry},
    {"update_geometry", handle_update_geometry},
    {"destroy_geometry", handle_destroy_geometry},
    {"create_instances", handle_create_instances},
    {"update_instances", handle_update_instances},
    {"destroy_instances", handle_destroy_instances},
    {"create_draw_set", handle_create_draw_set},
    {"update_draw_set", handle_update_draw_set},
    {"destroy_draw_set", handle_destroy_draw_set},
    {"program.register", handle_register},
    {"program.dispatch", handle_dispatch},
    {"program.destroy", handle_destroy_program},
    {"program.timings", handle_timings},
    {"logs", handle_logs},
    {"describe_kinds", handle_describe_kinds},
    {"frame", handle_frame},
};

/* The Ok payload of msg's handler, or NULL with err filled. */
static json_t *route(kiln_json_runtime *rt, const json_t *msg, const char *kind, kiln_json_error *err) {
    for (size_t i = 0; i < sizeof HANDLERS / sizeof HANDLERS[0]; i++)
        if (strcmp(kind, HANDLERS[i].kind) == 0) return HANDLERS[i].handle(rt, msg, err);
    return REFUSED(err, "bad_message", "kind: \"%s\" has no handler", kind);
}

/* The reply envelope around a handler's outcome; NULL only when memory runs out. */
static json_t *reply_value(json_t *payload, kiln_json_error *err) {
    if (payload) return json_pack("{s:o}", "Ok", payload);
    if (!err->cls[0]) out_of_memory(err);
    return json_pack("{s:{s:s,s:s}}", "Err", "class", err->cls, "error", err->message);
}

static char *reply_text(json_t *reply) {
    char *text = reply ? json_dumps(reply, JSON_COMPACT) : NULL;
    json_decref(reply);
    return text;
}

json_t *kiln_json_runtime_handle_value(kiln_json_runtime *rt, const json_t *message) {
    kiln_json_error err = {0};
    const char *kind;
    if (!rt) kiln_json_error_set(&err, "bad_message", "no runtime: kiln_json_runtime_handle_value was given NULL");
    if (!rt || !kiln_json_message_kind(message, &kind, &err)) return reply_value(NULL, &err);
    return reply_value(route(rt, message, kind, &err), &err);
}

char *kiln_json_runtime_handle(kiln_json_runtime *rt, const char *message, size_t length) {
    kiln_json_error err = {0};
    json_t *msg;
    const char *kind;
    /* Misuse gets a reply like any refusal rather than a crash: the caller prints replies. */
    if (!rt) kiln_json_error_set(&err, "bad_message", "no runtime: kiln_json_runtime_handle was given NULL");
    else if (!message && length) kiln_json_error_set(&err, "bad_message", "message: NULL with a length of bytes");
    if (err.cls[0] || !kiln_json_parse_message(message ? message : "", length, &msg, &kind, &err))
        return reply_text(reply_value(NULL, &err));
    json_t *reply = reply_value(route(rt, msg, kind, &err), &err);
    json_decref(msg);
    return reply_text(reply);
}
