/* The frame graph: dependency rules and ordering, culling, cycles, lifetimes, aliasing of
 * transients and the texture pool across frames, imported and external resources, declaration
 * errors, the DOT dump, and a steady-state frame that allocates nothing. */
#include <kiln/graph.h>

#include "gfx_fixture.h"

/* ---- heap allocation counting ----------------------------------------------------------------
 * This executable replaces malloc and friends with thin wrappers over glibc's own entry points,
 * counting calls made on the measuring thread while `alloc_counting` is set (Dawn's threads may
 * allocate meanwhile; they are not the frame path). AddressSanitizer interposes malloc itself,
 * so under ASan the wrappers are left out and the test skips. */
#ifndef __SANITIZE_ADDRESS__
#define KILN_TEST_COUNTS_ALLOCATIONS 1
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

/* volatile: the compiler assumes malloc touches no program state, and would otherwise drop or
 * move the flag's stores around a call it can see. */
static _Thread_local volatile bool alloc_counting;
static _Thread_local volatile unsigned long alloc_count;

void *malloc(size_t size) {
    if (alloc_counting) alloc_count++;
    return __libc_malloc(size);
}
void *calloc(size_t count, size_t size) {
    if (alloc_counting) alloc_count++;
    return __libc_calloc(count, size);
}
void *realloc(void *p, size_t size) {
    if (alloc_counting) alloc_count++;
    return __libc_realloc(p, size);
}
void free(void *p) { __libc_free(p); }
#endif

/* ---- helpers ----------------------------------------------------------------------------- */

static kiln_fg_texture_desc hdr_desc(uint32_t w, uint32_t h) {
    return (kiln_fg_texture_desc){.width = w, .height = h, .format = WGPUTextureFormat_RGBA16Float};
}

static kiln_fg_texture_desc depth_desc(uint32_t w, uint32_t h) {
    return (kiln_fg_texture_desc){.width = w, .height = h, .format = WGPUTextureFormat_Depth32Float};
}

static kiln_fg_resource transient(kiln_frame_graph *g, const char *name, kiln_fg_texture_desc desc) {
    return kiln_frame_graph_create_transient(g, name, &desc);
}

/* A caller-owned texture and view, standing in for a swapchain frame. */
typedef struct caller_view {
    kiln_texture texture;
    kiln_texture_view view;
    WGPUTexture raw_texture;
    WGPUTextureView raw_view;
    kiln_fg_texture_desc desc;
} caller_view;

static bool backbuffer_make(kiln_resources *res, uint32_t w, uint32_t h, caller_view *out) {
    out->desc = (kiln_fg_texture_desc){.width = w, .height = h, .format = WGPUTextureFormat_RGBA8Unorm};
    out->texture = kiln_gfx_create_texture(res, &(kiln_texture_desc){.label = "backbuffer", .width = w, .height = h,
                                           .format = WGPUTextureFormat_RGBA8Unorm,
                                           .usage = WGPUTextureUsage_RenderAttachment}, NULL);
    out->view = kiln_gfx_create_texture_view(res, out->texture, NULL, NULL);
    out->raw_texture = kiln_gfx_texture_raw(res, out->texture, NULL);
    out->raw_view = kiln_gfx_texture_view_raw(res, out->view, NULL);
    return out->raw_texture && out->raw_view;
}

static void backbuffer_free(kiln_resources *res, caller_view *b) {
    kiln_gfx_destroy_texture_view(res, b->view, NULL);
    kiln_gfx_destroy_texture(res, b->texture, NULL);
}

static kiln_fg_resource import_backbuffer(kiln_frame_graph *g, const caller_view *b) {
    return kiln_frame_graph_import_view(g, "backbuffer", b->raw_view, b->raw_texture, &b->desc);
}

/* Compares the compiled order with the expected pass indices, printing both on a mismatch. */
static bool order_is(const kiln_frame_graph *g, const uint32_t *expected, uint32_t n) {
    uint32_t count;
    const uint32_t *order = kiln_frame_graph_order(g, &count);
    bool same = count == n;
    for (uint32_t i = 0; same && i < n; i++) same = order[i] == expected[i];
    if (!same) {
        fprintf(stderr, "order:");
        for (uint32_t i = 0; i < count; i++) fprintf(stderr, " %s", kiln_frame_graph_pass_name(g, order[i]));
        fprintf(stderr, "\nexpected:");
        for (uint32_t i = 0; i < n; i++) fprintf(stderr, " %s", kiln_frame_graph_pass_name(g, expected[i]));
        fputc('\n', stderr);
    }
    return same;
}

#define CHECK_ORDER(g, ...)                                                                  \
    do {                                                                                     \
        const uint32_t expected_[] = {__VA_ARGS__};                                          \
        CHECK(order_is((g), expected_, sizeof expected_ / sizeof expected_[0]));             \
    } while (0)

