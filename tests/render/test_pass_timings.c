/* GPU time per pass (kiln_renderer_pass_timings) on the device at hand. Where it has timestamp
 * queries (lavapipe through this Dawn has them, as the H200 has), the demo frame's timings come
 * back a frame later, one per executed pass, named and ordered as the frame graph executed them,
 * render and compute passes alike, each a finite non-negative time. Where it has none the
 * renderer says they are unavailable and lists nothing; that branch is also forced here by
 * hiding the feature from the renderer, so both are asserted on every machine. Each test prints
 * the branch it ran. All of it validation clean. */
#include <math.h>
#include <string.h>

#include "demo_scene.h"
#include "render/renderer_internal.h"
#include "renderer_fixture.h"

#define W 96
#define H 64

/* The demo scene at a small size, with small cascade maps: the pass list is the point, not the
 * pixels. */
static const kiln_render_settings SETTINGS = {.cascade_resolution = 256};

/* Waits for the GPU and pumps, so that readbacks of submitted frames come back. */
static void let_readbacks_arrive(renderer_fixture *h) {
    kiln_gfx_wait_for_queue(h->f.gfx, NULL);
    kiln_gfx_pump(h->f.gfx, true);
}

/* The timings hold the last frame's executed passes, in order, with usable times. */
static void check_timings_match_the_graph(kiln_renderer *r, const kiln_frame_timings *t) {
    uint32_t count;
    const uint32_t *order = kiln_frame_graph_order(r->graph, &count);
    CHECK_EQ_INT(t->status, KILN_FRAME_TIMINGS_READY);
    CHECK_EQ_INT(t->count, count);
    CHECK_EQ_INT(t->count, kiln_renderer_stats(r)->passes);
    double sum = 0.0;
    for (uint32_t i = 0; i < count; i++) {
        const char *name = kiln_frame_graph_pass_name(r->graph, order[i]);
        CHECK_MSG(!strcmp(t->passes[i].name, name), "pass %u: '%s' vs '%s'", i, t->passes[i].name, name);
        CHECK_MSG(isfinite(t->passes[i].gpu_ms) && t->passes[i].gpu_ms >= 0.0, "pass '%s': %g ms", t->passes[i].name,
                  t->passes[i].gpu_ms);
        sum += t->passes[i].gpu_ms;
    }
    CHECK_NEAR(t->total_ms, sum, 1e-9);
}

static bool has_pass(const kiln_frame_timings *t, const char *name) {
    for (uint32_t i = 0; i < t->count; i++)
        if (!strcmp(t->passes[i].name, name)) return true;
    return false;
}

/* Without timestamp queries: unavailable, nothing listed, every frame. */
static void check_unavailable(renderer_fixture *h, const demo_scene *demo) {
    kiln_error err = {0};
    for (int frame = 0; frame < 3; frame++) {
        CHECK_MSG(renderer_fixture_render(h, &demo->scene, NULL, &err), "%s", err.message);
        let_readbacks_arrive(h);
        kiln_frame_timings t = kiln_renderer_pass_timings(h->r);
        CHECK_EQ_INT(t.status, KILN_FRAME_TIMINGS_UNAVAILABLE);
        CHECK_EQ_INT(t.count, 0);
        CHECK(t.passes == NULL);
        CHECK_EQ_INT(t.frame, 0);
    }
}

