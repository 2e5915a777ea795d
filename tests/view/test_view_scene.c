/* kiln-view's scene (tools/kiln_view_scene.c) on a headless renderer, without a window, with
 * tests/view/models/clips.gltf (a rectangle, two clips: "spin" and "stretch"):
 *
 *   - --clip's lookup: by name, by index, and the refusal listing the file's clips;
 *   - a clip chosen poses the model by that animation alone: every clip, and all of them at
 *     once, give another frame at the same time;
 *   - a material edit on disk (the base colour factor) is swapped in under the same registry
 *     slots: the instances' mesh and material indices and the registries' counts stay, the clip
 *     stays, and the next frame shows the new colour;
 *   - a change of structure (a second mesh and material) takes the full reload, and says why;
 *   - a file that fails to load keeps the previous model, slots and pixels. */
#include <limits.h>
#include <sys/stat.h>

#include <kiln/core.h>

#include "kiln_view_scene.h"
#include "renderer_fixture.h"

#define W 96
#define H 72

static char dir[PATH_MAX];

static const char *scratch(const char *name) {
    static char paths[4][PATH_MAX + 64];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, PATH_MAX + 64, "%s/%s", dir, name);
    return p;
}

/* The whole of a small file, in a static buffer; "" when it cannot be read. */
static const char *slurp(const char *path) {
    static char text[16384];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = '\0';
    return text;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f) fputs(text, f), fclose(f);
}

/* `model` of tests/view/models copied into the scratch directory as `as`. */
static const char *copy_model(const char *model, const char *as) {
    char from[PATH_MAX + 64];
    snprintf(from, sizeof from, "%s/%s", KILN_VIEW_MODELS_DIR, model);
    fixture_tmp_path(dir, sizeof dir, "view_scene");
    mkdir(dir, 0755);
    const char *to = scratch(as);
    write_text(to, slurp(from));
    return to;
}

/* The file with its first `from` replaced by `to` (same length or not). */
static bool rewrite(const char *path, const char *from, const char *to) {
    char text[16384];
    snprintf(text, sizeof text, "%s", slurp(path));
    char *at = strstr(text, from);
    if (!at) return false;
    char out[16384 + 64];
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    write_text(path, out);
    return true;
}

/* Pixels differing by more than 8/255 in some colour channel. */
static uint32_t differing(const kiln_image *a, const kiln_image *b) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->width * a->height; i++) {
        const uint8_t *p = (const uint8_t *)a->pixels + 4 * i, *q = (const uint8_t *)b->pixels + 4 * i;
        bool off = false;
        for (int c = 0; c < 3; c++) off |= abs((int)p[c] - (int)q[c]) > 8;
        n += off;
    }
    return n;
}

static const uint8_t *centre(const kiln_image *img) {
    return (const uint8_t *)img->pixels + 4 * ((size_t)(img->height / 2) * img->width + img->width / 2);
}

static bool frame(renderer_fixture *h, view_scene *vs, kiln_image *out) {
    kiln_error err = {0};
    kiln_image_free(out);
    bool ok = renderer_fixture_render(h, &vs->scene, out, &err);
    if (!ok) fprintf(stderr, "render: %s\n", err.message);
    return ok;
}

/* A renderer and the scene of `path` posed at `time` by `clip`. */
#define OPEN(h, vs, path, time, clip)                                                                                \
    do {                                                                                                             \
        kiln_error open_err = {0};                                                                                   \
        CHECK_MSG(renderer_fixture_open(&(h), NULL, WGPUTextureFormat_RGBA8UnormSrgb, W, H, &open_err), "%s",         \
                  open_err.message);                                                                                 \
        CHECK_MSG(view_scene_open(&(vs), (h).r, path, (float)W / H, time, clip, &open_err), "%s", open_err.message); \
    } while (0)