#define CHECK_LIFETIME(g, r, a, b)                                                           \
    do {                                                                                     \
        uint32_t first_, last_;                                                              \
        CHECK(kiln_frame_graph_lifetime((g), (r), &first_, &last_));                         \
        CHECK_EQ_INT(first_, (a));                                                           \
        CHECK_EQ_INT(last_, (b));                                                            \
    } while (0)

/* ---- ordering ---------------------------------------------------------------------------- */

TEST(passes_declared_out_of_order_run_in_dependency_order) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(backbuffer_make(f.res, 64, 64, &bb));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    CHECK_MSG(g, "%s", err.message);

    kiln_fg_resource backbuffer = import_backbuffer(g, &bb);
    kiln_frame_graph_export(g, backbuffer);
    kiln_fg_resource depth = transient(g, "depth", depth_desc(64, 64));
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(64, 64));
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap");
    kiln_frame_graph_read(g, tonemap, hdr);
    kiln_frame_graph_write(g, tonemap, backbuffer);
    uint32_t prepass = kiln_frame_graph_add_pass(g, "depth prepass");
    kiln_frame_graph_write(g, prepass, depth);
    uint32_t forward = kiln_frame_graph_add_pass(g, "forward");
    kiln_frame_graph_read(g, forward, depth);
    kiln_frame_graph_write(g, forward, hdr);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);

    CHECK_ORDER(g, prepass, forward, tonemap);
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 0);
    CHECK_LIFETIME(g, depth, 0, 1);
    CHECK_LIFETIME(g, hdr, 1, 2);
    CHECK_LIFETIME(g, backbuffer, 2, 2);
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

/* clear writes X, sample reads X (and Y, made by a pass declared last), overwrite writes X
 * again. Without the write-after-read edge the lowest-index-first sort would run overwrite
 * before sample, which would then read the second version. */
TEST(a_second_writer_waits_for_the_first_versions_readers) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource x = kiln_frame_graph_create_external(g, "x");
    kiln_fg_resource y = kiln_frame_graph_create_external(g, "y");
    kiln_fg_resource out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, x);
    kiln_frame_graph_export(g, out);
    uint32_t clear = kiln_frame_graph_add_pass(g, "clear");
    kiln_frame_graph_write(g, clear, x);
    uint32_t sample = kiln_frame_graph_add_pass(g, "sample");
    kiln_frame_graph_read(g, sample, x);
    kiln_frame_graph_read(g, sample, y);
    kiln_frame_graph_write(g, sample, out);
    uint32_t overwrite = kiln_frame_graph_add_pass(g, "overwrite");
    kiln_frame_graph_write(g, overwrite, x);
    uint32_t make_y = kiln_frame_graph_add_pass(g, "make y");
    kiln_frame_graph_write(g, make_y, y);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK_ORDER(g, clear, make_y, sample, overwrite);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

/* "read early" is declared before any writer of X, so it reads the first writer's version: it
 * runs after "first write" and the second writer waits for it. */
TEST(readers_declared_before_the_first_writer_read_its_version) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource x = kiln_frame_graph_create_external(g, "x");
    kiln_fg_resource y = kiln_frame_graph_create_external(g, "y");
    kiln_fg_resource out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, x);
    kiln_frame_graph_export(g, out);
    uint32_t early = kiln_frame_graph_add_pass(g, "read early");
    kiln_frame_graph_read(g, early, x);
    kiln_frame_graph_read(g, early, y);
    kiln_frame_graph_write(g, early, out);
    uint32_t first = kiln_frame_graph_add_pass(g, "first write");
    kiln_frame_graph_write(g, first, x);
    uint32_t second = kiln_frame_graph_add_pass(g, "second write");
    kiln_frame_graph_write(g, second, x);
    uint32_t make_y = kiln_frame_graph_add_pass(g, "make y");
    kiln_frame_graph_write(g, make_y, y);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK_ORDER(g, first, make_y, early, second);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_reader_depends_on_the_most_recent_earlier_writer) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource x = kiln_frame_graph_create_external(g, "x");
    kiln_fg_resource out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, out);
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque");
    kiln_frame_graph_write(g, opaque, x);
    uint32_t sky = kiln_frame_graph_add_pass(g, "sky");
    kiln_frame_graph_write(g, sky, x);
    uint32_t post = kiln_frame_graph_add_pass(g, "post");
    kiln_frame_graph_read(g, post, x);
    kiln_frame_graph_write(g, post, out);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    /* post reads sky's version, which is chained after opaque's: all three run. */
    CHECK_ORDER(g, opaque, sky, post);
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(external_resources_order_passes_but_have_no_view) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(backbuffer_make(f.res, 16, 16, &bb));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource target = import_backbuffer(g, &bb);
    kiln_frame_graph_export(g, target);
    kiln_fg_resource lists = kiln_frame_graph_create_external(g, "cluster lists");
    uint32_t forward = kiln_frame_graph_add_pass(g, "forward");
    kiln_frame_graph_read(g, forward, lists);
    kiln_frame_graph_write(g, forward, target);
    uint32_t cull = kiln_frame_graph_add_pass(g, "cluster light cull");
    kiln_frame_graph_write(g, cull, lists);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK_ORDER(g, cull, forward);
    CHECK_LIFETIME(g, lists, 0, 1);
    CHECK(kiln_frame_graph_view_of(g, lists, &err) == NULL);
    CHECK_STR_CONTAINS(err.message, "frame graph: 'cluster lists' is an external resource and has no texture");
    CHECK(kiln_frame_graph_texture_of(g, lists, NULL) == NULL);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 0);
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

