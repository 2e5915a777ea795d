/* The JSON surface's texture array and volume kinds: create_texture_array, write_texture_layer and
 * create_texture_volume drawing ids from create_texture's sequence, their refusals with the
 * registry's reasons and no id taken, write_texture_layer's warn-drop classes (logged under
 * "texture", the layer unchanged), the plain-texture kinds refusing arrays and volumes,
 * destroy_texture releasing any of the three, describe_kinds listing them, and an array layer and
 * a volume read by a program registered, dispatched and read back through the runtime. */
#include <jansson.h>

#include <kiln/program_json.h>

#include "gfx_fixture.h"

typedef struct surface_env {
    gfx_fixture f;
    kiln_json_runtime *rt;
} surface_env;

#define ENV_OPEN(e)                                                                     \
    do {                                                                                \
        FIXTURE_OPEN((e).f);                                                            \
        kiln_error _err = {0};                                                          \
        (e).rt = kiln_json_runtime_create((e).f.gfx, (e).f.res, &_err);                 \
        CHECK_MSG((e).rt != NULL, "%s", _err.message);                                  \
    } while (0)

#define ENV_CLOSE_CLEAN(e)                                                              \
    do {                                                                                \
        kiln_json_runtime_destroy((e).rt);                                              \
        FIXTURE_CLOSE_CLEAN((e).f);                                                     \
    } while (0)

static json_t *send(kiln_json_runtime *rt, const char *message) {
    char *text = kiln_json_runtime_handle(rt, message, strlen(message));
    json_t *reply = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return reply;
}

static const char *err_class(const json_t *reply) {
    return json_string_value(json_object_get(json_object_get(reply, "Err"), "class"));
}

static const char *err_text(const json_t *reply) {
    return json_string_value(json_object_get(json_object_get(reply, "Err"), "error"));
}

/* Sends a message expecting Ok; returns the reply's id field (or 1 when it has none), 0 on Err. */
static json_int_t send_ok(kiln_json_runtime *rt, const char *message, const char *id_key) {
    json_t *reply = send(rt, message);
    json_t *ok = json_object_get(reply, "Ok");
    json_int_t id = ok ? (id_key ? json_integer_value(json_object_get(ok, id_key)) : 1) : 0;
    if (!ok) fprintf(stderr, "  reply: %s: %s\n", err_class(reply), err_text(reply));
    json_decref(reply);
    return id;
}

/* Sends a message expecting Err of `cls` with exactly `error`. */
static bool send_refused(kiln_json_runtime *rt, const char *message, const char *cls, const char *error) {
    json_t *reply = send(rt, message);
    bool ok = err_class(reply) && strcmp(err_class(reply), cls) == 0 && strcmp(err_text(reply), error) == 0;
    if (!ok) fprintf(stderr, "  %s\n  reply: %s: %s\n", message, err_class(reply), err_text(reply));
    json_decref(reply);
    return ok;
}

#define ARRAY(format, side, layers, mips)                                                                       \
    "{\"kind\": \"create_texture_array\", \"format\": \"" format "\", \"side\": " #side ", \"layers\": " #layers \
    ", \"mips\": \"" mips "\"}"

TEST(arrays_and_volumes_take_ids_from_the_texture_sequence) {
    surface_env e;
    ENV_OPEN(e);
    json_int_t plain = send_ok(e.rt, "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 1, \"height\": 1, "
                                     "\"usage\": \"Writable\", \"sampling\": \"Linear\"}", "texture_id");
    json_int_t array = send_ok(e.rt, ARRAY("R16Float", 4, 6, "Base"), "texture_id");
    json_int_t volume = send_ok(e.rt, "{\"kind\": \"create_texture_volume\", \"format\": \"R8\", \"width\": 2, "
                                      "\"height\": 1, \"depth\": 2, \"pixels\": \"AQIDBA==\"}", "texture_id");
    json_int_t chain = send_ok(e.rt, ARRAY("Rgba8", 5, 1, "Chain"), "texture_id");
    kiln_texture_registry *reg = kiln_json_runtime_textures(e.rt);
    const kiln_texture_info *a = kiln_texture_registry_info(reg, 2), *v = kiln_texture_registry_info(reg, 3),
                            *c = kiln_texture_registry_info(reg, 4);
    CHECK(plain == 1 && array == 2 && volume == 3 && chain == 4);
    CHECK(a && a->kind == KILN_TEXTURE_ARRAY && a->format == KILN_FORMAT_R16_FLOAT && a->width == 4 && a->layers == 6 &&
          a->mip_levels == 1);
    CHECK(v && v->kind == KILN_TEXTURE_VOLUME && v->width == 2 && v->height == 1 && v->layers == 2);
    CHECK(c && c->mip_levels == 3);
    ENV_CLOSE_CLEAN(e);
}

