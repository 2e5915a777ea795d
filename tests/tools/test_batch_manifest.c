/* The batch manifest of kiln-render --batch (tools/batch_manifest.c): each field read into the
 * item, kiln-render's defaults for what is left out, paths taken from the manifest's directory,
 * and every class of bad line refused with its exact "line N: reason". No GPU. */
#include <stdio.h>
#include <unistd.h>

#include <kiln/import.h>

#include "../tools/batch_manifest.h"
#include "test.h"

/* Parses `text` as line 7 of a manifest in /data/set; returns whether it parsed. */
static bool parse(const char *text, batch_item *item, char *why, size_t size) {
    batch_line line = {.number = 7, .text = text, .length = strlen(text)};
    why[0] = '\0';
    return batch_item_parse(&line, "/data/set", item, why, size);
}

TEST(a_line_of_model_and_out_gets_kiln_renders_defaults) {
    batch_item item;
    char why[512];
    CHECK_MSG(parse("{\"model\": \"Box.glb\", \"out\": \"box.png\"}", &item, why, sizeof why), "%s", why);
    CHECK_EQ_INT(item.line, 7);
    CHECK(!strcmp(item.model, "/data/set/Box.glb"));
    CHECK(!strcmp(item.out, "/data/set/box.png"));
    CHECK(!item.env[0]);
    CHECK_EQ_INT(item.width, 1280);
    CHECK_EQ_INT(item.height, 720);
    CHECK_EQ_INT(item.camera, BATCH_CAMERA_FRAMED);
    CHECK(item.time == 0.0f && item.env_rotation == 0.0f && item.fov_y == 0.0f);
    CHECK(!item.sun_given && !item.no_sun && item.sun_lux == 0.0f);
    CHECK_EQ_INT(item.outputs, BATCH_OUTPUT_COLOR);
    kiln_render_settings zero = {0};
    CHECK(!memcmp(&item.settings, &zero, sizeof zero));
}

TEST(absolute_paths_stay_as_they_are) {
    batch_item item;
    char why[512];
    CHECK_MSG(parse("{\"model\": \"/m/Box.glb\", \"out\": \"/o/box.png\", \"env\": \"/e/sky.hdr\"}", &item, why, sizeof why),
              "%s", why);
    CHECK(!strcmp(item.model, "/m/Box.glb"));
    CHECK(!strcmp(item.out, "/o/box.png"));
    CHECK(!strcmp(item.env, "/e/sky.hdr"));
}