/* ---- culling ----------------------------------------------------------------------------- */

TEST(a_pass_feeding_no_export_is_culled_and_drawn_dashed) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(backbuffer_make(f.res, 64, 64, &bb));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource target = import_backbuffer(g, &bb);
    kiln_frame_graph_export(g, target);
    kiln_fg_resource depth = transient(g, "depth", depth_desc(64, 64));
    kiln_fg_resource debug = transient(g, "debug", hdr_desc(64, 64));
    uint32_t prepass = kiln_frame_graph_add_pass(g, "depth prepass");
    kiln_frame_graph_write(g, prepass, depth);
    uint32_t debug_view = kiln_frame_graph_add_pass(g, "debug view");
    kiln_frame_graph_read(g, debug_view, depth);
    kiln_frame_graph_write(g, debug_view, debug);
    uint32_t forward = kiln_frame_graph_add_pass(g, "forward");
    kiln_frame_graph_read(g, forward, depth);
    kiln_frame_graph_write(g, forward, target);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);

    CHECK_ORDER(g, prepass, forward);
    CHECK(kiln_frame_graph_is_culled(g, debug_view));
    CHECK(!kiln_frame_graph_is_culled(g, prepass));
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 1);
    CHECK(!kiln_frame_graph_lifetime(g, debug, NULL, NULL));
    CHECK(kiln_frame_graph_view_of(g, debug, &err) == NULL);
    CHECK_STR_CONTAINS(err.message, "transient 'debug' is used by no executed pass this frame");
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 1);

    char dot[4096];
    size_t n = kiln_frame_graph_to_graphviz(g, dot, sizeof dot);
    CHECK(n < sizeof dot);
    CHECK_STR_CONTAINS(dot, "p1 [shape=box, style=dashed, label=\"debug view\\n(culled)\"];");
    /* Executed passes come first, in order, labelled with their position. */
    const char *first = strstr(dot, "p0 [shape=box, label=\"0: depth prepass\"];");
    const char *second = strstr(dot, "p2 [shape=box, label=\"1: forward\"];");
    CHECK(first && second && first < second);
    CHECK_STR_CONTAINS(dot, "r2 [shape=ellipse, label=\"depth\\nphysical 0 64x64\\n[0, 1]\"];");
    CHECK_STR_CONTAINS(dot, "r1 [shape=ellipse, peripheries=2, label=\"backbuffer\\nimported 64x64\\n[1, 1]\"];");
    CHECK_STR_CONTAINS(dot, "r3 [shape=ellipse, style=dashed, label=\"debug\\ntransient 64x64\\nunused\"];");
    CHECK_STR_CONTAINS(dot, "p0 -> r2;");
    CHECK_STR_CONTAINS(dot, "r2 -> p2;");
    CHECK_STR_CONTAINS(dot, "p1 -> r3 [style=dashed];");
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(graphviz_reports_the_full_length_and_truncates_safely) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource out = kiln_frame_graph_create_external(g, "say \"hi\"");
    kiln_frame_graph_export(g, out);
    kiln_frame_graph_write(g, kiln_frame_graph_add_pass(g, "only"), out);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    size_t n = kiln_frame_graph_to_graphviz(g, NULL, 0);
    char full[1024], small[16];
    CHECK_EQ_INT(kiln_frame_graph_to_graphviz(g, full, sizeof full), n);
    CHECK_EQ_INT(strlen(full), n);
    CHECK_STR_CONTAINS(full, "label=\"say \\\"hi\\\"\\nexternal\\n[0, 0]\"");
    CHECK_EQ_INT(kiln_frame_graph_to_graphviz(g, small, sizeof small), n);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
    CHECK(strncmp(small, full, sizeof small - 1) == 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

/* ---- errors ------------------------------------------------------------------------------ */

TEST(a_cycle_fails_compile_naming_two_passes_on_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource x = kiln_frame_graph_create_external(g, "x");
    kiln_fg_resource y = kiln_frame_graph_create_external(g, "y");
    kiln_fg_resource out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, out);
    /* Declared first and stuck behind the cycle, but not on it: it must not be named. */
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap");
    kiln_frame_graph_read(g, tonemap, x);
    kiln_frame_graph_write(g, tonemap, out);
    uint32_t blur_x = kiln_frame_graph_add_pass(g, "blur x");
    kiln_frame_graph_read(g, blur_x, x);
    kiln_frame_graph_write(g, blur_x, y);
    uint32_t blur_y = kiln_frame_graph_add_pass(g, "blur y");
    kiln_frame_graph_read(g, blur_y, y);
    kiln_frame_graph_write(g, blur_y, x);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err.message, "frame graph: cycle between passes 'blur x' and 'blur y'") == 0);
    uint32_t count = 1;
    kiln_frame_graph_order(g, &count);
    CHECK_EQ_INT(count, 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_bad_resource_or_pass_fails_compile_naming_the_pass) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, out);
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap");
    kiln_frame_graph_read(g, tonemap, (kiln_fg_resource){99});
    kiln_frame_graph_write(g, tonemap, out);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_HANDLE);
    CHECK(strcmp(err.message, "frame graph: pass 'tonemap' reads an invalid resource (index 99)") == 0);

    kiln_frame_graph_reset(g);
    out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, out);
    tonemap = kiln_frame_graph_add_pass(g, "tonemap");
    kiln_frame_graph_write(g, tonemap + 7, out);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err.message, "frame graph: undeclared pass 7 writes 'out' (passes declared this frame: 1)") == 0);

    /* reset forgets the mistake. */
    kiln_frame_graph_reset(g);
    out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, out);
    kiln_frame_graph_write(g, kiln_frame_graph_add_pass(g, "tonemap"), out);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(reading_a_transient_no_pass_writes_fails_compile) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource out = kiln_frame_graph_create_external(g, "out");
    kiln_frame_graph_export(g, out);
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(8, 8));
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap");
    kiln_frame_graph_read(g, tonemap, hdr);
    kiln_frame_graph_write(g, tonemap, out);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK(strcmp(err.message, "frame graph: pass 'tonemap' reads transient 'hdr', which no pass writes") == 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_transient_dawn_refuses_fails_compile_naming_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    /* Depth formats cannot be storage textures. */
    kiln_fg_resource bad = kiln_frame_graph_create_transient(g, "bad depth", &(kiln_fg_texture_desc){
        .width = 8, .height = 8, .format = WGPUTextureFormat_Depth32Float, .usage = WGPUTextureUsage_StorageBinding});
    kiln_frame_graph_export(g, bad);
    kiln_frame_graph_write(g, kiln_frame_graph_add_pass(g, "fill"), bad);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_GPU);
    CHECK_STR_CONTAINS(err.message, "frame graph: transient 'bad depth' (8x8): ");
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 0);

    kiln_frame_graph_reset(g);
    kiln_fg_resource empty = kiln_frame_graph_create_transient(g, "empty", &(kiln_fg_texture_desc){
        .height = 8, .format = WGPUTextureFormat_RGBA8Unorm});
    kiln_frame_graph_export(g, empty);
    kiln_frame_graph_write(g, kiln_frame_graph_add_pass(g, "fill"), empty);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK(strcmp(err.message, "frame graph: transient 'empty' has size 0x8") == 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f); /* the refused texture was caught in a scope, not counted */
}

