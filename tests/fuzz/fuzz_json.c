/* libFuzzer target: the JSON message surface without a device.
 *
 * One input is one message text. It goes through kiln_json_parse_message and then through the
 * decoder of its kind, exactly as kiln_json_runtime_handle decodes it before acting (json_runtime.c's
 * handlers), so every decoder the surface has (textures, blobs, program.register, program.dispatch,
 * arrays and volumes, the id fields, describe_kinds) sees hostile input. Nothing here touches a GPU: the runtime's
 * actions come after decoding and are the GPU tests' business. A refusal must fill its class and a
 * NUL-terminated message; both are checked, since a reply is built from them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <kiln/core/utf8.h>
#include <kiln/program_json.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A refusal always names a class and ends its message inside the buffer, in valid UTF-8 (the
 * reply is a JSON string built from it; #12 class 4). */
static void check_refusal(const kiln_json_error *err) {
    FUZZ_CHECK(err->cls[0] != '\0');
    FUZZ_CHECK(memchr(err->cls, '\0', sizeof err->cls));
    FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message));
    FUZZ_CHECK(kiln_utf8_check(err->message, strlen(err->message), NULL));
}

static void decode_id(const json_t *msg, const char *field) {
    kiln_json_error err = {0};
    uint32_t id = 0;
    if (!kiln_json_decode_u32_field(msg, field, &id, &err)) check_refusal(&err);
}

static void decode_create_texture(const json_t *msg) {
    kiln_json_error err = {0};
    kiln_json_texture t;
    if (kiln_json_decode_create_texture(msg, &t, &err)) {
        /* The descriptor points at the decoded pixels, whose size it states. */
        FUZZ_CHECK(t.desc.pixels_size == t.pixels.size);
        kiln_json_texture_free(&t);
    } else {
        check_refusal(&err);
    }
}

static void decode_update_texture(const json_t *msg) {
    decode_id(msg, "texture_id");
    const json_t *value = json_object_get(msg, "pixels");
    if (!value) return; /* refused by the handler before decoding, as a missing field */
    kiln_json_error err = {0};
    kiln_json_blob pixels;
    if (kiln_json_decode_blob(value, "pixels", &pixels, &err)) {
        /* What the surface sends back (read_texture) is base64 of the same bytes. */
        char *text = kiln_json_base64_encode(pixels.bytes, pixels.size);
        FUZZ_CHECK(text && strlen(text) == (pixels.size + 2) / 3 * 4);
        free(text);
        kiln_json_blob_free(&pixels);
    } else {
        check_refusal(&err);
    }
}

static void decode_create_texture_array(const json_t *msg) {
    kiln_json_error err = {0};
    kiln_texture_array_desc d;
    if (!kiln_json_decode_create_texture_array(msg, &d, &err)) check_refusal(&err);
}

static void decode_write_texture_layer(const json_t *msg) {
    kiln_json_error err = {0};
    kiln_json_layer_write w;
    if (kiln_json_decode_write_texture_layer(msg, &w, &err)) {
        /* An empty blob still points somewhere, so the registry refuses its length. */
        FUZZ_CHECK(w.bytes && (w.pixels.size == 0 || w.bytes == w.pixels.bytes));
        kiln_json_layer_write_free(&w);
    } else {
        check_refusal(&err);
    }
}

static void decode_create_texture_volume(const json_t *msg) {
    kiln_json_error err = {0};
    kiln_json_volume v;
    if (kiln_json_decode_create_texture_volume(msg, &v, &err)) {
        FUZZ_CHECK(v.desc.pixels && v.desc.pixels_size == v.pixels.size);
        kiln_json_volume_free(&v);
    } else {
        check_refusal(&err);
    }
}

static void decode_register(const json_t *msg) {
    kiln_json_error err = {0};
    kiln_json_program p;
    if (kiln_json_decode_program(msg, &p, &err)) {
        FUZZ_CHECK(p.desc.pass_count == 0 || p.desc.passes);
        kiln_json_program_free(&p);
    } else {
        check_refusal(&err);
    }
}

