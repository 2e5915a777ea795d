/* The frame graph on a device, with the real allocator: Dawn's refusals at compile, imported
 * views, sub-resource views of one mip, execution order and record functions, errors while
 * recording, and an MSAA transient resolved by execute. Every test ends with zero uncaptured Dawn
 * errors (the fixture's close checks it). */
#include <kiln/graph.h>

#include "gfx_fixture.h"

static const WGPUColor black = {0, 0, 0, 1};

/* A full-screen triangle copying texel (x, y) of its texture: shows a sampled transient. */
static const char *BLIT_WGSL =
    "@group(0) @binding(0) var src: texture_2d<f32>;\n"
    "@vertex fn vs_main(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {\n"
    "    var p = array<vec2f, 3>(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));\n"
    "    return vec4f(p[v], 0.5, 1.0);\n"
    "}\n"
    "@fragment fn fs_main(@builtin(position) pos: vec4f) -> @location(0) vec4f {\n"
    "    return textureLoad(src, vec2i(pos.xy), 0);\n"
    "}\n";

typedef struct blit {
    kiln_bind_group_layout bgl;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
} blit;

static bool blit_make(gfx_fixture *f, blit *b, kiln_error *err) {
    WGPUShaderModule m = kiln_gfx_compile_shader(f->gfx, "blit.wgsl", BLIT_WGSL, NULL, err);
    kiln_shader s = m ? kiln_resources_adopt_shader(f->res, m, "blit.wgsl", err) : (kiln_shader){0};
    if (!s.id) return false;
    kiln_layout_entry e = {.binding = 0, .visibility = WGPUShaderStage_Fragment, .kind = KILN_BINDING_TEXTURE_2D};
    b->bgl = kiln_resources_create_bind_group_layout(f->res, "blit", &e, 1, err);
    b->layout = kiln_resources_create_pipeline_layout(f->res, "blit", &b->bgl, 1, err);
    b->pipeline = kiln_resources_create_render_pipeline(f->res, &(kiln_render_pipeline_desc){
        .label = "blit", .layout = b->layout, .shader = s, .target_count = 1,
        .targets = {{.format = WGPUTextureFormat_RGBA8Unorm}}}, err);
    return b->pipeline.id != 0;
}

/* A caller-owned RGBA8 texture that can be rendered to and read back. */
typedef struct caller_view {
    kiln_texture texture;
    kiln_texture_view view;
    WGPUTexture raw_texture;
    WGPUTextureView raw_view;
    kiln_fg_texture_desc desc;
} caller_view;

static bool caller_view_make(kiln_resources *res, uint32_t w, uint32_t h, caller_view *out) {
    out->desc = (kiln_fg_texture_desc){.width = w, .height = h, .format = WGPUTextureFormat_RGBA8Unorm};
    out->texture = kiln_resources_create_texture(res, &(kiln_texture_desc){.label = "backbuffer", .width = w, .height = h,
                                           .format = WGPUTextureFormat_RGBA8Unorm,
                                           .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, NULL);
    out->view = kiln_resources_create_texture_view(res, out->texture, NULL, NULL);
    out->raw_texture = kiln_resources_texture_raw(res, out->texture, NULL);
    out->raw_view = kiln_resources_texture_view_raw(res, out->view, NULL);
    return out->raw_texture && out->raw_view;
}

static void caller_view_free(kiln_resources *res, caller_view *b) {
    kiln_resources_destroy_texture_view(res, b->view, NULL);
    kiln_resources_destroy_texture(res, b->texture, NULL);
}

static kiln_frame_graph *graph_create(gfx_fixture *f) {
    kiln_fg_allocator a = kiln_fg_gpu_allocator(f->res);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(&a, &err);
    if (!g) fprintf(stderr, "kiln_frame_graph_create: %s\n", err.message);
    return g;
}

static const uint8_t *pixel(const kiln_image *img, uint32_t x, uint32_t y) {
    return (const uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4;
}

/* Whether every pixel of an RGBA8 image is within 1 of rgba. */
static bool image_is(const kiln_image *img, const uint8_t rgba[4]) {
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++)
            for (int c = 0; c < 4; c++) {
                int d = (int)pixel(img, x, y)[c] - rgba[c];
                if (d < -1 || d > 1) {
                    fprintf(stderr, "pixel (%u, %u) is %u %u %u %u, expected %u %u %u %u\n", x, y, pixel(img, x, y)[0],
                            pixel(img, x, y)[1], pixel(img, x, y)[2], pixel(img, x, y)[3], rgba[0], rgba[1], rgba[2],
                            rgba[3]);
                    return false;
                }
            }
    return true;
}

/* ---- compile with the real allocator ------------------------------------------------------- */

TEST(a_transient_dawn_refuses_fails_compile_naming_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = graph_create(&f);
    CHECK(g);
    /* Depth formats cannot be storage textures. */
    kiln_fg_resource bad = kiln_frame_graph_create_transient(g, "bad depth", &(kiln_fg_texture_desc){
        .width = 8, .height = 8, .format = WGPUTextureFormat_Depth32Float, .usage = WGPUTextureUsage_StorageBinding});
    kiln_frame_graph_export(g, bad);
    kiln_frame_graph_write(g, kiln_frame_graph_add_compute_pass(g, "fill", NULL, NULL), bad);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_GPU);
    CHECK_STR_CONTAINS(err.message, "frame graph: transient 'bad depth' (8x8): ");
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 0);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f); /* the refused texture was caught in a scope, not counted */
}