TEST(clip_finds_an_animation_by_name_or_index_and_lists_the_clips_when_none) {
    kiln_error err = {0};
    char path[PATH_MAX + 64], why[512];
    snprintf(path, sizeof path, "%s/clips.gltf", KILN_VIEW_MODELS_DIR);
    kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
    CHECK_MSG(doc, "%s", err.message);
    int32_t clip = -7;
    CHECK(view_scene_find_clip(doc, "clips.gltf", "stretch", &clip, why, sizeof why));
    CHECK_EQ_INT(clip, 1);
    CHECK(view_scene_find_clip(doc, "clips.gltf", "0", &clip, why, sizeof why));
    CHECK_EQ_INT(clip, 0);
    CHECK(!view_scene_find_clip(doc, "clips.gltf", "jump", &clip, why, sizeof why));
    CHECK_MSG(!strcmp(why, "'jump' names no animation of clips.gltf; its clips: 0 'spin', 1 'stretch'"), "%s", why);
    CHECK(!view_scene_find_clip(doc, "clips.gltf", "2", &clip, why, sizeof why));
    CHECK(!view_scene_find_clip(doc, "clips.gltf", "-1", &clip, why, sizeof why));
    char label[64];
    view_scene_clip_label(doc, VIEW_SCENE_ALL_CLIPS, label, sizeof label);
    CHECK_MSG(!strcmp(label, "all 2 at once"), "%s", label);
    kiln_gltf_free(doc);
}

