/* The watercolour develop (examples/programs): the committed script carries the palette's blob and
 * noise, the oracle paints what the palette describes, and the GPU's sheet agrees with the oracle
 * at the script's size and at an odd one.
 *
 * The script runs through the JSON surface itself (kiln_json_runtime_handle), with the three conveniences
 * kiln-run adds done here: "as" names and "$name" ids, "wgsl_path" read beside the script, and
 * save_texture left to the tool (the test reads the sheet back instead).
 *
 * Agreement (README.md in examples/programs, "Agreement"): the GPU and the oracle differ by at most
 * AGREE_CHANNEL_STEPS / 255 in every channel of at least AGREE_PIXEL_FRACTION of the pixels, the
 * mean absolute difference over all channels stays under AGREE_MEAN_STEPS / 255, and no channel
 * anywhere differs by more than AGREE_WORST_STEPS / 255. */
#include <jansson.h>

#include <kiln/program_json.h>

#include "gfx_fixture.h"
#include "test.h"

/* The oracle and the palette are example code, not library code: compiled into this test. */
#include "../../examples/programs/watercolour_oracle.c"
#include "../../examples/programs/watercolour_palette.c"

#define AGREE_CHANNEL_STEPS 2
#define AGREE_PIXEL_FRACTION 0.995
#define AGREE_MEAN_STEPS 0.25
#define AGREE_WORST_STEPS 12

#define SCRIPT_DIR KILN_SOURCE_DIR "/examples/programs"
#define SCRIPT_PATH SCRIPT_DIR "/watercolour.json"

/* ---- the script ------------------------------------------------------------------------------- */

static json_t *load_script(void) {
    json_error_t jerr;
    json_t *script = json_load_file(SCRIPT_PATH, 0, &jerr);
    if (!script) fprintf(stderr, "%s: line %d: %s\n", SCRIPT_PATH, jerr.line, jerr.text);
    if (json_is_array(script)) return script;
    json_decref(script);
    return NULL;
}

static bool is_kind(const json_t *message, const char *kind) {
    const char *k = json_string_value(json_object_get(message, "kind"));
    return k && strcmp(k, kind) == 0;
}

/* The first message of the given kind. */
static json_t *find_message(json_t *script, const char *kind) {
    for (size_t i = 0; i < json_array_size(script); i++)
        if (is_kind(json_array_get(script, i), kind)) return json_array_get(script, i);
    return NULL;
}

static bool decode_blob(json_t *value, kiln_json_blob *out) {
    kiln_json_error err = {0};
    if (kiln_json_decode_blob(value, "blob", out, &err)) return true;
    fprintf(stderr, "%s: %s\n", err.cls, err.message);
    return false;
}

/* ---- running it through the JSON surface ------------------------------------------------------- */

typedef struct named_id {
    char name[32];
    uint32_t id;
} named_id;

typedef struct script_state {
    named_id names[8];
    uint32_t name_count;
} script_state;

static void resolve_name(const script_state *s, json_t *holder, const char *key, size_t index) {
    json_t *v = key ? json_object_get(holder, key) : json_array_get(holder, index);
    if (!json_is_string(v) || json_string_value(v)[0] != '$') return;
    for (uint32_t i = 0; i < s->name_count; i++) {
        if (strcmp(s->names[i].name, json_string_value(v) + 1) != 0) continue;
        if (key) json_object_set_new(holder, key, json_integer(s->names[i].id));
        else json_array_set_new(holder, index, json_integer(s->names[i].id));
        return;
    }
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text) text[size] = '\0';
    fclose(f);
    return text;
}