TEST(imported_views_come_back_as_given_and_are_never_released) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(caller_view_make(f.res, 16, 16, &bb));
    kiln_frame_graph *g = graph_create(&f);
    CHECK(g);
    kiln_fg_resource target = kiln_frame_graph_import_view(g, "backbuffer", bb.raw_view, bb.raw_texture, &bb.desc);
    kiln_frame_graph_export(g, target);
    kiln_fg_resource hdr = kiln_frame_graph_create_transient(g, "hdr", &bb.desc);
    uint32_t draw = kiln_frame_graph_add_pass(g, "draw", NULL, NULL);
    kiln_frame_graph_color(g, draw, hdr, black);
    uint32_t post = kiln_frame_graph_add_pass(g, "post", NULL, NULL);
    kiln_frame_graph_read(g, post, hdr);
    kiln_frame_graph_color(g, post, target, black);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK(kiln_frame_graph_view_of(g, target, &err) == bb.raw_view);
    CHECK(kiln_frame_graph_texture_of(g, target, &err) == bb.raw_texture);
    CHECK(kiln_frame_graph_view_of(g, hdr, &err) != bb.raw_view);
    CHECK_EQ_INT(wgpuTextureGetWidth(kiln_frame_graph_texture_of(g, hdr, NULL)), 16);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 2);
    kiln_frame_graph_destroy(g);
    /* The caller's texture and view are still alive: the graph released only its own. */
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 1);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).texture_views, 1);
    caller_view_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

/* ---- execute ------------------------------------------------------------------------------- */

/* What each record function saw, in call order. */
typedef struct record_log {
    const char *names[8];
    uint32_t count;
    bool contexts_ok;
    kiln_encoder *encoder;
} record_log;

static void record_render(kiln_fg_context *ctx, void *user) {
    record_log *log = user;
    log->contexts_ok &= ctx->render && !ctx->compute && ctx->encoder == log->encoder &&
                        strcmp(kiln_frame_graph_pass_name(ctx->graph, ctx->pass), ctx->name) == 0;
    if (log->count < 8) log->names[log->count] = ctx->name;
    log->count++;
}

static void record_compute(kiln_fg_context *ctx, void *user) {
    record_log *log = user;
    log->contexts_ok &= ctx->compute && !ctx->render && ctx->encoder == log->encoder &&
                        strcmp(kiln_frame_graph_pass_name(ctx->graph, ctx->pass), ctx->name) == 0;
    if (log->count < 8) log->names[log->count] = ctx->name;
    log->count++;
}