TEST(each_clip_poses_the_model_by_that_animation_alone) {
    renderer_fixture h;
    view_scene vs;
    kiln_error err = {0};
    kiln_image all = {0}, spin = {0}, stretch = {0};
    OPEN(h, vs, copy_model("clips.gltf", "clips.gltf"), 1.0f, VIEW_SCENE_ALL_CLIPS);
    CHECK(frame(&h, &vs, &all));
    CHECK_MSG(view_scene_set_clip(&vs, 0, &err), "%s", err.message);
    CHECK(frame(&h, &vs, &spin));
    CHECK_MSG(view_scene_set_clip(&vs, 1, &err), "%s", err.message);
    CHECK(frame(&h, &vs, &stretch));
    printf("     differing: all/spin %u, all/stretch %u, spin/stretch %u of %u\n", differing(&all, &spin),
           differing(&all, &stretch), differing(&spin, &stretch), W * H);
    CHECK(differing(&all, &spin) > W * H / 20);
    CHECK(differing(&all, &stretch) > W * H / 20);
    CHECK(differing(&spin, &stretch) > W * H / 20);
    CHECK(!view_scene_set_clip(&vs, 2, &err));
    CHECK_MSG(!strcmp(err.message, "animations[2]: out of range (2 animations)"), "%s", err.message);
    CHECK_EQ_INT(vs.clip, 1);
    kiln_image_free(&all), kiln_image_free(&spin), kiln_image_free(&stretch);
    view_scene_close(&vs);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST(a_material_edit_on_disk_is_swapped_in_under_the_same_slots) {
    renderer_fixture h;
    view_scene vs;
    kiln_error err = {0};
    kiln_image before = {0}, after = {0};
    const char *path = copy_model("clips.gltf", "paint.gltf");
    OPEN(h, vs, path, 1.0f, 1);
    CHECK(frame(&h, &vs, &before));
    uint32_t mesh = vs.model.instances[0].mesh, material = vs.model.instances[0].material;
    uint32_t meshes = kiln_renderer_mesh_count(h.r), materials = kiln_renderer_material_count(h.r);
    CHECK(rewrite(path, "\"baseColorFactor\": [0.8, 0.3, 0.1, 1.0]", "\"baseColorFactor\": [0.1, 0.3, 0.8, 1.0]"));
    view_reload_report report;
    CHECK_MSG(view_scene_reload_model(&vs, h.r, &report, &err), "%s", err.message);
    CHECK_MSG(report.path == VIEW_RELOAD_IN_PLACE, "took the full path: %s", report.why_full);
    CHECK_EQ_INT(vs.scene.instance_count, 1);
    CHECK_EQ_INT(vs.model.instances[0].mesh, mesh);
    CHECK_EQ_INT(vs.model.instances[0].material, material);
    CHECK_EQ_INT(kiln_renderer_mesh_count(h.r), meshes);
    CHECK_EQ_INT(kiln_renderer_material_count(h.r), materials);
    CHECK_EQ_INT(vs.clip, 1);
    CHECK(frame(&h, &vs, &after));
    const uint8_t *was = centre(&before), *now = centre(&after);
    printf("     centre pixel: %u %u %u, then %u %u %u\n", was[0], was[1], was[2], now[0], now[1], now[2]);
    CHECK(was[0] > was[2] && now[2] > now[0]); /* orange, then blue */
    CHECK(differing(&before, &after) > W * H / 20);
    kiln_image_free(&before), kiln_image_free(&after);
    view_scene_close(&vs);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST(a_change_of_structure_takes_the_full_reload_and_says_why) {
    renderer_fixture h;
    view_scene vs;
    kiln_error err = {0};
    kiln_image before = {0}, after = {0};
    const char *path = copy_model("clips.gltf", "grown.gltf");
    OPEN(h, vs, path, 0.0f, VIEW_SCENE_ALL_CLIPS);
    CHECK(frame(&h, &vs, &before));
    uint32_t materials = kiln_renderer_material_count(h.r);
    char two[PATH_MAX + 64];
    snprintf(two, sizeof two, "%s/clips_two_meshes.gltf", KILN_VIEW_MODELS_DIR);
    write_text(path, slurp(two));
    view_reload_report report;
    CHECK_MSG(view_scene_reload_model(&vs, h.r, &report, &err), "%s", err.message);
    CHECK_EQ_INT(report.path, VIEW_RELOAD_FULL);
    CHECK_MSG(!strcmp(report.why_full, "the structure changed (2 meshes, was 1)"), "%s", report.why_full);
    CHECK_EQ_INT(vs.scene.instance_count, 2);
    CHECK_EQ_INT(kiln_renderer_material_count(h.r), materials + 2); /* added anew; the old one's slot a hole */
    CHECK(frame(&h, &vs, &after));
    CHECK(differing(&before, &after) > 0);
    kiln_image_free(&before), kiln_image_free(&after);
    view_scene_close(&vs);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST(a_file_that_fails_to_load_keeps_the_previous_model) {
    renderer_fixture h;
    view_scene vs;
    kiln_error err = {0};
    kiln_image before = {0}, after = {0};
    const char *path = copy_model("clips.gltf", "broken.gltf");
    OPEN(h, vs, path, 0.0f, VIEW_SCENE_ALL_CLIPS);
    CHECK(frame(&h, &vs, &before));
    uint32_t mesh = vs.model.instances[0].mesh, material = vs.model.instances[0].material;
    write_text(path, "{\"asset\": ");
    CHECK(!view_scene_reload_model(&vs, h.r, NULL, &err));
    CHECK_STR_CONTAINS(err.message, "broken.gltf: ");
    CHECK_EQ_INT(vs.model.instances[0].mesh, mesh);
    CHECK_EQ_INT(vs.model.instances[0].material, material);
    CHECK(frame(&h, &vs, &after));
    CHECK_EQ_INT(differing(&before, &after), 0);
    kiln_image_free(&before), kiln_image_free(&after);
    view_scene_close(&vs);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST_MAIN(T(clip_finds_an_animation_by_name_or_index_and_lists_the_clips_when_none),
          T(each_clip_poses_the_model_by_that_animation_alone), T(a_material_edit_on_disk_is_swapped_in_under_the_same_slots),
          T(a_change_of_structure_takes_the_full_reload_and_says_why), T(a_file_that_fails_to_load_keeps_the_previous_model))
