/* The per-instance work on worker threads (src/render/instance_workers.c) gives the same frame
 * as on one: a scene large enough for four ranges, with shadowed spot lights (shadow views),
 * blended, masked and removed-material instances, renders with worker_threads 1 and 4, and the
 * instance records, every view's record indices and batches, and the image are equal byte for
 * byte; a failure names the same (lowest) instance on both. */
#include <stdlib.h>
#include <string.h>

#include "render/renderer_internal.h"
#include "renderer_fixture.h"
#include "test.h"

#define W 96
#define H 64
#define INSTANCES 9000 /* four ranges of RENDER_MIN_WORKER_RANGE and more */

typedef struct frame_copy {
    uint8_t *records;            /* every instance's record */
    uint32_t *record_indices;    /* every view's */
    render_batch *batches;
    uint32_t record_count, batch_count, view_count, threads;
    kiln_image image;
} frame_copy;

static kiln_render_instance instances[INSTANCES];

/* Builds the scene into a fresh renderer of `threads` worker threads, renders two frames (the
 * second with a few instances moved, so records are packed again in part) and copies the
 * second. With `removed`, material 3 is removed and the render must fail: err carries why. A
 * failed check returns early with kiln_test_failed set. */
static void render_scene(uint32_t threads, bool removed, frame_copy *out, kiln_error *err) {
    renderer_fixture h;
    kiln_render_settings settings = {.worker_threads = threads, .disable_ao = true, .disable_bloom = true,
                                     .atlas_size = 512, .atlas_tile = 128};
    CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, err), "%s", err->message);
    uint32_t meshes[3] = {renderer_fixture_add_cube(&h, "cube", 0.3f, err), renderer_fixture_add_plane(&h, "tile", 0.4f, err)};
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_uv_sphere(&md, 0.35f, 6, 12, err));
    meshes[2] = kiln_renderer_add_mesh(h.r, "ball", &md, false, err);
    kiln_mesh_data_free(&md);
    uint32_t materials[5];
    for (uint32_t i = 0; i < 5; i++) {
        kiln_material m = kiln_material_default("m");
        m.base_color = (kiln_vec4){0.2f * (float)i, 0.6f, 1.0f - 0.2f * (float)i, i == 4 ? 0.5f : 1.0f};
        m.alpha_mode = i == 4 ? KILN_ALPHA_BLEND : i == 2 ? KILN_ALPHA_MASK : KILN_ALPHA_OPAQUE;
        materials[i] = kiln_renderer_add_material(h.r, &m, err);
    }
    for (uint32_t i = 0; i < INSTANCES; i++) {
        float x = (float)(i % 100) * 0.8f - 40.0f, z = -(float)(i / 100) * 0.8f;
        instances[i] = (kiln_render_instance){.mesh = meshes[(i * 7) % 3], .material = materials[(i * 13) % 5],
                                              .transform = kiln_mat4_translation((kiln_vec3){x, 0.0f, z}),
                                              .disable_shadow_casting = i % 11 == 0};
    }
    kiln_light lights[3] = {
        kiln_light_spot((kiln_vec3){0, 6, -10}, (kiln_vec3){0, -1, -0.3f}, (kiln_vec3){1, 1, 1}, 900.0f, 30.0f, 0.5f, 0.7f),
        kiln_light_spot((kiln_vec3){-10, 6, -30}, (kiln_vec3){0.2f, -1, 0}, (kiln_vec3){1, 0.8f, 0.6f}, 900.0f, 30.0f, 0.5f, 0.7f),
        kiln_light_point((kiln_vec3){5, 2, -5}, (kiln_vec3){1, 1, 1}, 200.0f, 10.0f),
    };
    lights[0].cast_shadows = lights[1].cast_shadows = true;
    kiln_render_scene scene = {
        .camera = kiln_camera_look_at((kiln_vec3){0, 8, 10}, (kiln_vec3){0, 0, -30}, (kiln_vec3){0, 1, 0}, 1.0f, 1.5f, 0.1f),
        .instances = instances, .instance_count = INSTANCES, .lights = lights, .light_count = 3};
    if (removed) {
        CHECK(kiln_renderer_remove_material(h.r, materials[3], err));
        bool ok = renderer_fixture_render(&h, &scene, NULL, err);
        CHECK(!ok);
        renderer_fixture_close(&h);
        return;
    }
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, err), "%s", err->message);
    for (uint32_t i = 0; i < INSTANCES; i += 97) instances[i].transform.m[13] = 0.5f;
    CHECK_MSG(renderer_fixture_render(&h, &scene, &out->image, err), "%s", err->message);
    kiln_renderer *r = h.r;
    out->threads = kiln_renderer_worker_threads(r);
    out->record_count = r->views.record_count;
    out->batch_count = r->views.batch_count;
    out->view_count = r->views.count;
    out->records = malloc((size_t)INSTANCES * KILN_INSTANCE_RECORD_SIZE);
    out->record_indices = malloc((size_t)r->views.record_count * sizeof(uint32_t));
    out->batches = malloc((size_t)r->views.batch_count * sizeof(render_batch));
    memcpy(out->records, r->instances.records.data, (size_t)INSTANCES * KILN_INSTANCE_RECORD_SIZE);
    memcpy(out->record_indices, r->views.record_indices.data, (size_t)r->views.record_count * sizeof(uint32_t));
    memcpy(out->batches, r->views.batches.data, (size_t)r->views.batch_count * sizeof(render_batch));
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