TEST(every_field_is_read) {
    batch_item item;
    char why[512];
    const char *line =
        "{\"model\": \"m/Duck.glb\", \"out\": \"o/duck.png\", \"size\": [64, 48], \"time\": 1.5,"
        " \"env\": \"sky.hdr\", \"env_rotation\": -2, \"tonemap\": \"aces\", \"exposure\": 2,"
        " \"sun\": [0, -1, 0], \"sun_lux\": 5, \"outputs\": [\"normals\", \"color\"],"
        " \"view\": {\"azimuth\": 1, \"elevation\": -0.5, \"distance_scale\": 2, \"fov_y\": 0.5},"
        " \"settings\": {\"msaa\": 4, \"fxaa\": true, \"wireframe\": true, \"no_bloom\": true, \"bloom_strength\": 0.1,"
        " \"bloom_threshold\": 2, \"no_shadows\": true, \"shadow_distance\": 9, \"no_ao\": true, \"ao_radius\": 0.25,"
        " \"env_intensity\": 3, \"debug\": \"albedo\", \"background\": [0.25, 0.5, 1], \"no_culling\": true,"
        " \"cascade_resolution\": 1024, \"atlas_size\": 2048, \"atlas_tile\": 256, \"contrast\": 0.5,"
        " \"saturation\": -0.25, \"white_balance_temperature\": 0.3, \"white_balance_tint\": -0.1,"
        " \"lift\": [0, 0.1, 0.2], \"gamma\": 1.2, \"gain\": [1, 1.1, 0.9]}, \"lut\": \"looks/warm.cube\"}";
    CHECK_MSG(parse(line, &item, why, sizeof why), "%s", why);
    CHECK(!strcmp(item.model, "/data/set/m/Duck.glb"));
    CHECK(!strcmp(item.env, "/data/set/sky.hdr"));
    CHECK_EQ_INT(item.width, 64);
    CHECK_EQ_INT(item.height, 48);
    CHECK(item.time == 1.5f && item.env_rotation == -2.0f);
    CHECK_EQ_INT(item.settings.tonemapper, KILN_TONEMAP_ACES);
    CHECK(item.settings.exposure == 2.0f);
    CHECK(item.sun_given && item.sun.y == -1.0f && item.sun_lux == 5.0f);
    CHECK_EQ_INT(item.outputs, BATCH_OUTPUT_COLOR | BATCH_OUTPUT_NORMALS);
    CHECK_EQ_INT(item.camera, BATCH_CAMERA_VIEW);
    CHECK(item.azimuth == 1.0f && item.elevation == -0.5f && item.distance_scale == 2.0f && item.fov_y == 0.5f);
    const kiln_render_settings *s = &item.settings;
    CHECK_EQ_INT(s->msaa, 4);
    CHECK(s->fxaa && s->wireframe && s->disable_bloom && s->disable_shadows && s->disable_ao);
    CHECK(s->bloom_strength == 0.1f && s->bloom_threshold == 2.0f && s->shadow_distance == 9.0f);
    CHECK(s->ao_radius == 0.25f && s->ibl_intensity == 3.0f);
    CHECK(s->disable_culling && s->cascade_resolution == 1024 && s->atlas_size == 2048 && s->atlas_tile == 256);
    CHECK_EQ_INT(s->debug, KILN_DEBUG_ALBEDO);
    CHECK_EQ_INT(s->background, KILN_BACKGROUND_COLOR);
    CHECK(s->background_color.x == 0.25f && s->background_color.y == 0.5f && s->background_color.z == 1.0f);
    CHECK(s->contrast == 0.5f && s->saturation == -0.25f && s->white_balance_temperature == 0.3f &&
          s->white_balance_tint == -0.1f);
    CHECK(s->lift.y == 0.1f && s->lift.z == 0.2f && s->gamma.x == 1.2f && s->gamma.z == 1.2f && s->gain.z == 0.9f);
    CHECK(!strcmp(item.lut, "/data/set/looks/warm.cube"));
}

TEST(a_background_is_the_sky_transparent_or_a_colour) {
    batch_item item;
    char why[512];
    CHECK_MSG(parse("{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"background\": \"transparent\"}}", &item, why,
                    sizeof why), "%s", why);
    CHECK_EQ_INT(item.settings.background, KILN_BACKGROUND_TRANSPARENT);
    CHECK_MSG(parse("{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"background\": \"sky\"}}", &item, why, sizeof why),
              "%s", why);
    CHECK_EQ_INT(item.settings.background, KILN_BACKGROUND_SKY);
}

TEST(a_view_left_partly_out_keeps_the_framings_angles) {
    batch_item item;
    char why[512];
    CHECK_MSG(parse("{\"model\": \"a.glb\", \"out\": \"a.png\", \"view\": {\"distance_scale\": 1.5}}", &item, why, sizeof why),
              "%s", why);
    CHECK(item.azimuth == KILN_IMPORT_FRAME_AZIMUTH && item.elevation == KILN_IMPORT_FRAME_ELEVATION);
    CHECK(item.distance_scale == 1.5f);
}