/* ---- aliasing and the pool --------------------------------------------------------------- */

/* a -> t1 -> b -> t2 -> c -> t3 -> d -> backbuffer: t1 lives [0, 1], t2 [1, 2], t3 [2, 3]. */
typedef struct chain {
    kiln_fg_resource t1, t2, t3;
} chain;

static chain declare_chain(kiln_frame_graph *g, const caller_view *bb, const kiln_fg_texture_desc *d1,
                           const kiln_fg_texture_desc *d2, const kiln_fg_texture_desc *d3) {
    chain c = {
        .t1 = kiln_frame_graph_create_transient(g, "t1", d1),
        .t2 = kiln_frame_graph_create_transient(g, "t2", d2),
        .t3 = kiln_frame_graph_create_transient(g, "t3", d3),
    };
    kiln_fg_resource target = import_backbuffer(g, bb);
    kiln_frame_graph_export(g, target);
    uint32_t a = kiln_frame_graph_add_pass(g, "a");
    kiln_frame_graph_write(g, a, c.t1);
    uint32_t b = kiln_frame_graph_add_pass(g, "b");
    kiln_frame_graph_read(g, b, c.t1);
    kiln_frame_graph_write(g, b, c.t2);
    uint32_t pc = kiln_frame_graph_add_pass(g, "c");
    kiln_frame_graph_read(g, pc, c.t2);
    kiln_frame_graph_write(g, pc, c.t3);
    uint32_t d = kiln_frame_graph_add_pass(g, "d");
    kiln_frame_graph_read(g, d, c.t3);
    kiln_frame_graph_write(g, d, target);
    return c;
}