/* Sends one script message as kiln-run would; false (printing the reply) unless it is Ok. */
static bool run_message(kiln_json_runtime *rt, script_state *s, const json_t *original) {
    json_t *msg = json_deep_copy(original);
    const char *as = json_string_value(json_object_get(msg, "as"));
    char as_name[32] = "";
    if (as) snprintf(as_name, sizeof as_name, "%s", as);
    json_object_del(msg, "as");
    resolve_name(s, msg, "program_id", 0);
    json_t *bindings = json_object_get(msg, "bindings");
    for (size_t i = 0; json_is_array(bindings) && i < json_array_size(bindings); i++) resolve_name(s, bindings, NULL, i);
    const char *wgsl_path = json_string_value(json_object_get(msg, "wgsl_path"));
    if (wgsl_path) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SCRIPT_DIR, wgsl_path);
        char *wgsl = read_text(path);
        if (!wgsl) fprintf(stderr, "cannot read %s\n", path);
        json_object_set_new(msg, "wgsl", json_string(wgsl ? wgsl : ""));
        json_object_del(msg, "wgsl_path");
        free(wgsl);
    }
    char *text = json_dumps(msg, JSON_COMPACT);
    char *reply_text = kiln_json_runtime_handle(rt, text, strlen(text));
    json_t *reply = json_loads(reply_text, 0, NULL);
    json_t *ok = json_object_get(reply, "Ok");
    json_t *id = json_object_get(ok, "program_id");
    if (!id) id = json_object_get(ok, "texture_id");
    if (ok && as_name[0] && json_is_integer(id) && s->name_count < 8) {
        snprintf(s->names[s->name_count].name, sizeof s->names[0].name, "%s", as_name);
        s->names[s->name_count++].id = (uint32_t)json_integer_value(id);
    }
    if (!ok) fprintf(stderr, "%s -> %s\n", json_string_value(json_object_get(msg, "kind")), reply_text);
    json_decref(reply);
    free(reply_text);
    free(text);
    json_decref(msg);
    return ok != NULL;
}

static uint32_t named(const script_state *s, const char *name) {
    for (uint32_t i = 0; i < s->name_count; i++)
        if (strcmp(s->names[i].name, name) == 0) return s->names[i].id;
    return 0;
}

/* Runs every message but save_texture, then reads the sheet back into rgba (width * height * 4). */
static bool develop_on_gpu(gfx_fixture *f, json_t *script, uint8_t *rgba, size_t rgba_size) {
    kiln_error err = {0};
    kiln_json_runtime *rt = kiln_json_runtime_create(f->gfx, f->res, &err);
    if (!rt) {
        fprintf(stderr, "runtime: %s\n", err.message);
        return false;
    }
    script_state s = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < json_array_size(script); i++) {
        json_t *m = json_array_get(script, i);
        if (!is_kind(m, "save_texture")) ok = run_message(rt, &s, m);
    }
    void *pixels = NULL;
    size_t size = 0;
    ok = ok && kiln_texture_registry_read(kiln_json_runtime_textures(rt), named(&s, "sheet"), &pixels, &size, &err);
    if (!ok && err.message[0]) fprintf(stderr, "read: %s\n", err.message);
    ok = ok && size == rgba_size;
    if (ok) memcpy(rgba, pixels, size);
    free(pixels);
    kiln_json_runtime_destroy(rt);
    return ok;
}

/* ---- agreement -------------------------------------------------------------------------------- */

typedef struct agreement {
    double within_fraction;  /* pixels whose every channel is within AGREE_CHANNEL_STEPS */
    double mean_steps;       /* mean absolute difference per channel, in 1/255 steps */
    int worst_steps;
} agreement;

static agreement compare_sheets(const uint8_t *a, const uint8_t *b, uint32_t width, uint32_t height) {
    size_t pixels = (size_t)width * height, within = 0, total = 0;
    int worst = 0;
    for (size_t p = 0; p < pixels; p++) {
        int pixel_worst = 0;
        for (int c = 0; c < 4; c++) {
            int d = abs((int)a[p * 4 + c] - (int)b[p * 4 + c]);
            total += (size_t)d;
            if (d > pixel_worst) pixel_worst = d;
        }
        if (pixel_worst <= AGREE_CHANNEL_STEPS) within++;
        if (pixel_worst > worst) worst = pixel_worst;
    }
    agreement g = {(double)within / (double)pixels, (double)total / (double)(pixels * 4), worst};
    printf("  %ux%u: %.4f%% of pixels within %d/255, mean %.4f/255, worst %d/255\n", width, height,
           100.0 * g.within_fraction, AGREE_CHANNEL_STEPS, g.mean_steps, g.worst_steps);
    return g;
}