static void decode_dispatch(const json_t *msg) {
    kiln_json_error err = {0};
    kiln_json_dispatch d;
    if (kiln_json_decode_dispatch(msg, &d, &err)) {
        FUZZ_CHECK(d.binding_count == 0 || d.bindings);
        kiln_json_dispatch_free(&d);
    } else {
        check_refusal(&err);
    }
}

static void decode_geometry(const json_t *msg, bool create) {
    kiln_json_error err = {0};
    kiln_json_geometry g;
    if (!create) decode_id(msg, "geometry_id");
    if (kiln_json_decode_geometry(msg, create, &g, &err)) {
        FUZZ_CHECK(g.desc.vertices_size == g.vertices.size && g.desc.indices_size == g.indices.size);
        /* The layout a decoder hands on is checked by the same rules create applies, and they
         * never read past the attributes a layout holds, whatever count it claims. */
        kiln_geometry_error gerr;
        kiln_geometry_class cls = kiln_geometry_validate(&g.desc.layout, &g.desc, &gerr);
        FUZZ_CHECK(cls == KILN_GEOMETRY_OK || memchr(gerr.message, '\0', sizeof gerr.message));
        kiln_json_geometry_free(&g);
    } else {
        check_refusal(&err);
    }
}

static void decode_instances(const json_t *msg, bool create) {
    kiln_json_error err = {0};
    kiln_json_instances b;
    if (kiln_json_decode_instances(msg, create, &b, &err)) {
        FUZZ_CHECK(b.desc.records_size == b.records.size);
        kiln_json_instances_free(&b);
    } else {
        check_refusal(&err);
    }
}

static void decode_draw_set(const json_t *msg, bool create) {
    kiln_json_error err = {0};
    kiln_json_draw_set d;
    if (kiln_json_decode_draw_set(msg, create, &d, &err)) {
        FUZZ_CHECK(d.draw_count == 0 || d.draws);
        kiln_json_draw_set_free(&d);
    } else {
        check_refusal(&err);
    }
}

static void describe_kinds(const json_t *msg) {
    const json_t *prefix = json_object_get(msg, "prefix");
    json_t *schema = kiln_json_describe_kinds(json_is_string(prefix) ? json_string_value(prefix) : NULL);
    FUZZ_CHECK(schema);
    json_decref(schema);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kiln_json_error err = {0};
    json_t *msg = NULL;
    const char *kind = NULL;
    if (!kiln_json_parse_message((const char *)data, size, &msg, &kind, &err)) {
        check_refusal(&err);
        return 0;
    }
    if (!strcmp(kind, "create_texture")) decode_create_texture(msg);
    else if (!strcmp(kind, "update_texture")) decode_update_texture(msg);
    else if (!strcmp(kind, "destroy_texture") || !strcmp(kind, "read_texture")) decode_id(msg, "texture_id");
    else if (!strcmp(kind, "create_texture_array")) decode_create_texture_array(msg);
    else if (!strcmp(kind, "write_texture_layer")) decode_write_texture_layer(msg);
    else if (!strcmp(kind, "create_texture_volume")) decode_create_texture_volume(msg);
    else if (!strcmp(kind, "create_geometry") || !strcmp(kind, "update_geometry"))
        decode_geometry(msg, !strcmp(kind, "create_geometry"));
    else if (!strcmp(kind, "destroy_geometry")) decode_id(msg, "geometry_id");
    else if (!strcmp(kind, "create_instances") || !strcmp(kind, "update_instances"))
        decode_instances(msg, !strcmp(kind, "create_instances"));
    else if (!strcmp(kind, "destroy_instances")) decode_id(msg, "instances_id");
    else if (!strcmp(kind, "create_draw_set") || !strcmp(kind, "update_draw_set"))
        decode_draw_set(msg, !strcmp(kind, "create_draw_set"));
    else if (!strcmp(kind, "destroy_draw_set")) decode_id(msg, "draw_set_id");
    else if (!strcmp(kind, "program.register")) decode_register(msg);
    else if (!strcmp(kind, "program.dispatch")) decode_dispatch(msg);
    else if (!strcmp(kind, "program.destroy") || !strcmp(kind, "program.timings")) decode_id(msg, "program_id");
    else if (!strcmp(kind, "describe_kinds")) describe_kinds(msg);
    json_decref(msg);
    return 0;
}