TEST(execute_runs_passes_in_order_calling_each_record_function_once) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(caller_view_make(f.res, 16, 16, &bb));
    kiln_frame_graph *g = graph_create(&f);
    CHECK(g);
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, f.res, "frame graph", &err));
    record_log log = {.contexts_ok = true, .encoder = &enc};
    kiln_fg_resource target = kiln_frame_graph_import_view(g, "backbuffer", bb.raw_view, bb.raw_texture, &bb.desc);
    kiln_frame_graph_export(g, target);
    kiln_fg_resource lists = kiln_frame_graph_import_buffer(g, "lists", (kiln_buffer){0});
    kiln_fg_resource hdr = kiln_frame_graph_create_transient(g, "hdr", &bb.desc);
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", record_render, &log);
    kiln_frame_graph_read(g, tonemap, hdr);
    kiln_frame_graph_color(g, tonemap, target, black);
    uint32_t forward = kiln_frame_graph_add_pass(g, "forward", record_render, &log);
    kiln_frame_graph_read(g, forward, lists);
    kiln_frame_graph_color(g, forward, hdr, black);
    uint32_t debug = kiln_frame_graph_add_pass(g, "debug", record_render, &log);
    kiln_frame_graph_read(g, debug, hdr);
    kiln_frame_graph_color(g, debug, kiln_frame_graph_create_transient(g, "debug", &bb.desc), black);
    uint32_t cull = kiln_frame_graph_add_compute_pass(g, "cull", record_compute, &log);
    kiln_frame_graph_write(g, cull, lists);
    uint32_t clear_only = kiln_frame_graph_add_pass(g, "clear only", NULL, NULL);
    kiln_frame_graph_color(g, clear_only, target, black);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK(kiln_frame_graph_is_culled(g, debug));
    CHECK_MSG(kiln_frame_graph_execute(g, &enc, &err), "%s", err.message);
    CHECK_MSG(kiln_encoder_finish_and_submit(&enc, &err), "%s", err.message);
    CHECK(log.contexts_ok);
    CHECK_EQ_INT(log.count, 3);
    CHECK(strcmp(log.names[0], "cull") == 0);
    CHECK(strcmp(log.names[1], "forward") == 0);
    CHECK(strcmp(log.names[2], "tonemap") == 0);
    kiln_frame_graph_destroy(g);
    caller_view_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

/* A record function that fails, and how. */
typedef struct failing {
    int how;                       /* 0: ctx->error; 1: a destroyed pipeline on the render pass */
    kiln_render_pipeline stale;
    uint32_t later_calls;          /* calls of the pass after the failing one */
} failing;

static void record_failing(kiln_fg_context *ctx, void *user) {
    failing *fl = user;
    if (fl->how == 0) {
        kiln_error_set(&ctx->error, KILN_ERR_INVALID_ARGUMENT, "no mesh for 'teapot'");
        return;
    }
    kiln_render_pass_set_pipeline(ctx->render, fl->stale, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0); /* skipped: the pass is stuck */
}

static void record_later(kiln_fg_context *ctx, void *user) {
    (void)ctx;
    ((failing *)user)->later_calls++;
}