static void free_copy(frame_copy *c) {
    free(c->records);
    free(c->record_indices);
    free(c->batches);
    kiln_image_free(&c->image);
}

TEST(one_and_four_worker_threads_give_the_same_records_draws_and_image) {
    kiln_error err = {0};
    frame_copy one = {0}, four = {0};
    render_scene(1, false, &one, &err);
    render_scene(4, false, &four, &err);
    if (kiln_test_failed) return;
    CHECK_EQ_INT(one.threads, 1);
    CHECK_EQ_INT(four.threads, 4);
    CHECK(one.view_count > 1); /* the camera and the spots' atlas views */
    CHECK(one.batch_count > 10);
    CHECK_EQ_INT(one.record_count, four.record_count);
    CHECK_EQ_INT(one.batch_count, four.batch_count);
    CHECK(!memcmp(one.records, four.records, (size_t)INSTANCES * KILN_INSTANCE_RECORD_SIZE));
    CHECK(!memcmp(one.record_indices, four.record_indices, (size_t)one.record_count * sizeof(uint32_t)));
    for (uint32_t b = 0; b < one.batch_count; b++) {
        const render_batch *x = &one.batches[b], *y = &four.batches[b];
        CHECK_MSG(x->mesh == y->mesh && x->material == y->material && x->lod == y->lod &&
                      x->first_instance == y->first_instance && x->instance_count == y->instance_count,
                  "batch %u differs", b);
    }
    CHECK_EQ_INT(one.image.width * one.image.height, four.image.width * four.image.height);
    CHECK(!memcmp(one.image.pixels, four.image.pixels, (size_t)one.image.width * one.image.height * 4));
    free_copy(&one);
    free_copy(&four);
}

TEST(a_removed_material_is_reported_for_the_same_instance_on_any_thread_count) {
    kiln_error one = {0}, four = {0};
    frame_copy unused = {0};
    render_scene(1, true, &unused, &one);
    render_scene(4, true, &unused, &four);
    CHECK_MSG(strstr(one.message, "uses removed material"), "%s", one.message);
    CHECK_MSG(!strcmp(one.message, four.message), "'%s' against '%s'", one.message, four.message);
}

TEST_MAIN(T(one_and_four_worker_threads_give_the_same_records_draws_and_image),
          T(a_removed_material_is_reported_for_the_same_instance_on_any_thread_count))