TEST(transients_with_equal_descriptions_and_disjoint_lifetimes_share_a_texture) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(backbuffer_make(f.res, 32, 32, &bb));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_texture_desc d = hdr_desc(32, 32);
    chain c = declare_chain(g, &bb, &d, &d, &d);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK_LIFETIME(g, c.t1, 0, 1);
    CHECK_LIFETIME(g, c.t2, 1, 2);
    CHECK_LIFETIME(g, c.t3, 2, 3);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 2);
    WGPUTextureView v1 = kiln_frame_graph_view_of(g, c.t1, &err), v2 = kiln_frame_graph_view_of(g, c.t2, &err),
                    v3 = kiln_frame_graph_view_of(g, c.t3, &err);
    CHECK(v1 && v2 && v3);
    CHECK(v1 == v3);
    CHECK(v1 != v2);
    CHECK(kiln_frame_graph_texture_of(g, c.t1, NULL) == kiln_frame_graph_texture_of(g, c.t3, NULL));
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 1 + 2);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).texture_views, 1 + 2);
    kiln_frame_graph_destroy(g);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 1);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).texture_views, 1);
    backbuffer_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(transients_with_different_descriptions_never_share) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(backbuffer_make(f.res, 32, 32, &bb));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_texture_desc d = hdr_desc(32, 32), smaller = hdr_desc(16, 16), other_format = d;
    other_format.format = WGPUTextureFormat_RGBA8Unorm;
    kiln_fg_texture_desc storage = d;
    storage.usage = WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding;
    struct { const char *what; const kiln_fg_texture_desc *t3; } cases[] = {
        {"size", &smaller}, {"format", &other_format}, {"usage", &storage}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_frame_graph_reset(g);
        chain c = declare_chain(g, &bb, &d, &d, cases[i].t3);
        CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s: %s", cases[i].what, err.message);
        CHECK_MSG(kiln_frame_graph_physical_count(g) == 3, "%s differs, yet t1 and t3 share", cases[i].what);
        CHECK(kiln_frame_graph_view_of(g, c.t1, NULL) != kiln_frame_graph_view_of(g, c.t3, NULL));
    }
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

/* t1 is exported: it must still hold its contents after the frame, so t3 cannot take it. */
TEST(an_exported_transient_lives_to_the_end_of_the_frame) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb;
    CHECK(backbuffer_make(f.res, 32, 32, &bb));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_texture_desc d = hdr_desc(32, 32);
    chain c = declare_chain(g, &bb, &d, &d, &d);
    kiln_frame_graph_export(g, c.t1);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK_LIFETIME(g, c.t1, 0, 3);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 3);
    CHECK(kiln_frame_graph_view_of(g, c.t1, NULL) != kiln_frame_graph_view_of(g, c.t3, NULL));
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(imported_views_are_returned_as_given_and_never_aliased) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view bb, shadow;
    CHECK(backbuffer_make(f.res, 32, 32, &bb));
    CHECK(backbuffer_make(f.res, 32, 32, &shadow));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource target = import_backbuffer(g, &bb);
    kiln_frame_graph_export(g, target);
    /* Same description as the transient below and a disjoint lifetime: a transient would share. */
    kiln_fg_resource shadows = kiln_frame_graph_import_view(g, "shadows", shadow.raw_view, NULL, &shadow.desc);
    kiln_fg_resource ldr = kiln_frame_graph_create_transient(g, "ldr", &shadow.desc);
    uint32_t draw_shadows = kiln_frame_graph_add_pass(g, "shadows");
    kiln_frame_graph_write(g, draw_shadows, shadows);
    uint32_t lit = kiln_frame_graph_add_pass(g, "lit");
    kiln_frame_graph_read(g, lit, shadows);
    kiln_frame_graph_write(g, lit, target);
    uint32_t fxaa_in = kiln_frame_graph_add_pass(g, "make ldr");
    kiln_frame_graph_read(g, fxaa_in, target);
    kiln_frame_graph_write(g, fxaa_in, ldr);
    uint32_t fxaa = kiln_frame_graph_add_pass(g, "fxaa");
    kiln_frame_graph_read(g, fxaa, ldr);
    kiln_frame_graph_write(g, fxaa, target);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK_ORDER(g, draw_shadows, lit, fxaa_in, fxaa);
    CHECK_LIFETIME(g, shadows, 0, 1);
    CHECK_LIFETIME(g, ldr, 2, 3);
    CHECK(kiln_frame_graph_view_of(g, target, &err) == bb.raw_view);
    CHECK(kiln_frame_graph_texture_of(g, target, &err) == bb.raw_texture);
    CHECK(kiln_frame_graph_view_of(g, shadows, &err) == shadow.raw_view);
    CHECK(kiln_frame_graph_view_of(g, ldr, &err) != shadow.raw_view);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 1);
    CHECK(kiln_frame_graph_texture_of(g, shadows, &err) == NULL);
    CHECK_STR_CONTAINS(err.message, "frame graph: 'shadows' was imported without its texture");
    CHECK(kiln_frame_graph_view_handle(g, shadows, &err).id == 0);
    kiln_frame_graph_destroy(g);
    /* The caller's views are still alive: the graph released only its own texture. */
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 2);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).texture_views, 2);
    backbuffer_free(f.res, &shadow);
    backbuffer_free(f.res, &bb);
    FIXTURE_CLOSE_CLEAN(f);
}