TEST(every_executed_pass_reports_its_gpu_time_or_the_timings_are_unavailable) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&h, &SETTINGS, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    demo_scene demo;
    CHECK_MSG(demo_scene_build(h.r, (float)W / H, &demo, &err), "%s", err.message);
    if (!h.f.gfx->features.timestamp_query) {
        printf("branch: '%s' has no timestamp queries: timings unavailable\n", h.f.gfx->adapter_name);
        check_unavailable(&h, &demo);
    } else {
        printf("branch: '%s' has timestamp queries: one time per pass\n", h.f.gfx->adapter_name);
        for (uint64_t frame = 1; frame <= 3; frame++) {
            CHECK_MSG(renderer_fixture_render(&h, &demo.scene, NULL, &err), "%s", err.message);
            let_readbacks_arrive(&h);
            kiln_frame_timings t = kiln_renderer_pass_timings(h.r);
            check_timings_match_the_graph(h.r, &t);
            if (kiln_test_failed) break;
            CHECK_EQ_INT(t.frame, frame);
            /* Shadows, the compute light cull and the post chain are all in the list. */
            CHECK(has_pass(&t, "cascade shadow 0") && has_pass(&t, "cluster light cull") && has_pass(&t, "tonemap"));
        }
        /* A setting that removes passes: the next frame lists only what ran. */
        kiln_renderer_settings(h.r)->disable_bloom = true;
        CHECK_MSG(renderer_fixture_render(&h, &demo.scene, NULL, &err), "%s", err.message);
        let_readbacks_arrive(&h);
        kiln_frame_timings t = kiln_renderer_pass_timings(h.r);
        check_timings_match_the_graph(h.r, &t);
        CHECK(!has_pass(&t, "bloom prefilter"));
    }
    demo_scene_free(&demo);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST(timings_arrive_after_the_frame_without_waiting_for_it) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&h, &SETTINGS, WGPUTextureFormat_RGBA8Unorm, W, H, &err), "%s", err.message);
    demo_scene demo;
    CHECK_MSG(demo_scene_build(h.r, (float)W / H, &demo, &err), "%s", err.message);
    kiln_frame_timings before = kiln_renderer_pass_timings(h.r);
    CHECK_MSG(renderer_fixture_render(&h, &demo.scene, NULL, &err), "%s", err.message);
    /* Straight after the submit nothing has been pumped: the frame cannot have come back. */
    kiln_frame_timings right_after = kiln_renderer_pass_timings(h.r);
    let_readbacks_arrive(&h);
    kiln_frame_timings later = kiln_renderer_pass_timings(h.r);
    if (!h.f.gfx->features.timestamp_query) {
        printf("branch: no timestamp queries: unavailable throughout\n");
        CHECK_EQ_INT(before.status, KILN_FRAME_TIMINGS_UNAVAILABLE);
        CHECK_EQ_INT(right_after.status, KILN_FRAME_TIMINGS_UNAVAILABLE);
        CHECK_EQ_INT(later.status, KILN_FRAME_TIMINGS_UNAVAILABLE);
    } else {
        printf("branch: timestamp queries: pending, then frame 1\n");
        CHECK_EQ_INT(before.status, KILN_FRAME_TIMINGS_PENDING);
        CHECK_EQ_INT(right_after.status, KILN_FRAME_TIMINGS_PENDING);
        CHECK_EQ_INT(right_after.count, 0);
        CHECK_EQ_INT(later.status, KILN_FRAME_TIMINGS_READY);
        CHECK_EQ_INT(later.frame, 1);
    }
    demo_scene_free(&demo);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

/* The renderer reads the device's features once, at creation; hiding timestamp queries from it
 * there is what an adapter without them looks like to it. */
TEST(a_device_without_timestamp_queries_reports_unavailable_and_no_passes) {
    renderer_fixture h = {0};
    kiln_error err = {0};
    CHECK(fixture_open(&h.f));
    bool had = h.f.gfx->features.timestamp_query;
    h.f.gfx->features.timestamp_query = false;
    h.r = kiln_renderer_create(h.f.gfx, h.f.res, &SETTINGS, WGPUTextureFormat_RGBA8Unorm, &err);
    h.f.gfx->features.timestamp_query = had;
    CHECK_MSG(h.r, "%s", err.message);
    h.target = kiln_resources_create_texture(h.f.res, &(kiln_texture_desc){.width = W, .height = H,
        .format = WGPUTextureFormat_RGBA8Unorm, .usage = WGPUTextureUsage_RenderAttachment}, &err);
    h.view = kiln_resources_create_texture_view(h.f.res, h.target, NULL, &err);
    CHECK_MSG(h.view.id, "%s", err.message);
    demo_scene demo;
    CHECK_MSG(demo_scene_build(h.r, (float)W / H, &demo, &err), "%s", err.message);
    printf("branch: timestamp queries hidden from the renderer (the device %s them)\n", had ? "has" : "lacks");
    check_unavailable(&h, &demo);
    demo_scene_free(&demo);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
}

TEST_MAIN(T(every_executed_pass_reports_its_gpu_time_or_the_timings_are_unavailable),
          T(timings_arrive_after_the_frame_without_waiting_for_it),
          T(a_device_without_timestamp_queries_reports_unavailable_and_no_passes))