TEST(create_refusals_reply_the_registry_reason_and_take_no_id) {
    surface_env e;
    ENV_OPEN(e);
    char side[200], layers[200];
    const WGPULimits *limits = &e.f.gfx->limits;
    snprintf(side, sizeof side, "create_texture_array: side 0 is outside 1..%u (the device's maxTextureDimension2D)",
             limits->maxTextureDimension2D);
    snprintf(layers, sizeof layers,
             "create_texture_array: layers 0 is outside 1..%u (the device's maxTextureArrayLayers)",
             limits->maxTextureArrayLayers);
    CHECK(send_refused(e.rt, ARRAY("Rgba8", 0, 1, "Base"), "invalid_texture", side));
    CHECK(send_refused(e.rt, ARRAY("Rgba8", 4, 0, "Chain"), "invalid_texture", layers));
    CHECK(send_refused(e.rt, ARRAY("Rgba8", 4, 1, "Chian"), "bad_message", "mips: unknown mips form \"Chian\""));
    CHECK(send_refused(e.rt, ARRAY("Rgb8", 4, 1, "Base"), "bad_message", "format: unknown format \"Rgb8\""));
    CHECK(send_refused(e.rt,
                       "{\"kind\": \"create_texture_volume\", \"format\": \"R8\", \"width\": 2049, \"height\": 1, "
                       "\"depth\": 1, \"pixels\": []}",
                       "invalid_texture",
                       "create_texture_volume: width 2049 is outside 1..2048 (max_texture_dimension_3d at its default)"));
    CHECK(send_refused(e.rt,
                       "{\"kind\": \"create_texture_volume\", \"format\": \"R8\", \"width\": 2, \"height\": 1, "
                       "\"depth\": 2, \"pixels\": []}",
                       "invalid_texture",
                       "create_texture_volume: pixels hold 0 bytes, expected 4 (2x1x2 R8, every slice, slice 0 first)"));
    CHECK(send_refused(e.rt,
                       "{\"kind\": \"create_texture_volume\", \"format\": \"R8\", \"width\": 2, \"height\": 1, "
                       "\"depth\": 2, \"pixels\": [1, 2, 3]}",
                       "invalid_texture",
                       "create_texture_volume: pixels hold 3 bytes, expected 4 (2x1x2 R8, every slice, slice 0 first)"));
    CHECK_EQ_INT(send_ok(e.rt, ARRAY("Rgba8", 4, 1, "Base"), "texture_id"), 1);
    ENV_CLOSE_CLEAN(e);
}

/* The newest log record, which a refused write just added. */
static bool logged_as_texture_warning(kiln_json_runtime *rt, const char *message) {
    kiln_log *log = kiln_programs_log(kiln_json_runtime_programs(rt));
    uint32_t n = kiln_log_count(log);
    const kiln_log_record *r = n ? kiln_log_at(log, n - 1) : NULL;
    return r && r->level == KILN_LOG_WARN && strcmp(r->category, "texture") == 0 && strcmp(r->message, message) == 0;
}