/* A frame shaped like the renderer's: imported shadow maps and target, depth, GTAO, cluster lists
 * (external), HDR, a six-mip bloom chain with names kept in a static table, tonemap, and a debug
 * pass that is culled. */
static const char *const bloom_names[6] = {"bloom 0", "bloom 1", "bloom 2", "bloom 3", "bloom 4", "bloom 5"};
static const char *const bloom_down_names[6] = {"bloom down 0", "bloom down 1", "bloom down 2",
                                                "bloom down 3", "bloom down 4", "bloom down 5"};
static const char *const bloom_up_names[6] = {"", "bloom up 1", "bloom up 2", "bloom up 3", "bloom up 4", "bloom up 5"};

typedef struct frame {
    kiln_fg_resource depth, ao_raw, ao, hdr, bloom[6];
} frame;

static frame declare_frame(kiln_frame_graph *g, const caller_view *target, const caller_view *shadow, uint32_t w,
                           uint32_t h) {
    frame fr;
    kiln_fg_resource out = kiln_frame_graph_import_view(g, "target", target->raw_view, target->raw_texture,
                                                        &target->desc);
    kiln_frame_graph_export(g, out);
    kiln_fg_resource shadows = kiln_frame_graph_import_view(g, "cascades", shadow->raw_view, shadow->raw_texture,
                                                            &shadow->desc);
    kiln_fg_resource lists = kiln_frame_graph_create_external(g, "cluster lists");
    fr.depth = transient(g, "depth", depth_desc(w, h));
    kiln_fg_texture_desc ao_desc = {.width = w, .height = h, .format = WGPUTextureFormat_RGBA8Unorm,
                                    .usage = WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding};
    fr.ao_raw = kiln_frame_graph_create_transient(g, "ao raw", &ao_desc);
    fr.ao = kiln_frame_graph_create_transient(g, "ao", &ao_desc);
    fr.hdr = transient(g, "hdr", hdr_desc(w, h));
    for (uint32_t i = 0; i < 6; i++)
        fr.bloom[i] = transient(g, bloom_names[i], hdr_desc(w >> (i + 1), h >> (i + 1)));
    kiln_fg_resource debug = transient(g, "debug", hdr_desc(w, h));

    uint32_t p = kiln_frame_graph_add_pass(g, "cascade shadows");
    kiln_frame_graph_write(g, p, shadows);
    p = kiln_frame_graph_add_pass(g, "depth prepass");
    kiln_frame_graph_write(g, p, fr.depth);
    p = kiln_frame_graph_add_pass(g, "gtao");
    kiln_frame_graph_read(g, p, fr.depth);
    kiln_frame_graph_write(g, p, fr.ao_raw);
    p = kiln_frame_graph_add_pass(g, "gtao blur");
    kiln_frame_graph_read(g, p, fr.ao_raw);
    kiln_frame_graph_write(g, p, fr.ao);
    p = kiln_frame_graph_add_pass(g, "cluster light cull");
    kiln_frame_graph_write(g, p, lists);
    p = kiln_frame_graph_add_pass(g, "forward+ opaque");
    kiln_frame_graph_read(g, p, fr.depth);
    kiln_frame_graph_read(g, p, fr.ao);
    kiln_frame_graph_read(g, p, shadows);
    kiln_frame_graph_read(g, p, lists);
    kiln_frame_graph_write(g, p, fr.hdr);
    p = kiln_frame_graph_add_pass(g, "sky");
    kiln_frame_graph_read(g, p, fr.depth);
    kiln_frame_graph_write(g, p, fr.hdr);
    p = kiln_frame_graph_add_pass(g, "debug");
    kiln_frame_graph_read(g, p, fr.hdr);
    kiln_frame_graph_write(g, p, debug);
    for (uint32_t i = 0; i < 6; i++) {
        p = kiln_frame_graph_add_pass(g, bloom_down_names[i]);
        kiln_frame_graph_read(g, p, i == 0 ? fr.hdr : fr.bloom[i - 1]);
        kiln_frame_graph_write(g, p, fr.bloom[i]);
    }
    for (uint32_t i = 5; i >= 1; i--) {
        p = kiln_frame_graph_add_pass(g, bloom_up_names[i]);
        kiln_frame_graph_read(g, p, fr.bloom[i]);
        kiln_frame_graph_write(g, p, fr.bloom[i - 1]);
    }
    p = kiln_frame_graph_add_pass(g, "tonemap");
    kiln_frame_graph_read(g, p, fr.hdr);
    kiln_frame_graph_read(g, p, fr.bloom[0]);
    kiln_frame_graph_write(g, p, out);
    return fr;
}