/* Develops the script on the GPU and with the oracle, and holds them to the agreement. */
static void check_agreement(json_t *script, uint32_t width, uint32_t height, const uint8_t *blob, size_t blob_size) {
    size_t size = (size_t)width * height * 4;
    uint8_t *gpu = calloc(size, 1), *cpu = calloc(size, 1), noise[WASH_NOISE_SIDE * WASH_NOISE_SIDE];
    CHECK(gpu && cpu);
    wash_build_noise(noise);
    bool developed = wash_develop(blob, blob_size, noise, width, height, cpu);
    gfx_fixture f = {0};
    bool opened = fixture_open(&f);
    bool ran = opened && develop_on_gpu(&f, script, gpu, size);
    uint64_t errors = fixture_close(&f);
    agreement g = ran && developed ? compare_sheets(gpu, cpu, width, height) : (agreement){0};
    free(gpu);
    free(cpu);
    CHECK_MSG(opened, "no GPU device");
    CHECK(developed);
    CHECK(ran);
    CHECK_EQ_INT(errors, 0);
    CHECK(g.within_fraction >= AGREE_PIXEL_FRACTION);
    CHECK(g.mean_steps <= AGREE_MEAN_STEPS);
    CHECK(g.worst_steps <= AGREE_WORST_STEPS);
}

/* ---- tests ------------------------------------------------------------------------------------- */

/* watercolour.json is generated (watercolour_script); a palette or layout change must regenerate
 * it, or the GPU would develop a different painting than the oracle. */
TEST(script_carries_the_palette_blob_noise_and_windows) {
    json_t *script = load_script();
    CHECK(script);
    json_t *noise_msg = find_message(script, "create_texture");
    json_t *dispatch = find_message(script, "program.dispatch");
    json_t *reg = find_message(script, "program.register");
    kiln_json_blob noise = {0}, blob = {0};
    bool decoded = noise_msg && dispatch && reg && decode_blob(json_object_get(noise_msg, "pixels"), &noise) &&
                   decode_blob(json_object_get(dispatch, "uniforms"), &blob);
    uint8_t want_noise[WASH_NOISE_SIDE * WASH_NOISE_SIDE];
    wash_build_noise(want_noise);
    size_t want_size = wash_blob_size();
    uint8_t *want_blob = malloc(want_size);
    wash_build_blob(want_blob, WASH_WIDTH, WASH_HEIGHT);
    bool noise_same = decoded && noise.size == sizeof want_noise && memcmp(noise.bytes, want_noise, noise.size) == 0;
    bool blob_same = decoded && blob.size == want_size && memcmp(blob.bytes, want_blob, want_size) == 0;
    wash_window windows[WASH_PASS_COUNT];
    wash_layout(windows);
    json_t *passes = json_object_get(reg, "passes");
    bool windows_same = json_array_size(passes) == WASH_PASS_COUNT;
    for (size_t p = 0; windows_same && p < WASH_PASS_COUNT; p++) {
        json_t *pass = json_array_get(passes, p);
        json_t *repeat = json_object_get(pass, "repeat");
        windows_same = json_integer_value(json_object_get(pass, "uniform_offset")) == windows[p].offset &&
                       json_integer_value(json_object_get(pass, "uniform_length")) == windows[p].length &&
                       json_integer_value(json_object_get(repeat, "count")) == windows[p].repeat_count &&
                       json_integer_value(json_object_get(repeat, "uniform_stride")) == windows[p].repeat_stride;
    }
    kiln_json_blob_free(&noise);
    kiln_json_blob_free(&blob);
    free(want_blob);
    json_decref(script);
    CHECK(decoded);
    CHECK_MSG(noise_same, "the script's noise is stale: regenerate it with watercolour_script");
    CHECK_MSG(blob_same, "the script's uniform blob is stale: regenerate it with watercolour_script");
    CHECK_MSG(windows_same, "the script's pass windows disagree with wash_layout: regenerate it");
}

/* The oracle paints what the palette says: blue sky at the top, the gold sun lifted out of it,
 * white paper left between the sky and the hills, violet hills, green foreground. */
