/* Clustered light culling: the slice formula, the agreement of a fragment's cluster lookup with
 * the cluster boxes, the WGSL mirrors of the C records, and cs_cull on the GPU against the CPU
 * reference. */
#include "render/clusters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/shader/library.h>

#include "gfx_fixture.h"
#include "render_wgsl_probe.h"

#define WIDTH 1280
#define HEIGHT 720
#define NEAR 0.1f

static uint32_t next_random(uint32_t *state) {
    /* xorshift32: fixed seed, same scene on every machine */
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static float random_in(uint32_t *state, float lo, float hi) {
    return lo + (hi - lo) * (float)(next_random(state) >> 8) / 16777216.0f;
}

static kiln_mat4 test_view(void) {
    return kiln_mat4_look_at(kiln_vec3_make(0.0f, 1.7f, 4.0f), kiln_vec3_make(2.0f, 1.0f, -30.0f),
                             kiln_vec3_make(0.0f, 1.0f, 0.0f));
}

static kiln_mat4 test_projection(void) {
    return kiln_mat4_perspective_reverse_z_infinite(60.0f * KILN_PI / 180.0f, (float)WIDTH / (float)HEIGHT, NEAR);
}

static bool test_uniform(kiln_cluster_uniform *u, uint32_t light_count) {
    return kiln_cluster_uniform_compute(u, test_view(), test_projection(), NEAR, WIDTH, HEIGHT, light_count, NULL);
}

/* ---- CPU: the grid ------------------------------------------------------------------------ */

TEST(cluster_params_follow_the_logarithmic_formula) {
    kiln_cluster_params p = kiln_cluster_params_compute(0.1f, 200.0f);
    CHECK_NEAR(p.scale, 24.0 / log(2000.0), 1e-5);
    CHECK_NEAR(p.bias, 24.0 * log(0.1) / log(2000.0), 1e-5);
    kiln_cluster_params bad = kiln_cluster_params_compute(5.0f, 1.0f);
    CHECK_EQ_INT(kiln_cluster_z_slice(bad, 3.0f), 0);
}

TEST(slice_0_starts_at_near_and_slice_23_ends_at_200_m) {
    kiln_cluster_params p = kiln_cluster_params_compute(NEAR, KILN_CLUSTER_FAR);
    CHECK_EQ_INT(kiln_cluster_z_slice(p, NEAR * 1.0001f), 0);
    CHECK_EQ_INT(kiln_cluster_z_slice(p, 0.0f), 0);      /* at and behind the camera: clamped */
    CHECK_EQ_INT(kiln_cluster_z_slice(p, 199.9f), KILN_CLUSTER_Z - 1);
    CHECK_EQ_INT(kiln_cluster_z_slice(p, 5000.0f), KILN_CLUSTER_Z - 1);
    CHECK_NEAR(kiln_cluster_slice_depth(p, 0), NEAR, 1e-7);
    CHECK_NEAR(kiln_cluster_slice_depth(p, KILN_CLUSTER_Z), KILN_CLUSTER_FAR, 1e-3);
}

TEST(slices_grow_monotonically_with_depth) {
    kiln_cluster_params p = kiln_cluster_params_compute(NEAR, KILN_CLUSTER_FAR);
    uint32_t previous = 0;
    uint32_t changes = 0;
    for (float d = NEAR; d < KILN_CLUSTER_FAR; d *= 1.001f) {
        uint32_t s = kiln_cluster_z_slice(p, d);
        CHECK(s >= previous);
        changes += s != previous;
        previous = s;
    }
    CHECK_EQ_INT(changes, KILN_CLUSTER_Z - 1); /* every slice is visited, one step at a time */
}

TEST(each_slice_starts_where_the_formula_says) {
    kiln_cluster_params p = kiln_cluster_params_compute(NEAR, KILN_CLUSTER_FAR);
    for (uint32_t k = 0; k < KILN_CLUSTER_Z; k++) {
        float start = kiln_cluster_slice_depth(p, k);
        CHECK_EQ_INT(kiln_cluster_z_slice(p, start * 1.0001f), k);
        if (k > 0) CHECK_EQ_INT(kiln_cluster_z_slice(p, start * 0.9999f), k - 1);
    }
}

TEST(a_fragment_lies_in_the_box_of_the_cluster_it_looks_up) {
    kiln_cluster_uniform u;
    CHECK(test_uniform(&u, 0));
    kiln_mat4 inverse_view;
    CHECK(kiln_mat4_inverse(u.view, &inverse_view));
    uint32_t seed = 99;
    for (int i = 0; i < 2000; i++) {
        float px = random_in(&seed, 0.0f, WIDTH), py = random_in(&seed, 0.0f, HEIGHT);
        float depth = expf(random_in(&seed, logf(NEAR), logf(KILN_CLUSTER_FAR)));
        /* The view-space point seen at pixel (px, py) and that depth. */
        kiln_vec4 clip = kiln_mat4_mul_vec4(u.inverse_projection,
                                            kiln_vec4_make(px / WIDTH * 2.0f - 1.0f, 1.0f - py / HEIGHT * 2.0f, 1.0f, 1.0f));
        kiln_vec3 on_near = kiln_vec3_scale(kiln_vec3_make(clip.x, clip.y, clip.z), 1.0f / clip.w);
        kiln_vec3 point = kiln_vec3_scale(on_near, depth / -on_near.z);
        uint32_t c = kiln_cluster_index(&u, px, py, depth);
        uint32_t x = c % KILN_CLUSTER_X, y = (c / KILN_CLUSTER_X) % KILN_CLUSTER_Y, z = c / (KILN_CLUSTER_X * KILN_CLUSTER_Y);
        kiln_vec3 lo, hi;
        kiln_cluster_aabb(&u, x, y, z, &lo, &hi);
        float slack = 1e-4f * depth;
        CHECK_MSG(kiln_cluster_sphere_touches_aabb(point, slack, lo, hi), "pixel (%g, %g) depth %g: cluster %u", px, py,
                  depth, c);
    }
}

TEST(the_cluster_uniform_refuses_bad_inputs_naming_them) {
    kiln_cluster_uniform u;
    kiln_error err = {0};
    CHECK(!kiln_cluster_uniform_compute(&u, test_view(), test_projection(), 0.0f, WIDTH, HEIGHT, 0, &err));
    CHECK_STR_CONTAINS(err.message, "near 0 is not in (0, 200)");
    CHECK(!kiln_cluster_uniform_compute(&u, test_view(), test_projection(), NEAR, 0, HEIGHT, 0, &err));
    CHECK_STR_CONTAINS(err.message, "screen size 0x720 is empty");
    CHECK(!kiln_cluster_uniform_compute(&u, test_view(), test_projection(), NEAR, WIDTH, HEIGHT, 1025, &err));
    CHECK_STR_CONTAINS(err.message, "light count 1025 exceeds KILN_MAX_LIGHTS (1024)");
    kiln_mat4 singular = {{0}};
    CHECK(!kiln_cluster_uniform_compute(&u, test_view(), singular, NEAR, WIDTH, HEIGHT, 0, &err));
    CHECK_STR_CONTAINS(err.message, "projection matrix is singular");
}

/* ---- GPU helpers -------------------------------------------------------------------------- */

static kiln_cluster_range gpu_ranges[KILN_CLUSTER_COUNT];
static uint32_t *gpu_indices;         /* the list's capacity, allocated by cull_on_gpu */
static kiln_cluster_list_header gpu_header;
static kiln_cluster_range cpu_ranges[KILN_CLUSTER_COUNT];
static uint32_t cpu_indices[KILN_CLUSTER_LIST_MAX_CAPACITY];

static kiln_buffer readback_buffer(gfx_fixture *f, uint64_t size, kiln_error *err) {
    return kiln_resources_create_buffer(f->res, &(kiln_buffer_desc){.label = "cluster readback", .size = size,
        .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst}, err);
}

/* Records cs_cull, copies the ranges, the whole index list and the header into MapRead buffers
 * and reads them back. */
static bool cull_on_gpu(gfx_fixture *f, kiln_clusters *c, kiln_error *err) {
    uint64_t list_size = (uint64_t)kiln_clusters_list_capacity(c) * 4u;
    free(gpu_indices);
    gpu_indices = malloc(list_size);
    kiln_buffer ranges_back = readback_buffer(f, KILN_CLUSTER_RANGES_SIZE, err);
    kiln_buffer indices_back = readback_buffer(f, list_size, err);
    kiln_buffer header_back = readback_buffer(f, sizeof gpu_header, err);
    if (!gpu_indices || !ranges_back.id || !indices_back.id || !header_back.id) return false;
    kiln_encoder enc;
    kiln_compute_pass pass;
    if (!kiln_encoder_begin(&enc, f->res, "cluster cull test", err)) return false;
    if (!kiln_encoder_begin_compute_pass(&enc, "cluster light cull", &pass, err)) return false;
    bool ok = kiln_clusters_record(c, &pass, err);
    kiln_compute_pass_end(&pass);
    ok = ok && kiln_encoder_copy_buffer_to_buffer(&enc, kiln_clusters_range_buffer(c), 0, ranges_back, 0,
                                                  KILN_CLUSTER_RANGES_SIZE, err);
    ok = ok && kiln_encoder_copy_buffer_to_buffer(&enc, kiln_clusters_index_buffer(c), 0, indices_back, 0, list_size, err);
    ok = ok && kiln_encoder_copy_buffer_to_buffer(&enc, kiln_clusters_header_buffer(c), 0, header_back, 0,
                                                  sizeof gpu_header, err);
    if (!ok) {
        kiln_encoder_discard(&enc);
        return false;
    }
    ok = kiln_encoder_finish_and_submit(&enc, err) && kiln_gfx_wait_for_queue(f->gfx, err) &&
         kiln_resources_read_buffer(f->res, ranges_back, 0, gpu_ranges, sizeof gpu_ranges, err) &&
         kiln_resources_read_buffer(f->res, indices_back, 0, gpu_indices, list_size, err) &&
         kiln_resources_read_buffer(f->res, header_back, 0, &gpu_header, sizeof gpu_header, err);
    kiln_resources_destroy_buffer(f->res, ranges_back, NULL);
    kiln_resources_destroy_buffer(f->res, indices_back, NULL);
    kiln_resources_destroy_buffer(f->res, header_back, NULL);
    return ok;
}

/* The clusters of the test camera, created through a library reading the source directory. */
typedef struct clusters_fixture {
    gfx_fixture f;
    kiln_shader_library *library;
    kiln_clusters *c;
} clusters_fixture;

static bool clusters_open(clusters_fixture *cf, kiln_error *err) {
    kiln_wgsl_source shaders = render_wgsl_directory(KILN_RENDER_SHADER_DIR);
    cf->library = kiln_shader_library_create(cf->f.gfx, cf->f.res, &shaders, err);
    cf->c = cf->library ? kiln_clusters_create(cf->f.res, cf->library, err) : NULL;
    return cf->c != NULL;
}

static void clusters_close(clusters_fixture *cf) {
    kiln_clusters_destroy(cf->c);
    kiln_shader_library_destroy(cf->library);
}

/* Updates the clusters with the test camera and `lights`, culls and reads back. */
static bool clusters_cull(clusters_fixture *cf, const kiln_gpu_light *lights, uint32_t count, kiln_error *err) {
    return kiln_clusters_update(cf->c, test_view(), test_projection(), NEAR, WIDTH, HEIGHT, lights, count, err) &&
           cull_on_gpu(&cf->f, cf->c, err);
}

/* 256 point and spot lights with radii 0.5..8 m, fixed seed: most placed through random pixels
 * at log-uniform depths in front of the camera, every fifth anywhere in a wide box (off to the
 * sides, above, behind the camera and past 200 m). */
static uint32_t random_scene(kiln_gpu_light *out) {
    static kiln_light lights[256];
    kiln_cluster_uniform u;
    kiln_mat4 inverse_view;
    if (!test_uniform(&u, 0) || !kiln_mat4_inverse(u.view, &inverse_view)) return 0;
    uint32_t seed = 0x6b696c6eu;
    for (uint32_t i = 0; i < 256; i++) {
        kiln_vec3 p;
        if (i % 5 == 4) {
            p = kiln_vec3_make(random_in(&seed, -120.0f, 120.0f), random_in(&seed, -30.0f, 60.0f),
                               random_in(&seed, -260.0f, 30.0f));
        } else {
            kiln_vec4 q = kiln_mat4_mul_vec4(u.inverse_projection, kiln_vec4_make(random_in(&seed, -1.1f, 1.1f),
                                                                                  random_in(&seed, -1.1f, 1.1f), 1, 1));
            float depth = expf(random_in(&seed, logf(4.0f), logf(220.0f)));
            kiln_vec3 view_point = kiln_vec3_scale(kiln_vec3_make(q.x, q.y, q.z), depth / -q.z);
            p = kiln_mat4_transform_point(inverse_view, view_point);
        }
        kiln_vec3 color = kiln_vec3_make(random_in(&seed, 0, 1), random_in(&seed, 0, 1), random_in(&seed, 0, 1));
        float range = random_in(&seed, 0.5f, 8.0f);
        if (i % 3 == 2) {
            kiln_vec3 d = kiln_vec3_make(random_in(&seed, -1, 1), random_in(&seed, -1, 0), random_in(&seed, -1, 1));
            lights[i] = kiln_light_spot(p, d, color, 50.0f, range, 0.3f, 0.6f);
        } else {
            lights[i] = kiln_light_point(p, color, 50.0f, range);
        }
    }
    return kiln_pack_lights_into(lights, 256, out, KILN_MAX_LIGHTS, NULL, NULL);
}

static bool list_contains(const uint32_t *list, uint32_t n, uint32_t v) {
    for (uint32_t i = 0; i < n; i++)
        if (list[i] == v) return true;
    return false;
}

/* A light one list has and the other lacks is explained when its sphere grazes the box (float
 * rounding decides). */
static bool difference_explained(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t cluster,
                                 uint32_t light) {
    uint32_t x = cluster % KILN_CLUSTER_X, y = (cluster / KILN_CLUSTER_X) % KILN_CLUSTER_Y;
    uint32_t z = cluster / (KILN_CLUSTER_X * KILN_CLUSTER_Y);
    kiln_vec3 lo, hi;
    kiln_cluster_aabb(u, x, y, z, &lo, &hi);
    kiln_vec3 centre = kiln_mat4_transform_point(u->view, lights[light].position);
    kiln_vec3 closest = kiln_vec3_make(fminf(fmaxf(centre.x, lo.x), hi.x), fminf(fmaxf(centre.y, lo.y), hi.y),
                                       fminf(fmaxf(centre.z, lo.z), hi.z));
    float gap = fabsf(kiln_vec3_length(kiln_vec3_sub(centre, closest)) - lights[light].range);
    float epsilon = 1e-4f * (1.0f + kiln_vec3_length(centre));
    if (gap > epsilon) fprintf(stderr, "cluster %u light %u: %g m from the box boundary\n", cluster, light, (double)gap);
    return gap <= epsilon;
}

/* ---- GPU ---------------------------------------------------------------------------------- */

/* How the GPU's runs compare with the CPU reference's, cluster by cluster. */
typedef struct list_comparison {
    uint32_t references;     /* the CPU's */
    uint32_t gpu_references; /* the sum of the GPU's run lengths */
    uint32_t count_mismatches, list_mismatches, max_count, empty, over_heat, over_100;
    bool ascending, disjoint, explained;
} list_comparison;

/* Compares every GPU run with the CPU's (as ordered lists, wherever their offsets), checking
 * each run is ascending and inside the list, and that no two runs overlap. */
static list_comparison compare_with_cpu(const kiln_cluster_uniform *u, const kiln_gpu_light *lights, uint32_t count,
                                        uint32_t capacity) {
    list_comparison r = {.ascending = true, .disjoint = true, .explained = true};
    r.references = kiln_clusters_assign_cpu(u, lights, count, cpu_ranges, cpu_indices, KILN_CLUSTER_LIST_MAX_CAPACITY);
    static uint8_t owner[KILN_CLUSTER_LIST_MAX_CAPACITY];
    memset(owner, 0, capacity);
    for (uint32_t k = 0; k < KILN_CLUSTER_COUNT; k++) {
        kiln_cluster_range gr = gpu_ranges[k], cr = cpu_ranges[k];
        if (gr.offset > capacity || gr.count > capacity - gr.offset) {
            r.disjoint = false;
            continue;
        }
        const uint32_t *g = &gpu_indices[gr.offset], *c = &cpu_indices[cr.offset];
        for (uint32_t i = 0; i < gr.count; i++) {
            r.disjoint = r.disjoint && !owner[gr.offset + i];
            owner[gr.offset + i] = 1;
            if (i > 0) r.ascending = r.ascending && g[i - 1] < g[i];
        }
        r.gpu_references += gr.count;
        r.max_count = gr.count > r.max_count ? gr.count : r.max_count;
        r.empty += cr.count == 0;
        r.over_heat += cr.count > KILN_CLUSTER_HEAT_LIGHTS;
        r.over_100 += cr.count >= 100;
        r.count_mismatches += gr.count != cr.count;
        if (gr.count == cr.count && memcmp(g, c, gr.count * sizeof *g) == 0) continue;
        r.list_mismatches++;
        for (uint32_t i = 0; i < gr.count; i++)
            if (!list_contains(c, cr.count, g[i])) r.explained = r.explained && difference_explained(u, lights, k, g[i]);
        for (uint32_t i = 0; i < cr.count; i++)
            if (!list_contains(g, gr.count, c[i])) r.explained = r.explained && difference_explained(u, lights, k, c[i]);
    }
    return r;
}

TEST(gpu_culling_matches_the_cpu_reference) {
    clusters_fixture cf;
    FIXTURE_OPEN(cf.f);
    kiln_error err = {0};
    CHECK_MSG(clusters_open(&cf, &err), "%s", err.message);
    static kiln_gpu_light lights[KILN_MAX_LIGHTS];
    uint32_t count = random_scene(lights);
    CHECK_EQ_INT(count, 256);
    CHECK_MSG(clusters_cull(&cf, lights, count, &err), "%s", err.message);
    kiln_cluster_uniform u = *kiln_clusters_uniform(cf.c);
    uint32_t capacity = kiln_clusters_list_capacity(cf.c), bound = kiln_clusters_last_bound(cf.c);
    clusters_close(&cf);
    FIXTURE_CLOSE_CLEAN(cf.f);

    list_comparison r = compare_with_cpu(&u, lights, count, capacity);
    printf("clusters: %u references (bound %u), %u empty, max %u per cluster; %u lists differ from the CPU, "
           "%u in their counts\n", r.references, bound, r.empty, r.max_count, r.list_mismatches, r.count_mismatches);
    CHECK(r.ascending && r.disjoint && r.explained);
    CHECK(r.count_mismatches * 1000 <= KILN_CLUSTER_COUNT); /* counts agree for at least 99.9% of clusters */
    CHECK(r.references > 2000 && r.empty > 100);            /* the scene exercises both outcomes */
    CHECK_EQ_INT(gpu_header.references, r.gpu_references);
    CHECK_EQ_INT(gpu_header.dropped, 0);
    CHECK(bound >= gpu_header.references);
    CHECK_EQ_INT(capacity, KILN_CLUSTER_LIST_INITIAL_CAPACITY); /* 256 lights fit the first list */
}

/* 1,024 point lights crowded into a 30 x 12 x 60 m block ahead of the camera, 2..6 m each, fixed
 * seed: hundreds of clusters are touched by more than 32 lights, some by more than 100. */
static uint32_t dense_scene(kiln_gpu_light *out) {
    static kiln_light lights[KILN_MAX_LIGHTS];
    kiln_mat4 inverse_view;
    if (!kiln_mat4_inverse(test_view(), &inverse_view)) return 0;
    uint32_t seed = 0x64656e73u;
    for (uint32_t i = 0; i < KILN_MAX_LIGHTS; i++) {
        kiln_vec3 view_point = kiln_vec3_make(random_in(&seed, -15.0f, 15.0f), random_in(&seed, -6.0f, 6.0f),
                                              -random_in(&seed, 4.0f, 64.0f));
        kiln_vec3 color = kiln_vec3_make(random_in(&seed, 0, 1), random_in(&seed, 0, 1), random_in(&seed, 0, 1));
        lights[i] = kiln_light_point(kiln_mat4_transform_point(inverse_view, view_point), color, 50.0f,
                                     random_in(&seed, 2.0f, 6.0f));
    }
    return kiln_pack_lights_into(lights, KILN_MAX_LIGHTS, out, KILN_MAX_LIGHTS, NULL, NULL);
}

TEST(a_dense_view_of_1024_lights_drops_nothing) {
    static kiln_gpu_light lights[KILN_MAX_LIGHTS];
    uint32_t count = dense_scene(lights);
    CHECK_EQ_INT(count, KILN_MAX_LIGHTS);
    clusters_fixture cf;
    FIXTURE_OPEN(cf.f);
    kiln_error err = {0};
    CHECK_MSG(clusters_open(&cf, &err), "%s", err.message);
    CHECK_MSG(clusters_cull(&cf, lights, count, &err), "%s", err.message);
    kiln_cluster_uniform u = *kiln_clusters_uniform(cf.c);
    uint32_t capacity = kiln_clusters_list_capacity(cf.c), bound = kiln_clusters_last_bound(cf.c);
    clusters_close(&cf);
    FIXTURE_CLOSE_CLEAN(cf.f);

    list_comparison r = compare_with_cpu(&u, lights, count, capacity);
    printf("dense: %u references (bound %u, capacity %u), %u clusters over 32, %u at 100 or more, max %u; "
           "%u lists differ from the CPU\n", r.references, bound, capacity, r.over_heat, r.over_100, r.max_count,
           r.list_mismatches);
    CHECK(r.over_heat > 300 && r.over_100 > 0); /* the case the fixed 32 slots lost lights in */
    CHECK(r.ascending && r.disjoint);
    CHECK_EQ_INT(r.count_mismatches, 0);        /* every cluster lists every light touching it */
    CHECK_EQ_INT(r.list_mismatches, 0);
    CHECK_EQ_INT(gpu_header.dropped, 0);
    CHECK_EQ_INT(gpu_header.references, r.references);
    CHECK(bound >= r.references);
    /* The bound fits the first list (32 per cluster on average): no growth, no allocation. */
    CHECK_EQ_INT(capacity, KILN_CLUSTER_LIST_INITIAL_CAPACITY);
}

TEST(a_crowded_cluster_lists_all_40_lights_in_index_order) {
    clusters_fixture cf;
    FIXTURE_OPEN(cf.f);
    kiln_error err = {0};
    CHECK_MSG(clusters_open(&cf, &err), "%s", err.message);
    /* Light 0 reaches nothing on screen; lights 1..40 sit at the camera and reach past 200 m. */
    kiln_gpu_light lights[41];
    lights[0] = kiln_gpu_light_from(&(kiln_light){.position = {0, 0, 500}, .range = 1.0f});
    for (uint32_t i = 1; i < 41; i++)
        lights[i] = kiln_gpu_light_from(&(kiln_light){.position = {0.0f, 1.7f, 4.0f}, .range = 500.0f});
    bool ok = clusters_cull(&cf, lights, 41, &err);
    uint32_t capacity = kiln_clusters_list_capacity(cf.c);
    clusters_close(&cf);
    FIXTURE_CLOSE_CLEAN(cf.f);
    CHECK_MSG(ok, "%s", err.message);
    /* 40 x 3456 references outgrow the first list (32 x 3456) once: each growth doubles. */
    CHECK_EQ_INT(capacity, 2 * KILN_CLUSTER_LIST_INITIAL_CAPACITY);
    CHECK_EQ_INT(gpu_header.references, 40 * KILN_CLUSTER_COUNT);
    CHECK_EQ_INT(gpu_header.dropped, 0);
    for (uint32_t k = 0; k < KILN_CLUSTER_COUNT; k++) {
        CHECK_EQ_INT(gpu_ranges[k].count, 40);
        for (uint32_t i = 0; i < 40; i++) CHECK_EQ_INT(gpu_indices[gpu_ranges[k].offset + i], i + 1);
    }
}

TEST(an_empty_light_list_clears_every_range_and_the_header) {
    clusters_fixture cf;
    FIXTURE_OPEN(cf.f);
    kiln_error err = {0};
    CHECK_MSG(clusters_open(&cf, &err), "%s", err.message);
    kiln_gpu_light everywhere = kiln_gpu_light_from(&(kiln_light){.position = {0.0f, 1.7f, 4.0f}, .range = 500.0f});
    bool ok = clusters_cull(&cf, &everywhere, 1, &err);
    uint32_t before = gpu_ranges[0].count, references_before = gpu_header.references;
    ok = ok && clusters_cull(&cf, NULL, 0, &err);
    clusters_close(&cf);
    FIXTURE_CLOSE_CLEAN(cf.f);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(before, 1);
    CHECK_EQ_INT(references_before, KILN_CLUSTER_COUNT);
    CHECK_EQ_INT(gpu_header.references, 0);
    for (uint32_t k = 0; k < KILN_CLUSTER_COUNT; k++) CHECK_EQ_INT(gpu_ranges[k].count, 0);
}

/* ---- CPU: the bound of the references ----------------------------------------------------- */

/* One light (view-space centre, range) and the bound it must give exactly. */
static const struct {
    const char *what;
    float x, y, z, range;
    uint32_t bound;
} BOUND_CASES[] = {
    {"a light at the camera reaching past 200 m: every cluster", 0.0f, 0.0f, 0.0f, 500.0f, KILN_CLUSTER_COUNT},
    {"a light behind the camera out of reach: none", 0.0f, 0.0f, 20.0f, 5.0f, 0},
    {"a light beyond 200 m out of reach: none", 0.0f, 0.0f, -300.0f, 50.0f, 0},
    {"a light far off to the side: none", 500.0f, 0.0f, -20.0f, 5.0f, 0},
    {"a light with zero range inside the view: at least its own cluster", 0.3f, 0.2f, -20.0f, 0.0f, 1},
};

TEST(the_bound_of_single_lights_is_exact_at_the_extremes) {
    kiln_cluster_uniform u;
    CHECK(test_uniform(&u, 1));
    kiln_mat4 inverse_view;
    CHECK(kiln_mat4_inverse(u.view, &inverse_view));
    for (size_t i = 0; i < sizeof BOUND_CASES / sizeof BOUND_CASES[0]; i++) {
        kiln_vec3 world = kiln_mat4_transform_point(inverse_view, kiln_vec3_make(BOUND_CASES[i].x, BOUND_CASES[i].y, BOUND_CASES[i].z));
        kiln_gpu_light l = kiln_gpu_light_from(&(kiln_light){.position = world, .range = BOUND_CASES[i].range});
        l.range = BOUND_CASES[i].range; /* the record keeps a zero range as given */
        CHECK_MSG(kiln_cluster_light_bound(&u, &l, 1) == BOUND_CASES[i].bound, "%s: %u, expected %u",
                  BOUND_CASES[i].what, kiln_cluster_light_bound(&u, &l, 1), BOUND_CASES[i].bound);
    }
}

TEST(the_bound_covers_the_cpu_reference_and_stays_close_to_it) {
    static kiln_gpu_light lights[KILN_MAX_LIGHTS];
    kiln_cluster_uniform u;
    struct {
        const char *name;
        uint32_t count;
    } scenes[2] = {{"random", random_scene(lights)}, {"dense", 0}};
    for (int s = 0; s < 2; s++) {
        if (s == 1) scenes[1].count = dense_scene(lights);
        CHECK(test_uniform(&u, scenes[s].count));
        uint32_t references = kiln_clusters_assign_cpu(&u, lights, scenes[s].count, cpu_ranges, cpu_indices,
                                                       KILN_CLUSTER_LIST_MAX_CAPACITY);
        uint32_t bound = kiln_cluster_light_bound(&u, lights, scenes[s].count);
        printf("%s: %u references, bound %u (%.2fx)\n", scenes[s].name, references, bound,
               (double)bound / (double)references);
        CHECK(bound >= references);
        CHECK(bound <= 3 * references); /* the slabs over-count corners, not whole rows of the view */
    }
}

/* An orthographic view 24 m high: its cluster boxes are slabs of parallel lines, a fragment lies
 * in the box it looks up, and the bound still covers the CPU's reference lists. */
TEST(an_orthographic_view_has_boxes_that_hold_its_fragments_and_a_bound_that_covers_them) {
    const float half_height = 12.0f, half_width = half_height * (float)WIDTH / (float)HEIGHT;
    kiln_mat4 ortho = kiln_mat4_orthographic_reverse_z(-half_width, half_width, -half_height, half_height, 0.0f, 250.0f);
    kiln_cluster_uniform u;
    CHECK(kiln_cluster_uniform_compute(&u, test_view(), ortho, NEAR, WIDTH, HEIGHT, 0, NULL));
    kiln_vec3 lo, hi;
    kiln_cluster_aabb(&u, 0, 0, 5, &lo, &hi);
    CHECK_NEAR(lo.x, -half_width, 1e-3);
    CHECK_NEAR(hi.x, -half_width + 2.0f * half_width / KILN_CLUSTER_X, 1e-3);
    CHECK_NEAR(hi.y, half_height, 1e-3);
    CHECK_NEAR(-hi.z, kiln_cluster_slice_depth(kiln_cluster_params_compute(NEAR, KILN_CLUSTER_FAR), 5), 1e-3);
    uint32_t seed = 7;
    for (int i = 0; i < 2000; i++) {
        float px = random_in(&seed, 0.0f, WIDTH), py = random_in(&seed, 0.0f, HEIGHT);
        float depth = expf(random_in(&seed, logf(NEAR), logf(KILN_CLUSTER_FAR)));
        kiln_vec3 point = {(px / WIDTH * 2.0f - 1.0f) * half_width, (1.0f - py / HEIGHT * 2.0f) * half_height, -depth};
        uint32_t c = kiln_cluster_index(&u, px, py, depth);
        uint32_t x = c % KILN_CLUSTER_X, y = (c / KILN_CLUSTER_X) % KILN_CLUSTER_Y, z = c / (KILN_CLUSTER_X * KILN_CLUSTER_Y);
        kiln_cluster_aabb(&u, x, y, z, &lo, &hi);
        CHECK_MSG(kiln_cluster_sphere_touches_aabb(point, 1e-4f * (depth + half_width), lo, hi),
                  "pixel (%g, %g) depth %g: cluster %u", px, py, depth, c);
    }
    static kiln_gpu_light lights[KILN_MAX_LIGHTS];
    static kiln_light scene[200];
    kiln_mat4 inverse_view;
    CHECK(kiln_mat4_inverse(u.view, &inverse_view));
    for (uint32_t i = 0; i < 200; i++) {
        kiln_vec3 view_point = {random_in(&seed, -1.2f * half_width, 1.2f * half_width),
                                random_in(&seed, -1.2f * half_height, 1.2f * half_height), -random_in(&seed, 0.0f, 220.0f)};
        scene[i] = kiln_light_point(kiln_mat4_transform_point(inverse_view, view_point), (kiln_vec3){1, 1, 1}, 10.0f,
                                    random_in(&seed, 0.5f, 6.0f));
    }
    uint32_t count = kiln_pack_lights_into(scene, 200, lights, KILN_MAX_LIGHTS, NULL, NULL);
    CHECK(kiln_cluster_uniform_compute(&u, test_view(), ortho, NEAR, WIDTH, HEIGHT, count, NULL));
    uint32_t references = kiln_clusters_assign_cpu(&u, lights, count, cpu_ranges, cpu_indices,
                                                   KILN_CLUSTER_LIST_MAX_CAPACITY);
    uint32_t bound = kiln_cluster_light_bound(&u, lights, count);
    printf("orthographic: %u references, bound %u\n", references, bound);
    CHECK(references > 200);
    CHECK(bound >= references && bound <= 3 * references);
}

/* Reads every Light field, every ClusterUniform field and the shared constants back from WGSL as
 * raw words, and evaluates cluster_index and the falloff helpers at probe points, so a mirror that
 * drifts from its C declaration fails here. A probe is (pixel x, pixel y, view depth, distance). */
static const char *ECHO_KERNEL =
    "#include \"lights.wgsl\"\n"
    "@group(0) @binding(0) var<uniform> u: ClusterUniform;\n"
    "@group(0) @binding(1) var<storage, read> lights: array<Light>;\n"
    "@group(0) @binding(2) var<storage, read> probes: array<vec4f>;\n"
    "@group(0) @binding(3) var<storage, read_write> words: array<u32>;\n"
    "fn put_f(i: u32, v: f32) { words[i] = bitcast<u32>(v); }\n"
    "fn put_v3(i: u32, v: vec3f) { put_f(i, v.x); put_f(i + 1u, v.y); put_f(i + 2u, v.z); }\n"
    "fn put_m(i: u32, m: mat4x4f) {\n"
    "    for (var c = 0u; c < 4u; c++) { for (var r = 0u; r < 4u; r++) { put_f(i + c * 4u + r, m[c][r]); } }\n"
    "}\n"
    "@compute @workgroup_size(1) fn echo() {\n"
    "    let l = lights[0];\n"
    "    put_v3(0u, l.position); put_f(3u, l.range); put_v3(4u, l.color_intensity); words[7] = l.kind;\n"
    "    put_v3(8u, l.direction); words[11] = bitcast<u32>(l.shadow_view); put_f(12u, l.cos_inner);\n"
    "    put_f(13u, l.cos_outer); put_f(14u, l.spot_scale); put_f(15u, l.spot_offset);\n"
    "    put_m(16u, u.view); put_m(32u, u.inverse_projection); put_f(48u, u.screen_size.x);\n"
    "    put_f(49u, u.screen_size.y); put_f(50u, u.near); put_f(51u, u.far); put_f(52u, u.slice_scale);\n"
    "    put_f(53u, u.slice_bias); words[54] = u.light_count;\n"
    "    words[56] = MAX_LIGHTS; words[57] = CLUSTER_X; words[58] = CLUSTER_Y; words[59] = CLUSTER_Z;\n"
    "    words[60] = CLUSTER_HEAT_LIGHTS; words[61] = arrayLength(&lights); words[62] = cluster_light_slot(vec2u(40u, 7u), 3u);\n"
    "    let n = arrayLength(&probes);\n"
    "    for (var i = 0u; i < n; i++) {\n"
    "        let p = probes[i];\n"
    "        words[64u + i] = cluster_index(u, p.xy, p.z);\n"
    "        put_f(64u + n + 2u * i, light_range_falloff(l, p.w));\n"
    "        let tilt = vec3f(p.x / u.screen_size.x - 0.5, p.y / u.screen_size.y - 0.5, 0.0);\n"
    "        put_f(65u + n + 2u * i, light_spot_factor(l, normalize(-l.direction + tilt)));\n"
    "    }\n"
    "}\n";

#define PROBES 64

TEST(the_wgsl_mirrors_read_the_c_records_field_by_field) {
    kiln_light spot = kiln_light_spot(kiln_vec3_make(1.5f, -2.0f, 3.25f), kiln_vec3_make(0.3f, -0.8f, -0.5f),
                                      kiln_vec3_make(1.0f, 0.5f, 0.25f), 80.0f, 12.0f, 0.3f, 0.5f);
    static kiln_gpu_light records[KILN_MAX_LIGHTS];
    records[0] = kiln_gpu_light_from(&spot);
    records[0].shadow_view = 17;
    kiln_cluster_uniform u;
    CHECK(test_uniform(&u, 513));
    float probes[PROBES][4];
    uint32_t seed = 7;
    for (int i = 0; i < PROBES; i++) {
        probes[i][0] = floorf(random_in(&seed, -20.0f, WIDTH + 20.0f)) + 0.5f; /* pixel centres, some off screen */
        probes[i][1] = floorf(random_in(&seed, -20.0f, HEIGHT + 20.0f)) + 0.5f;
        probes[i][2] = expf(random_in(&seed, logf(0.05f), logf(400.0f)));
        probes[i][3] = random_in(&seed, 0.0f, 15.0f);
    }

    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_resources *res = f.res;
    WGPUShaderModule m = render_wgsl_probe_compile(f.gfx, ECHO_KERNEL, &err);
    CHECK_MSG(m, "%s", err.message);
    kiln_shader shader = kiln_resources_adopt_shader(res, m, "echo", &err);
    WGPUBufferUsage in = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst;
    kiln_buffer ub = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.size = sizeof u,
        .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst}, &err);
    kiln_buffer lb = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.size = sizeof records, .usage = in}, &err);
    kiln_buffer pb = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.size = sizeof probes, .usage = in}, &err);
    uint32_t words[64 + 3 * PROBES];
    kiln_buffer wb = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.size = sizeof words,
        .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc}, &err);
    kiln_buffer back = kiln_resources_create_buffer(res, &(kiln_buffer_desc){.size = sizeof words,
        .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst}, &err);
    CHECK(kiln_resources_write_buffer(res, ub, 0, &u, sizeof u, &err));
    CHECK(kiln_resources_write_buffer(res, lb, 0, records, sizeof records, &err));
    CHECK(kiln_resources_write_buffer(res, pb, 0, probes, sizeof probes, &err));
    kiln_layout_entry entries[4] = {
        {.binding = 0, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_UNIFORM_BUFFER},
        {.binding = 1, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 2, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_READ_ONLY_STORAGE_BUFFER},
        {.binding = 3, .visibility = WGPUShaderStage_Compute, .kind = KILN_BINDING_STORAGE_BUFFER},
    };
    kiln_bind_group_layout bgl = kiln_resources_create_bind_group_layout(res, "echo", entries, 4, &err);
    kiln_pipeline_layout pl = kiln_resources_create_pipeline_layout(res, "echo", &bgl, 1, &err);
    kiln_compute_pipeline pipeline = kiln_resources_create_compute_pipeline(res, &(kiln_compute_pipeline_desc){
        .label = "echo", .layout = pl, .shader = shader, .entry = "echo"}, &err);
    CHECK_MSG(pipeline.id, "%s", err.message);
    kiln_binding_resource bindings[4] = {{.binding = 0, .buffer = ub}, {.binding = 1, .buffer = lb},
                                         {.binding = 2, .buffer = pb}, {.binding = 3, .buffer = wb}};
    kiln_bind_group group = kiln_resources_create_bind_group(res, "echo", bgl, bindings, 4, &err);
    kiln_encoder enc;
    kiln_compute_pass pass;
    CHECK(kiln_encoder_begin(&enc, res, "echo", &err));
    CHECK(kiln_encoder_begin_compute_pass(&enc, "echo", &pass, &err));
    CHECK(kiln_compute_pass_set_pipeline(&pass, pipeline, &err));
    CHECK(kiln_compute_pass_set_bind_group(&pass, 0, group, NULL, 0, &err));
    kiln_compute_pass_dispatch(&pass, 1, 1, 1);
    kiln_compute_pass_end(&pass);
    CHECK(kiln_encoder_copy_buffer_to_buffer(&enc, wb, 0, back, 0, sizeof words, &err));
    CHECK(kiln_encoder_finish_and_submit(&enc, &err));
    CHECK(kiln_gfx_wait_for_queue(f.gfx, &err));
    bool read = kiln_resources_read_buffer(res, back, 0, words, sizeof words, &err);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(read, "%s", err.message);

    CHECK(memcmp(&words[0], &records[0], sizeof records[0]) == 0);
    CHECK(memcmp(&words[16], &u, offsetof(kiln_cluster_uniform, pad)) == 0);
    CHECK_EQ_INT(words[56], KILN_MAX_LIGHTS);
    CHECK_EQ_INT(words[57], KILN_CLUSTER_X);
    CHECK_EQ_INT(words[58], KILN_CLUSTER_Y);
    CHECK_EQ_INT(words[59], KILN_CLUSTER_Z);
    CHECK_EQ_INT(words[60], KILN_CLUSTER_HEAT_LIGHTS);
    CHECK_EQ_INT(words[61], KILN_MAX_LIGHTS); /* the WGSL record is 64 bytes: 1024 fit the buffer */
    CHECK_EQ_INT(words[62], 40 + 3); /* cluster_light_slot((40, 7), 3) */
    const kiln_gpu_light *l = &records[0];
    uint32_t partial_falloff = 0, partial_cone = 0;
    for (int i = 0; i < PROBES; i++) {
        CHECK_EQ_INT(words[64 + i], kiln_cluster_index(&u, probes[i][0], probes[i][1], probes[i][2]));
        float falloff, cone;
        memcpy(&falloff, &words[64 + PROBES + 2 * i], 4);
        memcpy(&cone, &words[65 + PROBES + 2 * i], 4);
        float ratio = probes[i][3] / l->range;
        float window = fminf(fmaxf(1.0f - ratio * ratio * ratio * ratio, 0.0f), 1.0f);
        CHECK_NEAR(falloff, window * window, 1e-5);
        kiln_vec3 tilt = kiln_vec3_make(probes[i][0] / WIDTH - 0.5f, probes[i][1] / HEIGHT - 0.5f, 0.0f);
        kiln_vec3 to_light = kiln_vec3_normalize(kiln_vec3_add(kiln_vec3_scale(l->direction, -1.0f), tilt));
        float t = -kiln_vec3_dot(to_light, l->direction) * l->spot_scale + l->spot_offset;
        t = fminf(fmaxf(t, 0.0f), 1.0f);
        CHECK_NEAR(cone, t * t, 1e-4);
        partial_falloff += falloff > 0.0f && falloff < 1.0f;
        partial_cone += cone > 0.0f && cone < 1.0f;
    }
    CHECK(partial_falloff > 0 && partial_cone > 0); /* the probes reach the helpers' slopes */
}