/* The physical textures a frame uses: one entry per transient. */
static void frame_views(const kiln_frame_graph *g, const frame *fr, kiln_texture_view out[10]) {
    const kiln_fg_resource all[10] = {fr->depth, fr->ao_raw, fr->ao, fr->hdr, fr->bloom[0], fr->bloom[1],
                                      fr->bloom[2], fr->bloom[3], fr->bloom[4], fr->bloom[5]};
    for (int i = 0; i < 10; i++) out[i] = kiln_frame_graph_view_handle(g, all[i], NULL);
}

TEST(a_second_identical_frame_creates_no_textures) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view target, shadow;
    CHECK(backbuffer_make(f.res, 64, 64, &target));
    CHECK(backbuffer_make(f.res, 64, 64, &shadow));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    frame fr = declare_frame(g, &target, &shadow, 64, 64);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    uint32_t physical = kiln_frame_graph_physical_count(g);
    kiln_live_counts before = kiln_resources_live_counts(f.res);
    CHECK_EQ_INT(before.textures, 2 + physical);
    kiln_texture_view views[10], again[10];
    frame_views(g, &fr, views);

    kiln_frame_graph_reset(g);
    fr = declare_frame(g, &target, &shadow, 64, 64);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    kiln_live_counts after = kiln_resources_live_counts(f.res);
    CHECK_EQ_INT(after.textures, before.textures);
    CHECK_EQ_INT(after.texture_views, before.texture_views);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), physical);
    frame_views(g, &fr, again);
    for (int i = 0; i < 10; i++) CHECK_MSG(views[i].id && views[i].id == again[i].id, "transient %d moved", i);
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 1);
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &shadow);
    backbuffer_free(f.res, &target);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_resize_moves_to_new_textures_and_destroys_the_old_ones) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view target, shadow;
    CHECK(backbuffer_make(f.res, 64, 64, &target));
    CHECK(backbuffer_make(f.res, 64, 64, &shadow));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    frame fr = declare_frame(g, &target, &shadow, 128, 128);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    kiln_live_counts big = kiln_resources_live_counts(f.res);
    CHECK_EQ_INT(big.textures, 2 + kiln_frame_graph_physical_count(g));
    kiln_texture_view old_views[10], new_views[10];
    frame_views(g, &fr, old_views);
    CHECK_EQ_INT(wgpuTextureGetWidth(kiln_frame_graph_texture_of(g, fr.hdr, NULL)), 128);

    kiln_frame_graph_reset(g);
    fr = declare_frame(g, &target, &shadow, 64, 64);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    kiln_live_counts small = kiln_resources_live_counts(f.res);
    /* As many transients as before, so as many textures: the 128 px ones were destroyed. */
    CHECK_EQ_INT(small.textures, big.textures);
    CHECK_EQ_INT(small.texture_views, big.texture_views);
    CHECK_EQ_INT(small.textures, 2 + kiln_frame_graph_physical_count(g));
    CHECK_EQ_INT(wgpuTextureGetWidth(kiln_frame_graph_texture_of(g, fr.hdr, NULL)), 64);
    frame_views(g, &fr, new_views);
    /* depth, ao raw, ao and hdr changed size; bloom mip k at 64 px is mip k+1 at 128 px, whose
     * pooled texture is rightly taken over. */
    for (int i = 0; i < 4; i++)
        CHECK_MSG(new_views[i].id && new_views[i].id != old_views[i].id, "transient %d kept its view", i);
    for (int i = 4; i < 9; i++) CHECK_EQ_INT(new_views[i].id, old_views[i + 1].id);

    /* A frame that no longer uses AO gives its textures back. */
    kiln_frame_graph_reset(g);
    kiln_fg_resource out = import_backbuffer(g, &target);
    kiln_frame_graph_export(g, out);
    kiln_frame_graph_write(g, kiln_frame_graph_add_pass(g, "clear"), out);
    CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 0);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).textures, 2);
    CHECK_EQ_INT(kiln_resources_live_counts(f.res).texture_views, 2);
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &shadow);
    backbuffer_free(f.res, &target);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_steady_state_frame_allocates_nothing) {
#ifndef KILN_TEST_COUNTS_ALLOCATIONS
    SKIP("AddressSanitizer replaces malloc; allocation counting needs the plain build");
#else
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    caller_view target, shadow;
    CHECK(backbuffer_make(f.res, 64, 64, &target));
    CHECK(backbuffer_make(f.res, 64, 64, &shadow));
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);

    /* The counter sees allocations at all (called through a pointer so it stays a real call). */
    void *(*volatile allocate)(size_t) = malloc;
    alloc_count = 0;
    alloc_counting = true;
    void *probe = allocate(24);
    alloc_counting = false;
    free(probe);
    CHECK_EQ_INT(alloc_count, 1);

    for (int warm = 0; warm < 3; warm++) {
        kiln_frame_graph_reset(g);
        declare_frame(g, &target, &shadow, 64, 64);
        CHECK_MSG(kiln_frame_graph_compile(g, &err), "%s", err.message);
    }
    alloc_count = 0;
    alloc_counting = true;
    bool compiled = true;
    for (int i = 0; i < 10; i++) {
        kiln_frame_graph_reset(g);
        frame fr = declare_frame(g, &target, &shadow, 64, 64);
        compiled &= kiln_frame_graph_compile(g, &err);
        compiled &= kiln_frame_graph_view_of(g, fr.hdr, &err) != NULL;
    }
    alloc_counting = false;
    CHECK_MSG(compiled, "%s", err.message);
    CHECK_EQ_INT(alloc_count, 0);
    kiln_frame_graph_destroy(g);
    backbuffer_free(f.res, &shadow);
    backbuffer_free(f.res, &target);
    FIXTURE_CLOSE_CLEAN(f);