TEST(a_record_functions_failure_names_the_pass_and_stops_execute) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(caller_view_make(f.res, 16, 16, &bb));
    blit b;
    CHECK_MSG(blit_make(&f, &b, &err), "%s", err.message);
    kiln_render_pipeline stale = b.pipeline;
    CHECK(kiln_resources_destroy_render_pipeline(f.res, stale, &err));
    kiln_frame_graph *g = graph_create(&f);
    CHECK(g);
    static const struct { const char *id; int how; int code; const char *message; } rows[] = {
        {"graph-7.1", 0, KILN_ERR_INVALID_ARGUMENT, "frame graph: pass 'forward': no mesh for 'teapot'"},
        {"graph-7.2", 1, 0, "frame graph: pass 'forward': "},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        failing fl = {.how = rows[i].how, .stale = stale};
        kiln_frame_graph_reset(g);
        kiln_fg_resource target = kiln_frame_graph_import_view(g, "backbuffer", bb.raw_view, bb.raw_texture, &bb.desc);
        kiln_frame_graph_export(g, target);
        kiln_fg_resource hdr = kiln_frame_graph_create_transient(g, "hdr", &bb.desc);
        uint32_t forward = kiln_frame_graph_add_pass(g, "forward", record_failing, &fl);
        kiln_frame_graph_color(g, forward, hdr, black);
        uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", record_later, &fl);
        kiln_frame_graph_read(g, tonemap, hdr);
        kiln_frame_graph_color(g, tonemap, target, black);
        CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s: %s", rows[i].id, err.message);
        kiln_encoder enc;
        CHECK(kiln_encoder_begin(&enc, f.res, "failing frame", &err));
        bool executed = kiln_frame_graph_execute(g, &enc, &err);
        kiln_encoder_discard(&enc);
        CHECK_MSG(!executed, "%s: execute succeeded", rows[i].id);
        bool exact = rows[i].code != 0;
        CHECK_MSG(exact ? strcmp(err.message, rows[i].message) == 0 && err.code == rows[i].code
                        : strncmp(err.message, rows[i].message, strlen(rows[i].message)) == 0 &&
                              strlen(err.message) > strlen(rows[i].message) && err.code != 0,
                  "%s: code %d \"%s\", expected \"%s\"", rows[i].id, err.code, err.message, rows[i].message);
        CHECK_MSG(fl.later_calls == 0, "%s: the pass after the failing one was recorded", rows[i].id);
    }
    kiln_frame_graph_destroy(g);
    caller_view_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

/* Mip 0 and mip 1 of one transient, each cleared by its own pass through a view of that mip
 * only: each mip reads back its own colour. */
TEST(a_subresource_view_is_a_view_of_one_mip) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = graph_create(&f);
    CHECK(g);
    kiln_fg_resource chain = kiln_frame_graph_create_transient(g, "chain", &(kiln_fg_texture_desc){
        .width = 8, .height = 8, .format = WGPUTextureFormat_RGBA8Unorm, .mip_levels = 2,
        .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopySrc});
    kiln_frame_graph_export(g, chain);
    kiln_fg_resource mip0 = kiln_frame_graph_subresource(g, chain, 0, 0);
    kiln_fg_resource mip1 = kiln_frame_graph_subresource(g, chain, 1, 0);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "mip 0", NULL, NULL), mip0, (WGPUColor){1, 0, 0, 1});
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "mip 1", NULL, NULL), mip1, (WGPUColor){0, 1, 0, 1});
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    WGPUTexture texture = kiln_frame_graph_texture_of(g, chain, &err);
    CHECK(texture);

    kiln_buffer readback = kiln_resources_create_buffer(f.res, &(kiln_buffer_desc){
        .label = "mip 1 readback", .size = 256 * 4, .usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead}, &err);
    CHECK_MSG(readback.id, "%s", err.message);
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, f.res, "mips", &err));
    CHECK_MSG(kiln_frame_graph_execute(g, &enc, &err), "%s", err.message);
    CHECK_MSG(kiln_encoder_copy_texture_to_buffer(&enc, texture, 1, readback, 256, 4, 4, &err), "%s", err.message);
    CHECK_MSG(kiln_encoder_finish_and_submit(&enc, &err), "%s", err.message);
    uint8_t rows[256 * 4];
    CHECK_MSG(kiln_resources_read_buffer(f.res, readback, 0, rows, sizeof rows, &err), "%s", err.message);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            const uint8_t *p = rows + y * 256 + x * 4;
            CHECK_MSG(p[0] == 0 && p[1] == 255 && p[2] == 0 && p[3] == 255, "mip 1 (%u, %u) is %u %u %u %u", x, y, p[0],
                      p[1], p[2], p[3]);
        }
    kiln_image img;
    CHECK_MSG(kiln_resources_read_texture(f.res, texture, &img, &err), "%s", err.message);
    static const uint8_t red[4] = {255, 0, 0, 255};
    bool mip0_red = img.width == 8 && image_is(&img, red);
    kiln_image_free(&img);
    CHECK(mip0_red);
    kiln_resources_destroy_buffer(f.res, readback, NULL);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

