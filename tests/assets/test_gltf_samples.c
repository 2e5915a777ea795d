/* Every sample model under $KILN_ASSETS/gltf loads, and a few have their counts checked against
 * what their files say. Skips, saying so, only when the assets directory is absent. */
#include <dirent.h>
#include <sys/stat.h>

#include <kiln/assets/gltf.h>

#include "test.h"

/* The model file of $KILN_ASSETS/gltf/<name>/: <name>.glb or <name>.gltf. NULL: no assets. */
static const char *model_path(const char *name, char *out, size_t size) {
    const char *assets = getenv("KILN_ASSETS");
    struct stat st;
    if (!assets) return NULL;
    snprintf(out, size, "%s/gltf/%s/%s.glb", assets, name, name);
    if (stat(out, &st) == 0) return out;
    snprintf(out, size, "%s/gltf/%s/%s.gltf", assets, name, name);
    return stat(out, &st) == 0 ? out : NULL;
}

static bool assets_present(void) {
    const char *assets = getenv("KILN_ASSETS");
    char dir[1024];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/gltf", assets ? assets : "");
    return assets && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static kiln_gltf *load_sample(const char *name) {
    char path[1024];
    if (!model_path(name, path, sizeof path)) return NULL;
    kiln_error err = {0};
    kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
    if (!doc) fprintf(stderr, "%s: %s\n", name, err.message);
    return doc;
}

static uint32_t total_vertices(const kiln_gltf *doc) {
    uint32_t n = 0;
    for (uint32_t m = 0; m < doc->mesh_count; m++)
        for (uint32_t p = 0; p < doc->meshes[m].primitive_count; p++) n += doc->meshes[m].primitives[p].mesh.vertex_count;
    return n;
}

TEST(every_sample_model_loads) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    DIR *dir;
    char root[1024];
    snprintf(root, sizeof root, "%s/gltf", getenv("KILN_ASSETS"));
    CHECK((dir = opendir(root)) != NULL);
    int loaded = 0;
    struct dirent *e;
    bool failed = false;
    while ((e = readdir(dir)) != NULL) {
        char path[1024];
        if (e->d_name[0] == '.' || !model_path(e->d_name, path, sizeof path)) continue;
        kiln_error err = {0};
        kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
        if (!doc) {
            fprintf(stderr, "%s: %s\n", e->d_name, err.message);
            failed = true;
            continue;
        }
        printf("%-24s meshes %u materials %u images %u nodes %u vertices %u warnings %u\n", e->d_name,
               doc->mesh_count, doc->material_count, doc->image_count, doc->node_count, total_vertices(doc),
               doc->warning_count);
        for (uint32_t w = 0; w < doc->warning_count; w++) printf("    %s\n", doc->warnings[w]);
        kiln_gltf_free(doc);
        loaded++;
    }
    closedir(dir);
    CHECK(!failed);
    CHECK(loaded >= 18);
}

TEST(box_has_one_mesh_of_24_vertices_and_36_indices) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    kiln_gltf *doc = load_sample("Box");
    CHECK(doc);
    CHECK_EQ_INT(doc->mesh_count, 1);
    CHECK_EQ_INT(doc->meshes[0].primitive_count, 1);
    CHECK_EQ_INT(doc->meshes[0].primitives[0].mesh.vertex_count, 24);
    CHECK_EQ_INT(doc->meshes[0].primitives[0].mesh.index_count, 36);
    kiln_gltf_free(doc);
}

TEST(box_textured_samples_one_base_colour_image) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    kiln_gltf *doc = load_sample("BoxTextured");
    CHECK(doc);
    CHECK_EQ_INT(doc->image_count, 1);
    CHECK_EQ_INT(doc->materials[0].images[KILN_TEX_BASE_COLOR], 0);
    CHECK(doc->images[0].srgb && !doc->images[0].linear);
    CHECK(doc->images[0].image.width > 0);
    kiln_gltf_free(doc);
}

TEST(box_vertex_colors_keeps_color_0) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    kiln_gltf *doc = load_sample("BoxVertexColors");
    CHECK(doc);
    CHECK(doc->meshes[0].primitives[0].colors != NULL);
    CHECK_NEAR(doc->meshes[0].primitives[0].colors[0].w, 1, 1e-6);
    kiln_gltf_free(doc);
}

TEST(damaged_helmet_has_five_images_and_generated_or_given_tangents) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    kiln_gltf *doc = load_sample("DamagedHelmet");
    CHECK(doc);
    CHECK_EQ_INT(doc->image_count, 5);
    CHECK_EQ_INT(doc->meshes[0].primitives[0].mesh.vertex_count, 14556);
    CHECK(doc->meshes[0].primitives[0].mesh.tangents != NULL);
    kiln_gltf_free(doc);
}

/* The progress callback hears of each of the helmet's five images and its one mesh, in order. */
typedef struct progress_log {
    char text[512];
    size_t n;
} progress_log;

static void log_progress(void *user, const char *stage, uint32_t done, uint32_t total) {
    progress_log *log = user;
    if (log->n < sizeof log->text)
        log->n += (size_t)snprintf(log->text + log->n, sizeof log->text - log->n, "%s %u/%u;", stage, done, total);
}

TEST(the_load_reports_its_progress_image_by_image_and_mesh_by_mesh) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    char path[1024];
    CHECK(model_path("DamagedHelmet", path, sizeof path));
    progress_log log = {0};
    kiln_error err = {0};
    kiln_gltf *doc = kiln_gltf_load(path, &(kiln_gltf_options){.progress = log_progress, .progress_user = &log}, &err);
    CHECK_MSG(doc, "%s", err.message);
    kiln_gltf_free(doc);
    CHECK_MSG(strcmp(log.text, "images 1/5;images 2/5;images 3/5;images 4/5;images 5/5;meshes 1/1;") == 0, "%s", log.text);
}

TEST_MAIN(T(every_sample_model_loads), T(box_has_one_mesh_of_24_vertices_and_36_indices),
          T(box_textured_samples_one_base_colour_image), T(box_vertex_colors_keeps_color_0),
          T(damaged_helmet_has_five_images_and_generated_or_given_tangents),
          T(the_load_reports_its_progress_image_by_image_and_mesh_by_mesh))