TEST(a_camera_is_a_file_camera_or_a_look_at) {
    batch_item item;
    char why[512];
    CHECK_MSG(parse("{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": {\"index\": 2}}", &item, why, sizeof why), "%s", why);
    CHECK_EQ_INT(item.camera, BATCH_CAMERA_FILE);
    CHECK_EQ_INT(item.camera_index, 2);
    CHECK_MSG(parse("{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": {\"look_from\": [1, 2, 3], \"look_at\": [0, 0, 0],"
                    " \"up\": [0, 0, 1], \"fov_y\": 1}}", &item, why, sizeof why), "%s", why);
    CHECK_EQ_INT(item.camera, BATCH_CAMERA_LOOK_AT);
    CHECK(item.look_from.x == 1.0f && item.look_from.z == 3.0f && item.up.z == 1.0f && item.fov_y == 1.0f);
}

TEST(extra_outputs_sit_beside_the_colour_image_with_its_stem) {
    batch_item item;
    char why[512], path[BATCH_PATH_MAX];
    CHECK_MSG(parse("{\"model\": \"a.glb\", \"out\": \"o/v.1.png\", \"outputs\": [\"normals\"]}", &item, why, sizeof why), "%s", why);
    CHECK_EQ_INT(item.outputs, BATCH_OUTPUT_NORMALS);
    CHECK(batch_item_output_path(&item, BATCH_OUTPUT_COLOR, path, sizeof path) && !strcmp(path, "/data/set/o/v.1.png"));
    CHECK(batch_item_output_path(&item, BATCH_OUTPUT_NORMALS, path, sizeof path) && !strcmp(path, "/data/set/o/v.1.normals.png"));
    CHECK(!batch_item_output_path(&item, BATCH_OUTPUT_NORMALS, path, 10));
    CHECK_MSG(parse("{\"model\": \"a.glb\", \"out\": \"o/v.png\", \"outputs\": [\"mask\", \"depth\", \"color\"]}", &item, why,
                    sizeof why), "%s", why);
    CHECK_EQ_INT(item.outputs, BATCH_OUTPUT_MASK | BATCH_OUTPUT_DEPTH | BATCH_OUTPUT_COLOR);
    CHECK(batch_item_output_path(&item, BATCH_OUTPUT_DEPTH, path, sizeof path) && !strcmp(path, "/data/set/o/v.depth.pfm"));
    CHECK(batch_item_output_path(&item, BATCH_OUTPUT_MASK, path, sizeof path) && !strcmp(path, "/data/set/o/v.mask.png"));
}

/* One bad line and its exact message. */
typedef struct refusal {
    const char *line;
    const char *message;
} refusal;

TEST(each_bad_line_is_refused_naming_its_line_and_field) {
    static const refusal rows[] = {
        {"{\"model\": \"a.glb\", \"out\": ", "line 7: JSON: column 26: unexpected token near end of file"},
        {"[1, 2]", "line 7: wants a JSON object, got an array"},
        {"\"a.glb\"", "line 7: wants a JSON object, got a string"},
        {"{\"out\": \"a.png\"}", "line 7: missing \"model\""},
        {"{\"model\": \"a.glb\"}", "line 7: missing \"out\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"colour\": 1}", "line 7: unknown field \"colour\""},
        {"{\"model\": \"a.glb\", \"model\": \"b.glb\", \"out\": \"a.png\"}", "line 7: JSON: column 26: duplicate object key near '\"model\"'"},
        {"{\"model\": \"\", \"out\": \"a.png\"}", "line 7: model: wants a non-empty string, got \"\""},
        {"{\"model\": 3, \"out\": \"a.png\"}", "line 7: model: wants a non-empty string, got 3"},
        {"{\"model\": \"a.glb\", \"out\": \"a.jpg\"}", "line 7: out: wants a path ending in .png, got \"a.jpg\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"size\": [0, 64]}", "line 7: size: wants [W, H], two integers in 1..8192, got [0,64]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"size\": [64.5, 64]}", "line 7: size: wants [W, H], two integers in 1..8192, got [64.5,64]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"size\": \"64x64\"}", "line 7: size: wants [W, H], two integers in 1..8192, got \"64x64\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"size\": [8193, 1]}", "line 7: size: wants [W, H], two integers in 1..8192, got [8193,1]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"time\": -1}", "line 7: time: wants a finite number of seconds >= 0, got -1"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"time\": 1e300}", "line 7: time: wants a finite number of seconds >= 0, got 1e300"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"env_rotation\": \"1\"}", "line 7: env_rotation: wants radians, got \"1\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"tonemap\": \"filmic\"}", "line 7: tonemap: \"filmic\" is not one of agx|aces|aces-hill|aces-hill-boost|pbr-neutral|none"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"exposure\": 0}", "line 7: exposure: 0 is not in (0, inf)"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"sun\": [0, -1]}", "line 7: sun: wants [X, Y, Z], got [0,-1]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"no_sun\": 1}", "line 7: no_sun: wants true or false, got 1"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"no_sun\": true, \"sun_lux\": 2}", "line 7: \"no_sun\" is exclusive with \"sun\" and \"sun_lux\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": {\"index\": 0}, \"view\": {}}", "line 7: \"camera\" and \"view\" are exclusive"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": {\"index\": -1}}", "line 7: camera.index: wants an index, got -1"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": {\"index\": 0, \"fov_y\": 1}}",
         "line 7: camera: \"index\" is exclusive with \"look_from\", \"look_at\", \"up\" and \"fov_y\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": {\"look_from\": [0, 0, 5]}}",
         "line 7: camera: wants \"index\", or \"look_from\" and \"look_at\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": {\"zoom\": 2}}", "line 7: unknown field \"camera.zoom\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"camera\": 0}", "line 7: camera: wants an object, got 0"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"view\": {\"elevation\": 2}}", "line 7: view.elevation: wants radians in (-pi/2, pi/2), got 2"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"view\": {\"distance_scale\": -1}}", "line 7: view.distance_scale: wants a positive number, got -1"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"view\": {\"fov_y\": 4}}", "line 7: view.fov_y: wants radians in (0, pi), got 4"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"msaa\": 2}}", "line 7: settings.msaa: 2 is not one of 1|4"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"fxaa\": \"yes\"}}", "line 7: settings.fxaa: wants true or false, got \"yes\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"msaa\": \"4\"}}",
         "line 7: settings.msaa: wants a number, got \"4\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"exposure\": [2]}}",
         "line 7: settings.exposure: wants a number, got [2]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"--msaa\": 4}}",
         "line 7: unknown field \"settings.--msaa\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"gain\": [1, 2]}}",
         "line 7: settings.gain: wants a number or [R, G, B], got [1,2]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"debug\": \"depth\"}}", "line 7: settings.debug: \"depth\" is not one of none|normals|clusters|overdraw|albedo|cascades|ao|lod"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"bloom\": false}}", "line 7: unknown field \"settings.bloom\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": []}", "line 7: settings: wants an object, got []"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"background\": \"white\"}}",
         "line 7: settings.background: \"white\" is not sky, transparent or R,G,B in [0, 1]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"background\": [1, 2, 0]}}",
         "line 7: settings.background: \"1,2,0\" is not sky, transparent or R,G,B in [0, 1]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"msaa\": 4.5}}", "line 7: settings.msaa: \"4.5\" is not a whole number"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"cascade_resolution\": 8}}",
         "line 7: settings.cascade_resolution: 8 is not in [16, 8192]"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"settings\": {\"worker_threads\": 2}}",
         "line 7: settings.worker_threads: is read when the renderer is made, not per item"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"outputs\": []}", "line 7: outputs: wants a non-empty array of output names, got []"},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"outputs\": [\"color\", \"albedo\"]}", "line 7: outputs[1]: wants color, normals, depth or mask, got \"albedo\""},
        {"{\"model\": \"a.glb\", \"out\": \"a.png\", \"outputs\": [\"color\", \"color\"]}", "line 7: outputs[1]: color is listed twice"},
    };
    int wrong_rows = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        batch_item item;
        char why[512];
        bool parsed = parse(rows[i].line, &item, why, sizeof why);
        if (parsed || strcmp(why, rows[i].message)) {
            fprintf(stderr, "row %zu: %s\n  want '%s'\n  got  '%s'\n", i, rows[i].line, rows[i].message, parsed ? "(parsed)" : why);
            wrong_rows++;
        }
    }
    CHECK_EQ_INT(wrong_rows, 0);
}

TEST(a_path_too_long_is_refused_not_cut) {
    static char line[BATCH_PATH_MAX + 64];
    int n = snprintf(line, sizeof line, "{\"model\": \"");
    memset(line + n, 'a', BATCH_PATH_MAX);
    snprintf(line + n + BATCH_PATH_MAX, sizeof line - (size_t)n - BATCH_PATH_MAX, "\", \"out\": \"a.png\"}");
    batch_item item;
    char why[512];
    CHECK(!parse(line, &item, why, sizeof why));
    CHECK_MSG(!strcmp(why, "line 7: model: the path is longer than 4095 bytes"), "got '%s'", why);
}

/* Writes text to a scratch manifest and loads it. */
static bool load_text(const char *name, const char *text, batch_manifest *m, char *why, size_t size) {
    const char *tmp = getenv("KILN_TEST_TMP");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmp && *tmp ? tmp : "/tmp", name);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fputs(text, f);
    fclose(f);
    return batch_manifest_load(m, path, why, size);
}

TEST(the_manifest_keeps_each_lines_number_and_skips_blank_lines) {
    batch_manifest m;
    char why[512];
    CHECK_MSG(load_text("manifest_lines.jsonl", "{\"a\": 1}\n\n   \n{\"b\": 2}\r\n{\"c\": 3}", &m, why, sizeof why), "%s", why);
    CHECK_EQ_INT(m.line_count, 3);
    CHECK_EQ_INT(m.lines[0].number, 1);
    CHECK_EQ_INT(m.lines[1].number, 4);
    CHECK_EQ_INT(m.lines[2].number, 5);
    CHECK(m.lines[2].length == 8 && !memcmp(m.lines[2].text, "{\"c\": 3}", 8));
    const char *tmp = getenv("KILN_TEST_TMP");
    CHECK(!strcmp(m.dir, tmp && *tmp ? tmp : "/tmp"));
    batch_manifest_free(&m);
}

TEST(an_empty_manifest_has_no_items) {
    batch_manifest m;
    char why[512];
    CHECK_MSG(load_text("manifest_empty.jsonl", "", &m, why, sizeof why), "%s", why);
    CHECK_EQ_INT(m.line_count, 0);
    batch_manifest_free(&m);
}

TEST(a_missing_manifest_is_named) {
    batch_manifest m;
    char why[512];
    CHECK(!batch_manifest_load(&m, "/nonexistent/batch.jsonl", why, sizeof why));
    CHECK_MSG(!strcmp(why, "/nonexistent/batch.jsonl: cannot open: No such file or directory"), "got '%s'", why);
}

TEST(a_manifest_in_the_working_directory_takes_paths_from_dot) {
    batch_manifest m;
    char why[512], cwd[1024];
    const char *tmp = getenv("KILN_TEST_TMP");
    CHECK(load_text("manifest_cwd.jsonl", "{}\n", &m, why, sizeof why));
    batch_manifest_free(&m);
    CHECK(getcwd(cwd, sizeof cwd));
    CHECK(chdir(tmp && *tmp ? tmp : "/tmp") == 0);
    bool loaded = batch_manifest_load(&m, "manifest_cwd.jsonl", why, sizeof why);
    CHECK(chdir(cwd) == 0);
    CHECK_MSG(loaded, "%s", why);
    CHECK(!strcmp(m.dir, "."));
    batch_manifest_free(&m);
}

TEST(a_repeated_output_names_the_earliest_line_that_has_it) {
    batch_manifest m;
    char why[512];
    const char *tmp = getenv("KILN_TEST_TMP");
    char absolute[1200];
    snprintf(absolute, sizeof absolute,
             "{\"model\": \"a.glb\", \"out\": \"a.png\"}\n"
             "{\"model\": \"b.glb\", \"out\": \"b.png\"}\n"
             "{ not json\n"
             "{\"model\": \"c.glb\", \"out\": \"a.png\"}\n"
             "{\"model\": \"d.glb\", \"out\": \"%s/a.png\"}\n"
             "{\"model\": \"e.glb\", \"out\": \"b.png\", \"size\": [1, 1]}\n",
             tmp && *tmp ? tmp : "/tmp");
    CHECK_MSG(load_text("manifest_repeats.jsonl", absolute, &m, why, sizeof why), "%s", why);
    uint32_t earlier[6] = {9, 9, 9, 9, 9, 9};
    CHECK_EQ_INT(m.line_count, 6);
    CHECK_MSG(batch_manifest_find_repeated_outputs(&m, earlier, why, sizeof why), "%s", why);
    CHECK_EQ_INT(earlier[0], 0);
    CHECK_EQ_INT(earlier[1], 0);
    CHECK_EQ_INT(earlier[2], 0); /* not JSON: it fails on its own */
    CHECK_EQ_INT(earlier[3], 1);
    CHECK_EQ_INT(earlier[4], 1); /* the same file, spelled absolute */
    CHECK_EQ_INT(earlier[5], 2);
    batch_manifest_free(&m);
}

TEST_MAIN(T(a_line_of_model_and_out_gets_kiln_renders_defaults), T(absolute_paths_stay_as_they_are), T(every_field_is_read),
          T(a_view_left_partly_out_keeps_the_framings_angles), T(a_background_is_the_sky_transparent_or_a_colour), T(a_camera_is_a_file_camera_or_a_look_at),
          T(extra_outputs_sit_beside_the_colour_image_with_its_stem), T(each_bad_line_is_refused_naming_its_line_and_field),
          T(a_path_too_long_is_refused_not_cut), T(the_manifest_keeps_each_lines_number_and_skips_blank_lines),
          T(an_empty_manifest_has_no_items), T(a_missing_manifest_is_named),
          T(a_manifest_in_the_working_directory_takes_paths_from_dot),
          T(a_repeated_output_names_the_earliest_line_that_has_it))