/* The pass reading the resolve target samples it into the backbuffer; its bind group is made
 * while recording, from the view the graph gives it. */
typedef struct show {
    blit *blit;
    kiln_fg_resource resolved;
    kiln_resources *res;
    kiln_bind_group group;
} show;

static void record_show(kiln_fg_context *ctx, void *user) {
    show *s = user;
    kiln_texture_view view = kiln_fg_context_view_handle(ctx, s->resolved);
    if (!view.id) return;
    kiln_binding_resource entry = {.binding = 0, .view = view};
    s->group = kiln_resources_create_bind_group(s->res, "show", s->blit->bgl, &entry, 1, &ctx->error);
    if (!s->group.id) return;
    kiln_render_pass_set_pipeline(ctx->render, s->blit->pipeline, NULL);
    kiln_render_pass_set_bind_group(ctx->render, 0, s->group, NULL, 0, NULL);
    kiln_render_pass_draw(ctx->render, 3, 1, 0, 0);
}

TEST(an_msaa_transient_is_resolved_into_its_resolve_target_by_execute) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(caller_view_make(f.res, 16, 16, &bb));
    blit b;
    CHECK_MSG(blit_make(&f, &b, &err), "%s", err.message);
    kiln_frame_graph *g = graph_create(&f);
    CHECK(g);
    kiln_fg_resource target = kiln_frame_graph_import_view(g, "backbuffer", bb.raw_view, bb.raw_texture, &bb.desc);
    kiln_frame_graph_export(g, target);
    kiln_fg_resource ms = kiln_frame_graph_create_transient(g, "hdr ms", &(kiln_fg_texture_desc){
        .width = 16, .height = 16, .format = WGPUTextureFormat_RGBA8Unorm, .sample_count = 4,
        .usage = WGPUTextureUsage_RenderAttachment});
    kiln_fg_resource resolved = kiln_frame_graph_create_resolve_target(g, "hdr", ms);
    show s = {.blit = &b, .resolved = resolved, .res = f.res};
    uint32_t draw = kiln_frame_graph_add_pass(g, "draw", NULL, NULL);
    kiln_frame_graph_color(g, draw, ms, (WGPUColor){1, 0.5, 0, 1});
    uint32_t present = kiln_frame_graph_add_pass(g, "present", record_show, &s);
    kiln_frame_graph_read(g, present, resolved);
    kiln_frame_graph_color(g, present, target, black);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    kiln_fg_attachment a;
    CHECK_EQ_INT(kiln_frame_graph_attachments(g, draw, &a, 1), 1);
    CHECK_EQ_INT(a.resolve.index, resolved.index);
    CHECK_EQ_INT(a.store, WGPUStoreOp_Discard);
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, f.res, "msaa", &err));
    CHECK_MSG(kiln_frame_graph_execute(g, &enc, &err), "%s", err.message);
    CHECK_MSG(kiln_encoder_finish_and_submit(&enc, &err), "%s", err.message);
    kiln_image img;
    CHECK_MSG(kiln_resources_read_texture(f.res, bb.raw_texture, &img, &err), "%s", err.message);
    static const uint8_t orange[4] = {255, 128, 0, 255};
    bool resolved_orange = image_is(&img, orange);
    kiln_image_free(&img);
    CHECK(resolved_orange);
    kiln_resources_destroy_bind_group(f.res, s.group, NULL);
    kiln_frame_graph_destroy(g);
    caller_view_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(a_transient_dawn_refuses_fails_compile_naming_it),
          T(imported_views_come_back_as_given_and_are_never_released),
          T(execute_runs_passes_in_order_calling_each_record_function_once),
          T(a_record_functions_failure_names_the_pass_and_stops_execute), T(a_subresource_view_is_a_view_of_one_mip),
          T(an_msaa_transient_is_resolved_into_its_resolve_target_by_execute))