#endif
}

/* ---- lookup ------------------------------------------------------------------------------ */

TEST(find_returns_the_resource_declared_under_a_name) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(8, 8));
    kiln_fg_resource lists = kiln_frame_graph_create_external(g, "cluster lists");
    char copy[] = "cluster lists"; /* another pointer, same text */
    CHECK_EQ_INT(kiln_frame_graph_find(g, "hdr").index, hdr.index);
    CHECK_EQ_INT(kiln_frame_graph_find(g, copy).index, lists.index);
    CHECK_EQ_INT(kiln_frame_graph_find(g, "missing").index, 0);
    CHECK_EQ_INT(kiln_frame_graph_find(g, NULL).index, 0);
    kiln_frame_graph_reset(g);
    CHECK_EQ_INT(kiln_frame_graph_find(g, "hdr").index, 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(results_are_refused_before_compile) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_frame_graph *g = kiln_frame_graph_create(f.res, &err);
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(8, 8));
    CHECK(kiln_frame_graph_view_of(g, hdr, &err) == NULL);
    CHECK(strcmp(err.message, "frame graph: 'hdr' was asked for before the graph was compiled") == 0);
    CHECK(kiln_frame_graph_view_of(g, (kiln_fg_resource){0}, &err) == NULL);
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_HANDLE);
    CHECK(strcmp(err.message, "frame graph: invalid resource (index 0)") == 0);
    kiln_frame_graph_destroy(g);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(passes_declared_out_of_order_run_in_dependency_order),
          T(a_second_writer_waits_for_the_first_versions_readers),
          T(readers_declared_before_the_first_writer_read_its_version),
          T(a_reader_depends_on_the_most_recent_earlier_writer), T(external_resources_order_passes_but_have_no_view),
          T(a_pass_feeding_no_export_is_culled_and_drawn_dashed),
          T(graphviz_reports_the_full_length_and_truncates_safely), T(a_cycle_fails_compile_naming_two_passes_on_it),
          T(a_bad_resource_or_pass_fails_compile_naming_the_pass),
          T(reading_a_transient_no_pass_writes_fails_compile), T(a_transient_dawn_refuses_fails_compile_naming_it),
          T(transients_with_equal_descriptions_and_disjoint_lifetimes_share_a_texture),
          T(transients_with_different_descriptions_never_share),
          T(an_exported_transient_lives_to_the_end_of_the_frame),
          T(imported_views_are_returned_as_given_and_never_aliased), T(a_second_identical_frame_creates_no_textures),
          T(a_resize_moves_to_new_textures_and_destroys_the_old_ones), T(a_steady_state_frame_allocates_nothing),
          T(find_returns_the_resource_declared_under_a_name), T(results_are_refused_before_compile))