TEST(a_refused_write_texture_layer_replies_its_class_and_logs_the_same_warning) {
    surface_env e;
    ENV_OPEN(e);
    CHECK(send_ok(e.rt, "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 1, \"height\": 1, "
                        "\"usage\": \"Sampled\", \"sampling\": \"Linear\"}", "texture_id") == 1);
    CHECK(send_ok(e.rt, "{\"kind\": \"create_texture_volume\", \"format\": \"R8\", \"width\": 1, \"height\": 1, "
                        "\"depth\": 1, \"pixels\": [7]}", "texture_id") == 2);
    CHECK(send_ok(e.rt, ARRAY("R8", 2, 2, "Chain"), "texture_id") == 3); /* levels 2 and 1: 5 bytes a layer */
    static const struct {
        const char *message, *cls, *error;
    } rows[] = {
        {"{\"kind\": \"write_texture_layer\", \"texture_id\": 9, \"layer\": 0, \"pixels\": [1, 2, 3, 4, 5]}",
         "unknown_texture", "dropped write_texture_layer: unknown texture id 9; the layer is unchanged"},
        {"{\"kind\": \"write_texture_layer\", \"texture_id\": 1, \"layer\": 0, \"pixels\": [1, 2, 3, 4]}",
         "wrong_texture_kind",
         "dropped write_texture_layer: texture 1 is a plain texture, not a texture array; the layer is unchanged"},
        {"{\"kind\": \"write_texture_layer\", \"texture_id\": 2, \"layer\": 0, \"pixels\": [1]}", "wrong_texture_kind",
         "dropped write_texture_layer: texture 2 is a volume texture, not a texture array; the layer is unchanged"},
        {"{\"kind\": \"write_texture_layer\", \"texture_id\": 3, \"layer\": 2, \"pixels\": [1, 2, 3, 4, 5]}",
         "invalid_texture",
         "dropped write_texture_layer: layer 2 is outside 0..1 (texture 3 has 2 layers); the layer is unchanged"},
        {"{\"kind\": \"write_texture_layer\", \"texture_id\": 3, \"layer\": 1, \"pixels\": [1, 2, 3, 4]}",
         "invalid_texture",
         "dropped write_texture_layer: texture 3, layer 1: pixels hold 4 bytes, expected 5 (every level of one "
         "layer: 2 levels from side 2, R8); the layer is unchanged"},
        {"{\"kind\": \"write_texture_layer\", \"texture_id\": 3, \"layer\": 1, \"pixels\": []}", "invalid_texture",
         "dropped write_texture_layer: texture 3, layer 1: pixels hold 0 bytes, expected 5 (every level of one "
         "layer: 2 levels from side 2, R8); the layer is unchanged"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        CHECK_MSG(send_refused(e.rt, rows[i].message, rows[i].cls, rows[i].error), "row %zu", i);
        CHECK_MSG(logged_as_texture_warning(e.rt, rows[i].error), "row %zu", i);
    }
    CHECK_EQ_INT(send_ok(e.rt, "{\"kind\": \"write_texture_layer\", \"texture_id\": 3, \"layer\": 1, \"pixels\": "
                               "[1, 2, 3, 4, 5]}", NULL), 1);
    ENV_CLOSE_CLEAN(e);
}

TEST(plain_texture_kinds_refuse_arrays_and_volumes_and_destroy_releases_both) {
    surface_env e;
    ENV_OPEN(e);
    CHECK(send_ok(e.rt, ARRAY("Rgba8", 2, 2, "Base"), "texture_id") == 1);
    CHECK(send_ok(e.rt, "{\"kind\": \"create_texture_volume\", \"format\": \"R8\", \"width\": 1, \"height\": 1, "
                        "\"depth\": 1, \"pixels\": [7]}", "texture_id") == 2);
    CHECK(send_refused(e.rt, "{\"kind\": \"update_texture\", \"texture_id\": 1, \"pixels\": []}", "unknown_texture",
                       "texture_id: texture 1 is not a plain texture"));
    CHECK(send_refused(e.rt, "{\"kind\": \"read_texture\", \"texture_id\": 1}", "unknown_texture",
                       "texture_id: texture 1 is not a plain texture"));
    CHECK(send_refused(e.rt, "{\"kind\": \"read_texture\", \"texture_id\": 2}", "unknown_texture",
                       "texture_id: texture 2 is not a plain texture"));
    kiln_live_counts before = kiln_resources_live_counts(e.f.res);
    CHECK(send_ok(e.rt, "{\"kind\": \"frame\"}", NULL)); /* realizes the array: its queue has work */
    CHECK(send_ok(e.rt, "{\"kind\": \"destroy_texture\", \"texture_id\": 1}", NULL));
    CHECK(send_ok(e.rt, "{\"kind\": \"destroy_texture\", \"texture_id\": 2}", NULL));
    kiln_live_counts after = kiln_resources_live_counts(e.f.res);
    CHECK_EQ_INT(after.textures, before.textures);
    CHECK(send_refused(e.rt, "{\"kind\": \"write_texture_layer\", \"texture_id\": 1, \"layer\": 0, \"pixels\": []}",
                       "unknown_texture", "dropped write_texture_layer: unknown texture id 1; the layer is unchanged"));
    CHECK(send_refused(e.rt, "{\"kind\": \"destroy_texture\", \"texture_id\": 2}", "unknown_texture",
                       "texture_id: unknown texture 2"));
    CHECK(send_ok(e.rt, ARRAY("Rgba8", 2, 2, "Base"), "texture_id") == 3);
    ENV_CLOSE_CLEAN(e);
}

TEST(describe_kinds_lists_the_array_and_volume_kinds_and_their_fields) {
    json_t *schema = kiln_json_describe_kinds(NULL);
    static const struct {
        const char *kind, *fields;
    } want[] = {
        {"create_texture_array", "format side layers mips "},
        {"write_texture_layer", "texture_id layer pixels "},
        {"create_texture_volume", "format width height depth pixels "},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        char names[128] = "";
        json_t *kind;
        size_t k;
        bool found = false;
        json_array_foreach(json_object_get(schema, "kinds"), k, kind) {
            if (strcmp(json_string_value(json_object_get(kind, "kind")), want[w].kind) != 0) continue;
            found = true;
            json_t *field;
            size_t i;
            json_array_foreach(json_object_get(kind, "fields"), i, field) {
                strncat(names, json_string_value(json_object_get(field, "name")), sizeof names - strlen(names) - 2);
                strcat(names, " ");
            }
        }
        CHECK_MSG(found, "%s", want[w].kind);
        CHECK_MSG(strcmp(names, want[w].fields) == 0, "%s: %s", want[w].kind, names);
    }
    json_decref(schema);
}

/* Pixel 0 samples layer 1 of the array halfway between its columns (100 and 200 in red); pixel 1
 * loads texel (0, 0, 1) of the R32Float volume, Texel. */
static const char E2E_WGSL[] =
    "@group(1) @binding(0) var layers: texture_2d_array<f32>;\\n"
    "@group(1) @binding(1) var layers_sampler: sampler;\\n"
    "@group(1) @binding(2) var volume: texture_3d<f32>;\\n"
    "@fragment fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {\\n"
    "    let a = textureSampleLevel(layers, layers_sampler, vec2<f32>(0.5, 0.5), 1, 0.0);\\n"
    "    let v = textureLoad(volume, vec3<i32>(0, 0, 1), 0).r;\\n"
    "    return select(a, vec4<f32>(v, v, v, 1.0), pos.x > 1.0);\\n"
    "}\\n";

TEST(an_array_layer_and_a_volume_read_by_a_program_through_the_runtime) {
    surface_env e;
    ENV_OPEN(e);
    CHECK(send_ok(e.rt, "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 1, "
                        "\"usage\": \"Writable\", \"sampling\": \"Linear\"}", "texture_id") == 1);
    CHECK(send_ok(e.rt, ARRAY("Rgba8", 2, 3, "Base"), "texture_id") == 2);
    static const float slices[2] = {0.8f, 0.2f};
    char *slice_text = kiln_json_base64_encode(slices, sizeof slices);
    char volume[256];
    snprintf(volume, sizeof volume, "{\"kind\": \"create_texture_volume\", \"format\": \"R32Float\", \"width\": 1, "
                                    "\"height\": 1, \"depth\": 2, \"pixels\": \"%s\"}", slice_text);
    free(slice_text);
    CHECK(send_ok(e.rt, volume, "texture_id") == 3);
    CHECK(send_ok(e.rt, "{\"kind\": \"write_texture_layer\", \"texture_id\": 2, \"layer\": 1, \"pixels\": "
                        "[100, 10, 0, 255, 200, 10, 0, 255, 100, 10, 0, 255, 200, 10, 0, 255]}", NULL));
    /* A refused write leaves layer 1 as the accepted one wrote it. */
    CHECK(send_refused(e.rt, "{\"kind\": \"write_texture_layer\", \"texture_id\": 2, \"layer\": 1, \"pixels\": [0]}",
                       "invalid_texture",
                       "dropped write_texture_layer: texture 2, layer 1: pixels hold 1 bytes, expected 16 (every level "
                       "of one layer: 1 level from side 2, Rgba8); the layer is unchanged"));
    char reg[2048];
    snprintf(reg, sizeof reg,
             "{\"kind\": \"program.register\", \"wgsl\": \"%s\", \"bindings\": ["
             "{\"format\": \"Rgba8\", \"shape\": {\"Target\": \"Full\"}, \"sampling\": \"Texel\"},"
             "{\"format\": \"Rgba8\", \"shape\": \"TextureArray\", \"sampling\": {\"Filtered\": {\"wrap\": \"Clamp\", "
             "\"mips\": \"Base\"}}},"
             "{\"format\": \"R32Float\", \"shape\": \"TextureVolume\", \"sampling\": \"Texel\"}],"
             " \"transients\": [], \"geometries\": [], \"depth_transients\": [],"
             " \"passes\": [{\"stage\": \"Fragment\", \"entry_point\": \"fs_main\", \"inputs\": [{\"Binding\": "
             "{\"index\": 1}}, {\"Binding\": {\"index\": 2}}], \"output\": {\"Binding\": {\"index\": 0}}, \"blend\": "
             "\"Replace\", \"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": null}]}",
             E2E_WGSL);
    CHECK(send_ok(e.rt, reg, "program_id") == 1);
    CHECK(send_ok(e.rt, "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 2, 3], \"geometries\": "
                        "[], \"draw_sets\": [], \"uniforms\": []}", NULL));
    /* The kinds are checked at dispatch too: a plain texture where the array binds is dropped. */
    CHECK(send_ok(e.rt, "{\"kind\": \"create_texture\", \"format\": \"Rgba8\", \"width\": 2, \"height\": 2, "
                        "\"usage\": \"Sampled\", \"sampling\": \"Linear\"}", "texture_id") == 4);
    CHECK(send_refused(e.rt, "{\"kind\": \"program.dispatch\", \"program_id\": 1, \"bindings\": [1, 4, 3], "
                             "\"geometries\": [], \"draw_sets\": [], \"uniforms\": []}", "wrong_texture_kind",
                       "dropped dispatch of program 1 (wrong_texture_kind): pass 0 (fs_main), binding 1: texture 4 is "
                       "a plain texture; the binding takes a texture array"));
    json_t *reply = send(e.rt, "{\"kind\": \"read_texture\", \"texture_id\": 1}");
    kiln_json_blob pixels = {0};
    kiln_json_error jerr = {0};
    json_t *ok = json_object_get(reply, "Ok");
    bool read = ok && kiln_json_decode_blob(json_object_get(ok, "pixels"), "pixels", &pixels, &jerr) && pixels.size == 8;
    if (!ok) fprintf(stderr, "  read: %s: %s\n", err_class(reply), err_text(reply));
    static const uint8_t want[8] = {150, 10, 0, 255, 51, 51, 51, 255};
    bool same = read && memcmp(pixels.bytes, want, 8) == 0;
    if (read && !same)
        fprintf(stderr, "  got %u %u %u %u  %u %u %u %u\n", pixels.bytes[0], pixels.bytes[1], pixels.bytes[2],
                pixels.bytes[3], pixels.bytes[4], pixels.bytes[5], pixels.bytes[6], pixels.bytes[7]);
    kiln_json_blob_free(&pixels);
    json_decref(reply);
    CHECK(read);
    CHECK(same);
    ENV_CLOSE_CLEAN(e);
}

TEST_MAIN(T(arrays_and_volumes_take_ids_from_the_texture_sequence),
          T(create_refusals_reply_the_registry_reason_and_take_no_id),
          T(a_refused_write_texture_layer_replies_its_class_and_logs_the_same_warning),
          T(plain_texture_kinds_refuse_arrays_and_volumes_and_destroy_releases_both),
          T(describe_kinds_lists_the_array_and_volume_kinds_and_their_fields),
          T(an_array_layer_and_a_volume_read_by_a_program_through_the_runtime))