TEST(a_missing_shader_directory_is_named_in_the_error) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_shader_library *library = kiln_shader_library_create(f.gfx, f.res, &(kiln_wgsl_source){.directory = "/nonexistent/shaders"}, &err);
    kiln_clusters *c = library ? kiln_clusters_create(f.res, library, &err) : NULL;
    kiln_live_counts live = kiln_resources_live_counts(f.res);
    kiln_shader_library_destroy(library);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(!c);
    CHECK_STR_CONTAINS(err.message, "/nonexistent/shaders/clusters.wgsl: cannot open");
    CHECK_EQ_INT(kiln_live_counts_total(&live), 0); /* nothing half-built is left behind */
}

TEST(an_update_with_too_many_lights_is_refused) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_wgsl_source shaders = render_wgsl_directory(KILN_RENDER_SHADER_DIR);
    kiln_shader_library *library = kiln_shader_library_create(f.gfx, f.res, &shaders, &err);
    kiln_clusters *c = library ? kiln_clusters_create(f.res, library, &err) : NULL;
    CHECK_MSG(c, "%s", err.message);
    static kiln_gpu_light lights[KILN_MAX_LIGHTS + 1];
    bool ok = kiln_clusters_update(c, test_view(), test_projection(), NEAR, WIDTH, HEIGHT, lights, KILN_MAX_LIGHTS + 1,
                                   &err);
    uint32_t light_count = kiln_clusters_uniform(c)->light_count;
    kiln_clusters_destroy(c);
    kiln_shader_library_destroy(library);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(!ok);
    CHECK_STR_CONTAINS(err.message, "light count 1025 exceeds KILN_MAX_LIGHTS (1024)");
    CHECK_EQ_INT(light_count, 0); /* nothing was written */
}

TEST_MAIN(T(cluster_params_follow_the_logarithmic_formula),
          T(an_orthographic_view_has_boxes_that_hold_its_fragments_and_a_bound_that_covers_them), T(slice_0_starts_at_near_and_slice_23_ends_at_200_m),
          T(slices_grow_monotonically_with_depth), T(each_slice_starts_where_the_formula_says),
          T(a_fragment_lies_in_the_box_of_the_cluster_it_looks_up), T(the_cluster_uniform_refuses_bad_inputs_naming_them),
          T(the_bound_of_single_lights_is_exact_at_the_extremes), T(the_bound_covers_the_cpu_reference_and_stays_close_to_it),
          T(gpu_culling_matches_the_cpu_reference), T(a_dense_view_of_1024_lights_drops_nothing),
          T(a_crowded_cluster_lists_all_40_lights_in_index_order), T(an_empty_light_list_clears_every_range_and_the_header), T(the_wgsl_mirrors_read_the_c_records_field_by_field),
          T(a_missing_shader_directory_is_named_in_the_error), T(an_update_with_too_many_lights_is_refused))