TEST(oracle_paints_sky_sun_paper_hills_and_foreground) {
    size_t blob_size = wash_blob_size();
    uint8_t *blob = malloc(blob_size), noise[WASH_NOISE_SIDE * WASH_NOISE_SIDE];
    uint8_t *sheet = malloc((size_t)WASH_WIDTH * WASH_HEIGHT * 4);
    CHECK(blob && sheet);
    wash_build_blob(blob, WASH_WIDTH, WASH_HEIGHT);
    wash_build_noise(noise);
    bool developed = wash_develop(blob, blob_size, noise, WASH_WIDTH, WASH_HEIGHT, sheet);
    const uint8_t *sky = sheet + (10 * WASH_WIDTH + 20) * 4, *sun = sheet + (54 * WASH_WIDTH + 196) * 4;
    const uint8_t *paper = sheet + (105 * WASH_WIDTH + 20) * 4, *hills = sheet + (125 * WASH_WIDTH + 60) * 4;
    const uint8_t *foreground = sheet + (185 * WASH_WIDTH + 200) * 4;
    uint8_t px[5][4];
    memcpy(px[0], sky, 4);
    memcpy(px[1], sun, 4);
    memcpy(px[2], paper, 4);
    memcpy(px[3], hills, 4);
    memcpy(px[4], foreground, 4);
    free(blob);
    free(sheet);
    CHECK(developed);
    CHECK(px[0][2] > px[0][0] + 60);                                  /* sky: blue */
    CHECK(px[1][0] > px[1][2] + 100 && px[1][1] > px[1][2] + 40);     /* sun: gold */
    CHECK(px[2][0] > 235 && px[2][1] > 235 && px[2][2] > 225);         /* paper: near white */
    CHECK(px[3][2] > px[3][1] + 10 && px[3][0] > px[3][1] + 10);      /* hills: violet */
    CHECK(px[4][1] > px[4][0] + 15 && px[4][1] > px[4][2] + 30);      /* foreground: green */
    CHECK(px[0][3] == 255 && px[1][3] == 255 && px[2][3] == 255);      /* the sheet is opaque */
}

TEST(gpu_sheet_agrees_with_the_oracle) {
    json_t *script = load_script();
    CHECK(script);
    kiln_json_blob blob = {0};
    bool decoded = decode_blob(json_object_get(find_message(script, "program.dispatch"), "uniforms"), &blob);
    if (decoded) check_agreement(script, WASH_WIDTH, WASH_HEIGHT, blob.bytes, blob.size);
    kiln_json_blob_free(&blob);
    json_decref(script);
    CHECK(decoded);
}

/* The graph carries only ratios: the same registered structure develops an odd-sized sheet (its
 * Divided planes floor to 75 x 50), given a blob encoded for that size. */
TEST(gpu_sheet_agrees_with_the_oracle_at_an_odd_size) {
    enum { W = 150, H = 101 };
    json_t *script = load_script();
    CHECK(script);
    size_t blob_size = wash_blob_size();
    uint8_t *blob = malloc(blob_size);
    wash_build_blob(blob, W, H);
    char *blob64 = kiln_json_base64_encode(blob, blob_size);
    json_t *sheet = NULL;
    for (size_t i = 0; i < json_array_size(script); i++) {
        json_t *m = json_array_get(script, i);
        if (json_is_string(json_object_get(m, "as")) && strcmp(json_string_value(json_object_get(m, "as")), "sheet") == 0)
            sheet = m;
    }
    bool edited = sheet && blob64 && json_object_set_new(sheet, "width", json_integer(W)) == 0 &&
                  json_object_set_new(sheet, "height", json_integer(H)) == 0 &&
                  json_object_set_new(find_message(script, "program.dispatch"), "uniforms", json_string(blob64)) == 0;
    if (edited) check_agreement(script, W, H, blob, blob_size);
    free(blob64);
    free(blob);
    json_decref(script);
    CHECK(edited);
}

TEST_MAIN(T(script_carries_the_palette_blob_noise_and_windows), T(oracle_paints_sky_sun_paper_hills_and_foreground),
          T(gpu_sheet_agrees_with_the_oracle), T(gpu_sheet_agrees_with_the_oracle_at_an_odd_size))
