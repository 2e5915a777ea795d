/* The frame graph without a GPU: dependency rules and ordering, culling, cycles, declaration
 * mistakes, lifetimes, aliasing and the texture pool across frames, derived load / store /
 * resolve, sub-resources, buffers, the DOT dump, a steady-state frame that allocates nothing and
 * a compile that gives the same result twice. Textures come from a no-op allocator that hands out
 * fake objects and counts what it was asked for. */
#include <stdint.h>

#include <kiln/graph.h>

#include "test.h"

/* ---- heap allocation counting ----------------------------------------------------------------
 * This executable replaces malloc and friends with thin wrappers over glibc's own entry points,
 * counting calls made on the measuring thread while `alloc_counting` is set. AddressSanitizer
 * interposes malloc itself, so under ASan the wrappers are left out and the test skips. */
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

/* ---- the no-op allocator ------------------------------------------------------------------- */

/* Hands out fake, distinct, never-dereferenced objects and counts calls. `refuse` names a
 * transient it fails for, as Dawn would for a bad description. */
typedef struct noop_allocator {
    uint32_t textures_created, textures_destroyed, views_created, views_destroyed;
    uint32_t next_id;
    uint32_t last_view_mip, last_view_layer;
    WGPUTextureView last_view;
    const char *refuse;
} noop_allocator;

static uintptr_t noop_next(noop_allocator *a) { return 0x10000u + 16u * ++a->next_id; }

static bool noop_create_texture(void *user, const char *name, const kiln_fg_texture_desc *desc, kiln_fg_texture *out,
                                kiln_error *err) {
    noop_allocator *a = user;
    (void)desc;
    if (a->refuse && name && strcmp(name, a->refuse) == 0)
        return kiln_error_set(err, KILN_ERR_GPU, "the no-op allocator refuses '%s'", name);
    a->textures_created++;
    *out = (kiln_fg_texture){.texture = {a->next_id + 1}, .raw_texture = (WGPUTexture)noop_next(a)};
    out->view = (kiln_texture_view){a->next_id + 1};
    out->raw_view = (WGPUTextureView)noop_next(a);
    return true;
}

static bool noop_create_view(void *user, const kiln_fg_texture *texture, uint32_t mip, uint32_t layer,
                             kiln_fg_view *out, kiln_error *err) {
    noop_allocator *a = user;
    (void)texture;
    (void)err;
    a->views_created++;
    *out = (kiln_fg_view){.view = {a->next_id + 1}, .raw_view = (WGPUTextureView)noop_next(a)};
    a->last_view = out->raw_view;
    a->last_view_mip = mip;
    a->last_view_layer = layer;
    return true;
}

static void noop_destroy_view(void *user, kiln_fg_view *view) {
    ((noop_allocator *)user)->views_destroyed++;
    *view = (kiln_fg_view){0};
}

static void noop_destroy_texture(void *user, kiln_fg_texture *texture) {
    ((noop_allocator *)user)->textures_destroyed++;
    *texture = (kiln_fg_texture){0};
}

/* A graph over a no-op allocator; closing it checks every pooled texture and view went back. */
typedef struct fg_fixture {
    noop_allocator alloc;
    kiln_frame_graph *g;
} fg_fixture;

static bool fixture_open(fg_fixture *f) {
    *f = (fg_fixture){0};
    kiln_fg_allocator a = {.user = &f->alloc, .create_texture = noop_create_texture,
                           .create_view = noop_create_view, .destroy_view = noop_destroy_view,
                           .destroy_texture = noop_destroy_texture};
    kiln_error err = {0};
    f->g = kiln_frame_graph_create(&a, &err);
    if (!f->g) fprintf(stderr, "kiln_frame_graph_create: %s\n", err.message);
    return f->g != NULL;
}

static bool fixture_close(fg_fixture *f) {
    kiln_frame_graph_destroy(f->g);
    f->g = NULL;
    bool balanced = f->alloc.textures_created == f->alloc.textures_destroyed &&
                    f->alloc.views_created == f->alloc.views_destroyed;
    if (!balanced)
        fprintf(stderr, "textures created %u destroyed %u, views created %u destroyed %u\n", f->alloc.textures_created,
                f->alloc.textures_destroyed, f->alloc.views_created, f->alloc.views_destroyed);
    return balanced;
}

#define FIXTURE_OPEN(f) CHECK(fixture_open(&(f)))
#define FIXTURE_CLOSE(f) CHECK(fixture_close(&(f)))
#define COMPILES(g) CHECK_MSG(kiln_frame_graph_compile((g), &err), "%s", err.message)

/* ---- helpers ------------------------------------------------------------------------------- */

static const WGPUColor black = {0, 0, 0, 1};

static kiln_fg_texture_desc hdr_desc(uint32_t w, uint32_t h) {
    return (kiln_fg_texture_desc){.width = w, .height = h, .format = WGPUTextureFormat_RGBA16Float};
}

static kiln_fg_texture_desc depth_desc(uint32_t w, uint32_t h) {
    return (kiln_fg_texture_desc){.width = w, .height = h, .format = WGPUTextureFormat_Depth32Float};
}

static kiln_fg_resource transient(kiln_frame_graph *g, const char *name, kiln_fg_texture_desc desc) {
    return kiln_frame_graph_create_transient(g, name, &desc);
}

/* Caller-owned objects stand in as fake pointers: the graph never looks behind them. */
#define FAKE_VIEW(n) ((WGPUTextureView)(uintptr_t)(0xb000u + 16u * (n)))
#define FAKE_TEXTURE(n) ((WGPUTexture)(uintptr_t)(0xc000u + 16u * (n)))

static const kiln_fg_texture_desc backbuffer_desc = {.width = 64, .height = 64, .format = WGPUTextureFormat_RGBA8Unorm};

/* An imported, exported target, as a swapchain frame is. */
static kiln_fg_resource backbuffer(kiln_frame_graph *g) {
    kiln_fg_resource r = kiln_frame_graph_import_view(g, "backbuffer", FAKE_VIEW(1), FAKE_TEXTURE(1), &backbuffer_desc);
    kiln_frame_graph_export(g, r);
    return r;
}

/* Compares the compiled order with the expected pass indices, printing both on a mismatch. */
static bool order_is(const kiln_frame_graph *g, const uint32_t *expected, uint32_t n) {
    uint32_t count;
    const uint32_t *order = kiln_frame_graph_order(g, &count);
    bool same = count == n;
    for (uint32_t i = 0; same && i < n; i++) same = order[i] == expected[i];
    if (!same) {
        fprintf(stderr, "order:");
        for (uint32_t i = 0; i < count; i++) fprintf(stderr, " '%s'", kiln_frame_graph_pass_name(g, order[i]));
        fprintf(stderr, "\nexpected:");
        for (uint32_t i = 0; i < n; i++) fprintf(stderr, " '%s'", kiln_frame_graph_pass_name(g, expected[i]));
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

static const char *load_name(WGPULoadOp op) {
    return op == WGPULoadOp_Clear ? "Clear" : op == WGPULoadOp_Load ? "Load" : "Undefined";
}

static const char *store_name(WGPUStoreOp op) {
    return op == WGPUStoreOp_Store ? "Store" : op == WGPUStoreOp_Discard ? "Discard" : "Undefined";
}

/* One expected attachment: the i-th attachment of `pass` is `resource`, with these operations
 * and resolve target (index 0: none). */
typedef struct attachment_row {
    const char *id;
    uint32_t pass, i;
    kiln_fg_resource resource;
    WGPULoadOp load;
    WGPUStoreOp store;
    kiln_fg_resource resolve;
} attachment_row;

static bool attachment_matches(const kiln_frame_graph *g, const attachment_row *row) {
    kiln_fg_attachment got[KILN_MAX_COLOR_ATTACHMENTS + 1];
    uint32_t n = kiln_frame_graph_attachments(g, row->pass, got, KILN_MAX_COLOR_ATTACHMENTS + 1);
    const char *pass = kiln_frame_graph_pass_name(g, row->pass);
    if (row->i >= n) {
        fprintf(stderr, "%s: pass '%s' has %u attachments, expected at least %u\n", row->id, pass, n, row->i + 1);
        return false;
    }
    const kiln_fg_attachment *a = &got[row->i];
    if (a->resource.index == row->resource.index && a->load == row->load && a->store == row->store &&
        a->resolve.index == row->resolve.index)
        return true;
    fprintf(stderr, "%s: pass '%s' attachment %u: resource %u %s/%s resolve %u, expected resource %u %s/%s resolve %u\n",
            row->id, pass, row->i, a->resource.index, load_name(a->load), store_name(a->store), a->resolve.index,
            row->resource.index, load_name(row->load), store_name(row->store), row->resolve.index);
    return false;
}

#define CHECK_ATTACHMENTS(g, rows)                                                           \
    do {                                                                                     \
        bool all_ = true;                                                                    \
        for (size_t r_ = 0; r_ < sizeof(rows) / sizeof(rows)[0]; r_++)                       \
            all_ &= attachment_matches((g), &(rows)[r_]);                                    \
        CHECK(all_);                                                                         \
    } while (0)

static const kiln_fg_resource none = {0};

/* ---- ordering ------------------------------------------------------------------------------ */

TEST(passes_declared_out_of_order_run_in_dependency_order) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource depth = transient(g, "depth", depth_desc(64, 64));
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(64, 64));
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, tonemap, hdr);
    kiln_frame_graph_color(g, tonemap, target, black);
    uint32_t prepass = kiln_frame_graph_add_pass(g, "depth prepass", NULL, NULL);
    kiln_frame_graph_depth(g, prepass, depth, 0, false);
    uint32_t forward = kiln_frame_graph_add_pass(g, "forward", NULL, NULL);
    kiln_frame_graph_depth(g, forward, depth, 0, true);
    kiln_frame_graph_color(g, forward, hdr, black);
    COMPILES(g);

    CHECK_ORDER(g, prepass, forward, tonemap);
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 0);
    CHECK_LIFETIME(g, depth, 0, 1);
    CHECK_LIFETIME(g, hdr, 1, 2);
    CHECK_LIFETIME(g, target, 2, 2);
    FIXTURE_CLOSE(f);
}

/* clear writes X, sample reads X (and Y, made by a pass declared last), overwrite writes X
 * again. Without the write-after-read edge the lowest-index-first sort would run overwrite
 * before sample, which would then read the second version. */
TEST(a_second_writer_waits_for_the_first_versions_readers) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource x = kiln_frame_graph_import_buffer(g, "x", (kiln_buffer){0});
    kiln_fg_resource y = kiln_frame_graph_import_buffer(g, "y", (kiln_buffer){0});
    kiln_fg_resource out = kiln_frame_graph_import_buffer(g, "out", (kiln_buffer){0});
    kiln_frame_graph_export(g, x);
    kiln_frame_graph_export(g, out);
    uint32_t clear = kiln_frame_graph_add_compute_pass(g, "clear", NULL, NULL);
    kiln_frame_graph_write(g, clear, x);
    uint32_t sample = kiln_frame_graph_add_compute_pass(g, "sample", NULL, NULL);
    kiln_frame_graph_read(g, sample, x);
    kiln_frame_graph_read(g, sample, y);
    kiln_frame_graph_write(g, sample, out);
    uint32_t overwrite = kiln_frame_graph_add_compute_pass(g, "overwrite", NULL, NULL);
    kiln_frame_graph_write(g, overwrite, x);
    uint32_t make_y = kiln_frame_graph_add_compute_pass(g, "make y", NULL, NULL);
    kiln_frame_graph_write(g, make_y, y);
    COMPILES(g);
    CHECK_ORDER(g, clear, make_y, sample, overwrite);
    FIXTURE_CLOSE(f);
}

/* "read early" is declared before any writer of X, so it reads the first writer's version: it
 * runs after "first write" and the second writer waits for it. */
TEST(readers_declared_before_the_first_writer_read_its_version) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource x = kiln_frame_graph_import_buffer(g, "x", (kiln_buffer){0});
    kiln_fg_resource y = kiln_frame_graph_import_buffer(g, "y", (kiln_buffer){0});
    kiln_fg_resource out = kiln_frame_graph_import_buffer(g, "out", (kiln_buffer){0});
    kiln_frame_graph_export(g, x);
    kiln_frame_graph_export(g, out);
    uint32_t early = kiln_frame_graph_add_compute_pass(g, "read early", NULL, NULL);
    kiln_frame_graph_read(g, early, x);
    kiln_frame_graph_read(g, early, y);
    kiln_frame_graph_write(g, early, out);
    uint32_t first = kiln_frame_graph_add_compute_pass(g, "first write", NULL, NULL);
    kiln_frame_graph_write(g, first, x);
    uint32_t second = kiln_frame_graph_add_compute_pass(g, "second write", NULL, NULL);
    kiln_frame_graph_write(g, second, x);
    uint32_t make_y = kiln_frame_graph_add_compute_pass(g, "make y", NULL, NULL);
    kiln_frame_graph_write(g, make_y, y);
    COMPILES(g);
    CHECK_ORDER(g, first, make_y, early, second);
    FIXTURE_CLOSE(f);
}

TEST(a_reader_depends_on_the_most_recent_earlier_writer) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(64, 64));
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque", NULL, NULL);
    kiln_frame_graph_color(g, opaque, hdr, black);
    uint32_t sky = kiln_frame_graph_add_pass(g, "sky", NULL, NULL);
    kiln_frame_graph_color(g, sky, hdr, black);
    uint32_t post = kiln_frame_graph_add_pass(g, "post", NULL, NULL);
    kiln_frame_graph_read(g, post, hdr);
    kiln_frame_graph_color(g, post, target, black);
    COMPILES(g);
    /* post reads sky's version, which is chained after opaque's: all three run. */
    CHECK_ORDER(g, opaque, sky, post);
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 0);
    FIXTURE_CLOSE(f);
}

/* ---- culling and DOT ----------------------------------------------------------------------- */

TEST(a_pass_feeding_no_export_is_culled_and_drawn_dashed) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource depth = transient(g, "depth", depth_desc(64, 64));
    kiln_fg_resource debug = transient(g, "debug", hdr_desc(64, 64));
    uint32_t prepass = kiln_frame_graph_add_pass(g, "depth prepass", NULL, NULL);
    kiln_frame_graph_depth(g, prepass, depth, 0, false);
    uint32_t debug_view = kiln_frame_graph_add_pass(g, "debug view", NULL, NULL);
    kiln_frame_graph_read(g, debug_view, depth);
    kiln_frame_graph_color(g, debug_view, debug, black);
    uint32_t forward = kiln_frame_graph_add_pass(g, "forward", NULL, NULL);
    kiln_frame_graph_read(g, forward, depth);
    kiln_frame_graph_color(g, forward, target, black);
    COMPILES(g);

    CHECK_ORDER(g, prepass, forward);
    CHECK(kiln_frame_graph_is_culled(g, debug_view));
    CHECK(!kiln_frame_graph_is_culled(g, prepass));
    CHECK(kiln_frame_graph_is_culled(g, 99));
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 1);
    CHECK_EQ_INT(kiln_frame_graph_attachments(g, debug_view, NULL, 0), 0);
    CHECK(!kiln_frame_graph_lifetime(g, debug, NULL, NULL));
    CHECK(kiln_frame_graph_view_of(g, debug, &err) == NULL);
    CHECK(strcmp(err.message,
                 "frame graph: transient 'debug' is used by no executed pass this frame, so it has no texture") == 0);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 1);
    CHECK_EQ_INT(f.alloc.textures_created, 1);

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
    CHECK_STR_CONTAINS(dot, "p0 -> r2 [label=\"clear\"];");
    CHECK_STR_CONTAINS(dot, "r2 -> p2;");
    CHECK_STR_CONTAINS(dot, "p1 -> r3 [style=dashed];");
    CHECK_STR_CONTAINS(dot, "p2 -> r1 [label=\"clear\"];");
    FIXTURE_CLOSE(f);
}

TEST(graphviz_reports_the_full_length_and_truncates_safely) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource out = kiln_frame_graph_import_buffer(g, "say \"hi\"", (kiln_buffer){0});
    kiln_frame_graph_export(g, out);
    kiln_frame_graph_write(g, kiln_frame_graph_add_compute_pass(g, "only", NULL, NULL), out);
    char before[1024];
    kiln_frame_graph_to_graphviz(g, before, sizeof before);
    CHECK_STR_CONTAINS(before, "p0 [shape=box, label=\"only\"];");
    COMPILES(g);
    size_t n = kiln_frame_graph_to_graphviz(g, NULL, 0);
    char full[1024], small[16];
    CHECK_EQ_INT(kiln_frame_graph_to_graphviz(g, full, sizeof full), n);
    CHECK_EQ_INT(strlen(full), n);
    CHECK_STR_CONTAINS(full, "label=\"say \\\"hi\\\"\\nbuffer\\n[0, 0]\"");
    CHECK_EQ_INT(kiln_frame_graph_to_graphviz(g, small, sizeof small), n);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
    CHECK(strncmp(small, full, sizeof small - 1) == 0);
    FIXTURE_CLOSE(f);
}

/* ---- declaration mistakes and compile errors ----------------------------------------------- */

static void declare_bad_read(kiln_frame_graph *g) {
    uint32_t p = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, p, (kiln_fg_resource){99});
    kiln_frame_graph_color(g, p, backbuffer(g), black);
}
static void declare_bad_write(kiln_frame_graph *g) {
    kiln_fg_resource target = backbuffer(g);
    uint32_t p = kiln_frame_graph_add_compute_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_write(g, p, (kiln_fg_resource){42});
    kiln_frame_graph_write(g, p, target);
}
static void declare_undeclared_pass(kiln_frame_graph *g) {
    kiln_fg_resource target = backbuffer(g);
    uint32_t p = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_color(g, p + 7, target, black);
}
static void declare_undeclared_pass_bad_resource(kiln_frame_graph *g) {
    kiln_frame_graph_read(g, 3, (kiln_fg_resource){42});
}
static void declare_bad_export(kiln_frame_graph *g) { kiln_frame_graph_export(g, (kiln_fg_resource){5}); }
static void declare_unwritten_read(kiln_frame_graph *g) {
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(8, 8));
    uint32_t p = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, p, hdr);
    kiln_frame_graph_color(g, p, backbuffer(g), black);
}
static void declare_sizeless(kiln_frame_graph *g) {
    kiln_fg_resource empty = kiln_frame_graph_create_transient(
        g, "empty", &(kiln_fg_texture_desc){.height = 8, .format = WGPUTextureFormat_RGBA8Unorm});
    kiln_frame_graph_export(g, empty);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "fill", NULL, NULL), empty, black);
}
static void declare_formatless(kiln_frame_graph *g) {
    kiln_fg_resource t = kiln_frame_graph_create_transient(g, "formless", &(kiln_fg_texture_desc){.width = 4, .height = 4});
    kiln_frame_graph_export(g, t);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "fill", NULL, NULL), t, black);
}
static void declare_buffer_attachment(kiln_frame_graph *g) {
    kiln_fg_resource lists = kiln_frame_graph_import_buffer(g, "cluster lists", (kiln_buffer){7});
    uint32_t p = kiln_frame_graph_add_pass(g, "forward", NULL, NULL);
    kiln_frame_graph_color(g, p, backbuffer(g), black);
    kiln_frame_graph_color(g, p, lists, black);
}
static void declare_compute_attachment(kiln_frame_graph *g) {
    kiln_fg_resource ao = transient(g, "ao", hdr_desc(8, 8));
    kiln_frame_graph_export(g, ao);
    kiln_frame_graph_color(g, kiln_frame_graph_add_compute_pass(g, "gtao", NULL, NULL), ao, black);
}
static const char *const color_names[KILN_MAX_COLOR_ATTACHMENTS + 1] = {"c0", "c1", "c2", "c3", "c4"};
static void declare_too_many_colors(kiln_frame_graph *g) {
    uint32_t p = kiln_frame_graph_add_pass(g, "gbuffer", NULL, NULL);
    for (int i = 0; i <= KILN_MAX_COLOR_ATTACHMENTS; i++) {
        kiln_fg_resource c = transient(g, color_names[i], hdr_desc(8, 8));
        kiln_frame_graph_export(g, c);
        kiln_frame_graph_color(g, p, c, black);
    }
}
static void declare_two_depths(kiln_frame_graph *g) {
    kiln_fg_resource d1 = transient(g, "depth", depth_desc(8, 8)), d2 = transient(g, "depth 2", depth_desc(8, 8));
    kiln_frame_graph_export(g, d1);
    uint32_t p = kiln_frame_graph_add_pass(g, "prepass", NULL, NULL);
    kiln_frame_graph_depth(g, p, d1, 0, false);
    kiln_frame_graph_depth(g, p, d2, 0, true);
}
static kiln_fg_texture_desc bloom_desc(void) {
    return (kiln_fg_texture_desc){.width = 8, .height = 8, .format = WGPUTextureFormat_RGBA16Float, .mip_levels = 2};
}
static void declare_mip_out_of_range(kiln_frame_graph *g) {
    kiln_frame_graph_subresource(g, transient(g, "bloom", bloom_desc()), 2, 0);
}
static void declare_layer_out_of_range(kiln_frame_graph *g) {
    kiln_fg_texture_desc cube = hdr_desc(8, 8);
    cube.layers = 6;
    kiln_frame_graph_subresource(g, transient(g, "cube", cube), 0, 6);
}
static void declare_subresource_of_import(kiln_frame_graph *g) { kiln_frame_graph_subresource(g, backbuffer(g), 0, 0); }
static void declare_subresource_of_subresource(kiln_frame_graph *g) {
    kiln_fg_resource bloom = transient(g, "bloom", bloom_desc());
    kiln_frame_graph_subresource(g, kiln_frame_graph_subresource(g, bloom, 1, 0), 0, 0);
}
static void declare_subresource_of_invalid(kiln_frame_graph *g) {
    kiln_frame_graph_subresource(g, (kiln_fg_resource){0}, 0, 0);
}
static void declare_resolve_of_single_sampled(kiln_frame_graph *g) {
    kiln_frame_graph_create_resolve_target(g, "resolved", transient(g, "hdr", hdr_desc(8, 8)));
}
static void declare_resolve_of_invalid(kiln_frame_graph *g) {
    kiln_frame_graph_create_resolve_target(g, "resolved", (kiln_fg_resource){9});
}
/* Declared first and stuck behind the cycle, but not on it: tonemap must not be named. */
static void declare_cycle(kiln_frame_graph *g) {
    kiln_fg_resource x = transient(g, "x", hdr_desc(8, 8)), y = transient(g, "y", hdr_desc(8, 8));
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, tonemap, x);
    kiln_frame_graph_color(g, tonemap, backbuffer(g), black);
    uint32_t blur_x = kiln_frame_graph_add_pass(g, "blur x", NULL, NULL);
    kiln_frame_graph_read(g, blur_x, x);
    kiln_frame_graph_color(g, blur_x, y, black);
    uint32_t blur_y = kiln_frame_graph_add_pass(g, "blur y", NULL, NULL);
    kiln_frame_graph_read(g, blur_y, y);
    kiln_frame_graph_color(g, blur_y, x, black);
}
/* The first mistake is the one reported. */
static void declare_two_mistakes(kiln_frame_graph *g) {
    declare_bad_export(g);
    declare_bad_read(g);
}
static void declare_refused_texture(kiln_frame_graph *g) {
    kiln_fg_resource t = transient(g, "refused", hdr_desc(8, 8));
    kiln_frame_graph_export(g, t);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "fill", NULL, NULL), t, black);
}

static const struct {
    const char *id;
    void (*declare)(kiln_frame_graph *g);
    int code;
    const char *message;
} mistakes[] = {
    {"graph-1.1", declare_bad_read, KILN_ERR_INVALID_HANDLE,
     "frame graph: pass 'tonemap' reads an invalid resource (index 99)"},
    {"graph-1.2", declare_bad_write, KILN_ERR_INVALID_HANDLE,
     "frame graph: pass 'tonemap' writes an invalid resource (index 42)"},
    {"graph-1.3", declare_undeclared_pass, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: undeclared pass 7 writes 'backbuffer' (passes declared this frame: 1)"},
    {"graph-1.4", declare_undeclared_pass_bad_resource, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: undeclared pass 3 reads resource 42 (passes declared this frame: 0)"},
    {"graph-1.5", declare_bad_export, KILN_ERR_INVALID_HANDLE, "frame graph: export of an invalid resource (index 5)"},
    {"graph-1.6", declare_unwritten_read, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: pass 'tonemap' reads transient 'hdr', which no pass writes"},
    {"graph-1.7", declare_sizeless, KILN_ERR_INVALID_ARGUMENT, "frame graph: transient 'empty' has size 0x8"},
    {"graph-1.8", declare_formatless, KILN_ERR_INVALID_ARGUMENT, "frame graph: transient 'formless' has no format"},
    {"graph-1.9", declare_buffer_attachment, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: pass 'forward' attaches buffer 'cluster lists'"},
    {"graph-1.10", declare_compute_attachment, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: compute pass 'gtao' attaches 'ao' (only render passes have attachments)"},
    {"graph-1.11", declare_too_many_colors, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: pass 'gbuffer' attaches 'c4' past its 4 colour attachments"},
    {"graph-1.12", declare_two_depths, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: pass 'prepass' attaches 'depth 2' as a second depth attachment"},
    {"graph-1.13", declare_mip_out_of_range, KILN_ERR_INVALID_ARGUMENT, "frame graph: mip 2 of 'bloom', which has 2"},
    {"graph-1.14", declare_layer_out_of_range, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: layer 6 of 'cube', which has 6"},
    {"graph-1.15", declare_subresource_of_import, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: sub-resource of 'backbuffer', which is not a transient texture"},
    {"graph-1.16", declare_subresource_of_subresource, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: sub-resource of 'bloom', which is not a transient texture"},
    {"graph-1.17", declare_subresource_of_invalid, KILN_ERR_INVALID_HANDLE,
     "frame graph: sub-resource of an invalid resource (index 0)"},
    {"graph-1.18", declare_resolve_of_single_sampled, KILN_ERR_INVALID_ARGUMENT,
     "frame graph: resolve target of 'hdr', which is not a multisampled transient"},
    {"graph-1.19", declare_resolve_of_invalid, KILN_ERR_INVALID_HANDLE,
     "frame graph: resolve target of an invalid resource (index 9)"},
    {"graph-1.20", declare_cycle, KILN_ERR_INVALID_ARGUMENT, "frame graph: cycle between passes 'blur x' and 'blur y'"},
    {"graph-1.21", declare_two_mistakes, KILN_ERR_INVALID_HANDLE,
     "frame graph: export of an invalid resource (index 5)"},
    {"graph-1.22", declare_refused_texture, KILN_ERR_GPU,
     "frame graph: transient 'refused' (8x8): the no-op allocator refuses 'refused'"},
};

TEST(each_declaration_mistake_fails_compile_with_its_message) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    f.alloc.refuse = "refused";
    bool all = true;
    for (size_t i = 0; i < sizeof mistakes / sizeof mistakes[0]; i++) {
        kiln_error err = {0};
        kiln_frame_graph_reset(f.g);
        mistakes[i].declare(f.g);
        bool compiled = kiln_frame_graph_compile(f.g, &err);
        uint32_t count = 1;
        kiln_frame_graph_order(f.g, &count);
        if (compiled || err.code != mistakes[i].code || strcmp(err.message, mistakes[i].message) != 0 || count != 0 ||
            kiln_frame_graph_physical_count(f.g) != 0) {
            fprintf(stderr, "%s: compiled %d, code %d \"%s\", order %u; expected code %d \"%s\"\n", mistakes[i].id,
                    compiled, err.code, err.message, count, mistakes[i].code, mistakes[i].message);
            all = false;
        }
    }
    CHECK(all);
    /* No failing compile made a texture. */
    CHECK_EQ_INT(f.alloc.textures_created, 0);
    FIXTURE_CLOSE(f);
}

TEST(reset_forgets_the_mistake) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    declare_bad_read(g);
    CHECK(!kiln_frame_graph_compile(g, &err));
    kiln_frame_graph_reset(g);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL), backbuffer(g), black);
    COMPILES(g);
    FIXTURE_CLOSE(f);
}

/* A failed compile leaves the pool as it was: the next good frame finds its texture again. */
TEST(a_refused_texture_leaves_the_pool_as_it_was) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    f.alloc.refuse = "refused";
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(8, 8));
    kiln_frame_graph_export(g, hdr);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "fill", NULL, NULL), hdr, black);
    COMPILES(g);
    WGPUTextureView view = kiln_frame_graph_view_of(g, hdr, &err);
    kiln_frame_graph_reset(g);
    hdr = transient(g, "hdr", hdr_desc(8, 8));
    kiln_frame_graph_export(g, hdr);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "fill", NULL, NULL), hdr, black);
    declare_refused_texture(g);
    CHECK(!kiln_frame_graph_compile(g, &err));
    CHECK(kiln_frame_graph_view_of(g, hdr, &err) == NULL);
    CHECK(strcmp(err.message, "frame graph: 'hdr' was asked for before the graph was compiled") == 0);
    CHECK_EQ_INT(f.alloc.textures_destroyed, 0);
    f.alloc.refuse = NULL;
    COMPILES(g);
    CHECK(kiln_frame_graph_view_of(g, hdr, &err) == view);
    FIXTURE_CLOSE(f);
}

TEST(execute_refuses_an_uncompiled_graph_and_a_render_pass_without_attachments) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_encoder enc = {0};
    kiln_fg_resource out = kiln_frame_graph_import_buffer(g, "out", (kiln_buffer){0});
    kiln_frame_graph_export(g, out);
    kiln_frame_graph_write(g, kiln_frame_graph_add_pass(g, "bare", NULL, NULL), out);
    CHECK(!kiln_frame_graph_execute(g, &enc, &err));
    CHECK(strcmp(err.message, "frame graph: execute before a successful compile") == 0);
    COMPILES(g);
    CHECK(!kiln_frame_graph_execute(g, &enc, &err));
    CHECK(strcmp(err.message, "frame graph: pass 'bare' is a render pass without attachments") == 0);
    FIXTURE_CLOSE(f);
}

/* ---- aliasing and the pool ----------------------------------------------------------------- */

/* a -> t1 -> b -> t2 -> c -> t3 -> d -> backbuffer: t1 lives [0, 1], t2 [1, 2], t3 [2, 3]. */
typedef struct chain {
    kiln_fg_resource t1, t2, t3;
} chain;

static chain declare_chain(kiln_frame_graph *g, const kiln_fg_texture_desc *d1, const kiln_fg_texture_desc *d2,
                           const kiln_fg_texture_desc *d3) {
    chain c = {
        .t1 = kiln_frame_graph_create_transient(g, "t1", d1),
        .t2 = kiln_frame_graph_create_transient(g, "t2", d2),
        .t3 = kiln_frame_graph_create_transient(g, "t3", d3),
    };
    kiln_fg_resource target = backbuffer(g);
    uint32_t a = kiln_frame_graph_add_pass(g, "a", NULL, NULL);
    kiln_frame_graph_color(g, a, c.t1, black);
    uint32_t b = kiln_frame_graph_add_pass(g, "b", NULL, NULL);
    kiln_frame_graph_read(g, b, c.t1);
    kiln_frame_graph_color(g, b, c.t2, black);
    uint32_t pc = kiln_frame_graph_add_pass(g, "c", NULL, NULL);
    kiln_frame_graph_read(g, pc, c.t2);
    kiln_frame_graph_color(g, pc, c.t3, black);
    uint32_t d = kiln_frame_graph_add_pass(g, "d", NULL, NULL);
    kiln_frame_graph_read(g, d, c.t3);
    kiln_frame_graph_color(g, d, target, black);
    return c;
}

TEST(transients_with_equal_descriptions_and_disjoint_lifetimes_share_a_texture) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_texture_desc d = hdr_desc(32, 32);
    chain c = declare_chain(g, &d, &d, &d);
    COMPILES(g);
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
    CHECK_EQ_INT(f.alloc.textures_created, 2);
    kiln_frame_graph_destroy(g);
    f.g = NULL;
    CHECK_EQ_INT(f.alloc.textures_destroyed, 2);
    FIXTURE_CLOSE(f);
}

TEST(transients_with_different_descriptions_never_share) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_texture_desc d = hdr_desc(32, 32), smaller = hdr_desc(16, 16), other_format = d, storage = d, msaa = d,
                         mips = d, layers = d;
    other_format.format = WGPUTextureFormat_RGBA8Unorm;
    storage.usage = WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding;
    msaa.sample_count = 4;
    mips.mip_levels = 2;
    layers.layers = 2;
    static const char *const ids[] = {"graph-2.1", "graph-2.2", "graph-2.3", "graph-2.4", "graph-2.5", "graph-2.6"};
    const struct { const char *what; const kiln_fg_texture_desc *t3; } cases[] = {
        {"size", &smaller}, {"format", &other_format}, {"usage", &storage},
        {"sample count", &msaa}, {"mip levels", &mips}, {"layers", &layers}};
    bool all = true;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_frame_graph_reset(g);
        chain c = declare_chain(g, &d, &d, cases[i].t3);
        COMPILES(g);
        if (kiln_frame_graph_physical_count(g) != 3 ||
            kiln_frame_graph_view_of(g, c.t1, NULL) == kiln_frame_graph_view_of(g, c.t3, NULL)) {
            fprintf(stderr, "%s: the %s differs, yet t1 and t3 share\n", ids[i], cases[i].what);
            all = false;
        }
    }
    CHECK(all);
    FIXTURE_CLOSE(f);
}

/* t1 is exported: it must still hold its contents after the frame, so t3 cannot take it. */
TEST(an_exported_transient_lives_to_the_end_of_the_frame) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_texture_desc d = hdr_desc(32, 32);
    chain c = declare_chain(g, &d, &d, &d);
    kiln_frame_graph_export(g, c.t1);
    COMPILES(g);
    CHECK_LIFETIME(g, c.t1, 0, 3);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 3);
    CHECK(kiln_frame_graph_view_of(g, c.t1, NULL) != kiln_frame_graph_view_of(g, c.t3, NULL));
    FIXTURE_CLOSE(f);
}

TEST(imported_views_are_returned_as_given_and_never_aliased) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    /* Same description as the transient below and a disjoint lifetime: a transient would share. */
    kiln_fg_resource shadows = kiln_frame_graph_import_view(g, "shadows", FAKE_VIEW(2), NULL, &backbuffer_desc);
    kiln_fg_resource ldr = kiln_frame_graph_create_transient(g, "ldr", &backbuffer_desc);
    uint32_t draw_shadows = kiln_frame_graph_add_pass(g, "shadows", NULL, NULL);
    kiln_frame_graph_color(g, draw_shadows, shadows, black);
    uint32_t lit = kiln_frame_graph_add_pass(g, "lit", NULL, NULL);
    kiln_frame_graph_read(g, lit, shadows);
    kiln_frame_graph_color(g, lit, target, black);
    uint32_t make_ldr = kiln_frame_graph_add_pass(g, "make ldr", NULL, NULL);
    kiln_frame_graph_read(g, make_ldr, target);
    kiln_frame_graph_color(g, make_ldr, ldr, black);
    uint32_t fxaa = kiln_frame_graph_add_pass(g, "fxaa", NULL, NULL);
    kiln_frame_graph_read(g, fxaa, ldr);
    kiln_frame_graph_color(g, fxaa, target, black);
    COMPILES(g);
    CHECK_ORDER(g, draw_shadows, lit, make_ldr, fxaa);
    CHECK_LIFETIME(g, shadows, 0, 1);
    CHECK_LIFETIME(g, ldr, 2, 3);
    CHECK(kiln_frame_graph_view_of(g, target, &err) == FAKE_VIEW(1));
    CHECK(kiln_frame_graph_texture_of(g, target, &err) == FAKE_TEXTURE(1));
    CHECK(kiln_frame_graph_view_of(g, shadows, &err) == FAKE_VIEW(2));
    CHECK(kiln_frame_graph_view_of(g, ldr, &err) != FAKE_VIEW(2));
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 1);
    CHECK(kiln_frame_graph_texture_of(g, shadows, &err) == NULL);
    CHECK(strcmp(err.message, "frame graph: 'shadows' was imported without its texture") == 0);
    CHECK(kiln_frame_graph_view_handle(g, shadows, &err).id == 0);
    CHECK(strcmp(err.message, "frame graph: 'shadows' is imported: its view is the caller's and has no pooled handle") ==
          0);
    kiln_frame_graph_destroy(g);
    f.g = NULL;
    /* Only the graph's own texture went back to the allocator. */
    CHECK_EQ_INT(f.alloc.textures_created, 1);
    CHECK_EQ_INT(f.alloc.textures_destroyed, 1);
    FIXTURE_CLOSE(f);
}

/* A frame shaped like the renderer's: imported shadow maps and target, depth, GTAO (compute),
 * cluster lists (a buffer), HDR, a six-mip bloom chain with names kept in a static table,
 * tonemap, and a debug pass that is culled. */
static const char *const bloom_names[6] = {"bloom 0", "bloom 1", "bloom 2", "bloom 3", "bloom 4", "bloom 5"};
static const char *const bloom_down_names[6] = {"bloom down 0", "bloom down 1", "bloom down 2",
                                                "bloom down 3", "bloom down 4", "bloom down 5"};
static const char *const bloom_up_names[6] = {"", "bloom up 1", "bloom up 2", "bloom up 3", "bloom up 4", "bloom up 5"};

typedef struct frame {
    kiln_fg_resource depth, ao_raw, ao, hdr, bloom[6];
} frame;

static frame declare_frame(kiln_frame_graph *g, uint32_t w, uint32_t h) {
    frame fr;
    kiln_fg_resource out = kiln_frame_graph_import_view(g, "target", FAKE_VIEW(1), FAKE_TEXTURE(1), &backbuffer_desc);
    kiln_frame_graph_export(g, out);
    kiln_fg_resource shadows = kiln_frame_graph_import_view(g, "cascades", FAKE_VIEW(2), FAKE_TEXTURE(2), NULL);
    kiln_fg_resource lists = kiln_frame_graph_import_buffer(g, "cluster lists", (kiln_buffer){3});
    fr.depth = transient(g, "depth", depth_desc(w, h));
    kiln_fg_texture_desc ao_desc = {.width = w, .height = h, .format = WGPUTextureFormat_RGBA8Unorm,
                                    .usage = WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding};
    fr.ao_raw = kiln_frame_graph_create_transient(g, "ao raw", &ao_desc);
    fr.ao = kiln_frame_graph_create_transient(g, "ao", &ao_desc);
    fr.hdr = transient(g, "hdr", hdr_desc(w, h));
    for (uint32_t i = 0; i < 6; i++)
        fr.bloom[i] = transient(g, bloom_names[i], hdr_desc(w >> (i + 1), h >> (i + 1)));
    kiln_fg_resource debug = transient(g, "debug", hdr_desc(w, h));

    uint32_t p = kiln_frame_graph_add_pass(g, "cascade shadows", NULL, NULL);
    kiln_frame_graph_depth(g, p, shadows, 0, false);
    p = kiln_frame_graph_add_pass(g, "depth prepass", NULL, NULL);
    kiln_frame_graph_depth(g, p, fr.depth, 0, false);
    p = kiln_frame_graph_add_compute_pass(g, "gtao", NULL, NULL);
    kiln_frame_graph_read(g, p, fr.depth);
    kiln_frame_graph_write(g, p, fr.ao_raw);
    p = kiln_frame_graph_add_compute_pass(g, "gtao blur", NULL, NULL);
    kiln_frame_graph_read(g, p, fr.ao_raw);
    kiln_frame_graph_write(g, p, fr.ao);
    p = kiln_frame_graph_add_compute_pass(g, "cluster light cull", NULL, NULL);
    kiln_frame_graph_write(g, p, lists);
    p = kiln_frame_graph_add_pass(g, "forward+ opaque", NULL, NULL);
    kiln_frame_graph_depth(g, p, fr.depth, 0, true);
    kiln_frame_graph_read(g, p, fr.ao);
    kiln_frame_graph_read(g, p, shadows);
    kiln_frame_graph_read(g, p, lists);
    kiln_frame_graph_color(g, p, fr.hdr, black);
    p = kiln_frame_graph_add_pass(g, "sky", NULL, NULL);
    kiln_frame_graph_depth(g, p, fr.depth, 0, true);
    kiln_frame_graph_color(g, p, fr.hdr, black);
    p = kiln_frame_graph_add_pass(g, "debug", NULL, NULL);
    kiln_frame_graph_read(g, p, fr.hdr);
    kiln_frame_graph_color(g, p, debug, black);
    for (uint32_t i = 0; i < 6; i++) {
        p = kiln_frame_graph_add_pass(g, bloom_down_names[i], NULL, NULL);
        kiln_frame_graph_read(g, p, i == 0 ? fr.hdr : fr.bloom[i - 1]);
        kiln_frame_graph_color(g, p, fr.bloom[i], black);
    }
    for (uint32_t i = 5; i >= 1; i--) {
        p = kiln_frame_graph_add_pass(g, bloom_up_names[i], NULL, NULL);
        kiln_frame_graph_read(g, p, fr.bloom[i]);
        kiln_frame_graph_color(g, p, fr.bloom[i - 1], black);
    }
    p = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, p, fr.hdr);
    kiln_frame_graph_read(g, p, fr.bloom[0]);
    kiln_frame_graph_color(g, p, out, black);
    return fr;
}

/* The pooled view handle of every transient of the frame. */
static void frame_views(const kiln_frame_graph *g, const frame *fr, kiln_texture_view out[10]) {
    const kiln_fg_resource all[10] = {fr->depth, fr->ao_raw, fr->ao, fr->hdr, fr->bloom[0], fr->bloom[1],
                                      fr->bloom[2], fr->bloom[3], fr->bloom[4], fr->bloom[5]};
    for (int i = 0; i < 10; i++) out[i] = kiln_frame_graph_view_handle(g, all[i], NULL);
}

TEST(a_second_identical_frame_creates_no_textures) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    frame fr = declare_frame(g, 64, 64);
    COMPILES(g);
    uint32_t physical = kiln_frame_graph_physical_count(g);
    CHECK_EQ_INT(f.alloc.textures_created, physical);
    kiln_texture_view views[10], again[10];
    frame_views(g, &fr, views);

    kiln_frame_graph_reset(g);
    fr = declare_frame(g, 64, 64);
    COMPILES(g);
    CHECK_EQ_INT(f.alloc.textures_created, physical);
    CHECK_EQ_INT(f.alloc.textures_destroyed, 0);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), physical);
    frame_views(g, &fr, again);
    for (int i = 0; i < 10; i++) CHECK_MSG(views[i].id && views[i].id == again[i].id, "transient %d moved", i);
    CHECK_EQ_INT(kiln_frame_graph_culled_count(g), 1);
    FIXTURE_CLOSE(f);
}

TEST(a_resize_moves_to_new_textures_and_destroys_the_old_ones) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    frame fr = declare_frame(g, 128, 128);
    COMPILES(g);
    uint32_t big = kiln_frame_graph_physical_count(g);
    CHECK_EQ_INT(f.alloc.textures_created, big);
    kiln_texture_view old_views[10], new_views[10];
    frame_views(g, &fr, old_views);

    kiln_frame_graph_reset(g);
    fr = declare_frame(g, 64, 64);
    COMPILES(g);
    /* As many transients as before, so as many textures alive: the 128 px ones were destroyed. */
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), big);
    CHECK_EQ_INT(f.alloc.textures_created - f.alloc.textures_destroyed, big);
    frame_views(g, &fr, new_views);
    /* depth, ao raw, ao and hdr changed size; bloom mip k at 64 px is mip k+1 at 128 px, whose
     * pooled texture is rightly taken over. */
    for (int i = 0; i < 4; i++)
        CHECK_MSG(new_views[i].id && new_views[i].id != old_views[i].id, "transient %d kept its view", i);
    for (int i = 4; i < 9; i++) CHECK_EQ_INT(new_views[i].id, old_views[i + 1].id);

    /* A frame that uses no transient gives every texture back. */
    kiln_frame_graph_reset(g);
    kiln_frame_graph_color(g, kiln_frame_graph_add_pass(g, "clear", NULL, NULL), backbuffer(g), black);
    COMPILES(g);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 0);
    CHECK_EQ_INT(f.alloc.textures_created, f.alloc.textures_destroyed);
    FIXTURE_CLOSE(f);
}

/* ---- derived load and store ---------------------------------------------------------------- */

TEST(the_graph_derives_load_and_store_from_the_frame) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource depth = transient(g, "depth", depth_desc(64, 64));
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(64, 64));
    kiln_fg_resource history = transient(g, "history", hdr_desc(64, 64));
    kiln_fg_resource scratch = transient(g, "scratch", hdr_desc(64, 64));
    kiln_frame_graph_export(g, history);
    uint32_t prepass = kiln_frame_graph_add_pass(g, "prepass", NULL, NULL);
    kiln_frame_graph_depth(g, prepass, depth, 0, false);
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque", NULL, NULL);
    kiln_frame_graph_depth(g, opaque, depth, 0, true); /* declared first, listed after the colours */
    kiln_frame_graph_color(g, opaque, hdr, black);
    uint32_t sky = kiln_frame_graph_add_pass(g, "sky", NULL, NULL);
    kiln_frame_graph_color(g, sky, hdr, black);
    kiln_frame_graph_depth(g, sky, depth, 0, false);
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, tonemap, hdr);
    kiln_frame_graph_color(g, tonemap, target, black);
    kiln_frame_graph_color(g, tonemap, history, black);
    kiln_frame_graph_color(g, tonemap, scratch, black);
    COMPILES(g);
    CHECK_ORDER(g, prepass, opaque, sky, tonemap);

    const attachment_row rows[] = {
        /* the first user clears; a later pass depth-tests against it, so it stores */
        {"graph-3.1", prepass, 0, depth, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        /* the first user of hdr clears it, sky loads it after, so it stores */
        {"graph-3.2", opaque, 0, hdr, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        /* read-only depth: neither loaded nor stored by the pass */
        {"graph-3.3", opaque, 1, depth, WGPULoadOp_Undefined, WGPUStoreOp_Undefined, none},
        /* a later user loads; tonemap reads hdr after sky, so it stores */
        {"graph-3.4", sky, 0, hdr, WGPULoadOp_Load, WGPUStoreOp_Store, none},
        /* the last user of a non-exported transient discards */
        {"graph-3.5", sky, 1, depth, WGPULoadOp_Load, WGPUStoreOp_Discard, none},
        /* an imported resource stores */
        {"graph-3.6", tonemap, 0, target, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        /* an exported transient stores */
        {"graph-3.7", tonemap, 1, history, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        /* a transient only one pass uses is cleared and discarded */
        {"graph-3.8", tonemap, 2, scratch, WGPULoadOp_Clear, WGPUStoreOp_Discard, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    kiln_fg_attachment a[KILN_MAX_COLOR_ATTACHMENTS + 1];
    CHECK_EQ_INT(kiln_frame_graph_attachments(g, opaque, a, 1), 2); /* the count even when max is smaller */
    CHECK(!a[0].depth && a[0].resource.index == hdr.index);
    CHECK_EQ_INT(kiln_frame_graph_attachments(g, opaque, a, 2), 2);
    CHECK(a[1].depth && a[1].read_only);
    CHECK_EQ_INT(kiln_frame_graph_attachments(g, tonemap, a, 4), 3);
    FIXTURE_CLOSE(f);
}

/* An imported view is cleared by its first user, as a transient is, and stored by every user. */
TEST(an_imported_view_is_cleared_by_its_first_user_and_always_stored) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = kiln_frame_graph_import_view(g, "target", FAKE_VIEW(1), NULL, NULL);
    kiln_fg_resource out = backbuffer(g);
    uint32_t first = kiln_frame_graph_add_pass(g, "first", NULL, NULL);
    kiln_frame_graph_color(g, first, target, black);
    uint32_t second = kiln_frame_graph_add_pass(g, "second", NULL, NULL);
    kiln_frame_graph_color(g, second, target, black);
    kiln_frame_graph_color(g, second, out, black);
    COMPILES(g);
    const attachment_row rows[] = {
        {"graph-3.9", first, 0, target, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        {"graph-3.10", second, 0, target, WGPULoadOp_Load, WGPUStoreOp_Store, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    FIXTURE_CLOSE(f);
}


/* A stated load overrides the derived one: Load at a first use keeps what the texture holds,
 * Clear at a later use clears whatever ran before (the program runtime's draw passes). */
TEST(a_stated_colour_load_overrides_the_derived_one) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = kiln_frame_graph_import_view(g, "target", FAKE_VIEW(1), NULL, NULL);
    kiln_frame_graph_export(g, target);
    uint32_t keep = kiln_frame_graph_add_pass(g, "keep", NULL, NULL);
    kiln_frame_graph_color_load(g, keep, target, black, WGPULoadOp_Load);
    uint32_t derived = kiln_frame_graph_add_pass(g, "derived", NULL, NULL);
    kiln_frame_graph_color_load(g, derived, target, black, WGPULoadOp_Undefined);
    uint32_t wipe = kiln_frame_graph_add_pass(g, "wipe", NULL, NULL);
    kiln_frame_graph_color_load(g, wipe, target, black, WGPULoadOp_Clear);
    COMPILES(g);
    const attachment_row rows[] = {
        {"graph-3.11", keep, 0, target, WGPULoadOp_Load, WGPUStoreOp_Store, none},
        {"graph-3.12", derived, 0, target, WGPULoadOp_Load, WGPUStoreOp_Store, none},
        {"graph-3.13", wipe, 0, target, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    FIXTURE_CLOSE(f);
}

/* ---- sub-resources ------------------------------------------------------------------------- */

/* A two-mip bloom chain in one texture: down 0 makes mip 0, down 1 reads it into mip 1, up 0
 * adds mip 1 back into mip 0, tonemap samples the whole texture. */
TEST(mips_of_one_transient_order_and_clear_independently) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource bloom = transient(g, "bloom", bloom_desc());
    kiln_fg_resource mip0 = kiln_frame_graph_subresource(g, bloom, 0, 0);
    kiln_fg_resource mip1 = kiln_frame_graph_subresource(g, bloom, 1, 0);
    uint32_t down0 = kiln_frame_graph_add_pass(g, "down 0", NULL, NULL);
    kiln_frame_graph_color(g, down0, mip0, black);
    uint32_t down1 = kiln_frame_graph_add_pass(g, "down 1", NULL, NULL);
    kiln_frame_graph_read(g, down1, mip0);
    kiln_frame_graph_color(g, down1, mip1, black);
    uint32_t up0 = kiln_frame_graph_add_pass(g, "up 0", NULL, NULL);
    kiln_frame_graph_read(g, up0, mip1);
    kiln_frame_graph_color(g, up0, mip0, black);
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, tonemap, bloom);
    kiln_frame_graph_color(g, tonemap, target, black);
    COMPILES(g);
    CHECK_ORDER(g, down0, down1, up0, tonemap);
    const attachment_row rows[] = {
        {"graph-4.1", down0, 0, mip0, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        /* mip 1's first user clears it although the texture was used before */
        {"graph-4.2", down1, 0, mip1, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        /* a later user of mip 0 loads; the whole texture is read later, so it stores */
        {"graph-4.3", up0, 0, mip0, WGPULoadOp_Load, WGPUStoreOp_Store, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    CHECK_LIFETIME(g, mip0, 0, 3);
    CHECK_LIFETIME(g, mip1, 1, 3); /* tonemap reads the whole, so every part */
    CHECK_LIFETIME(g, bloom, 0, 3);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 1);
    CHECK_EQ_INT(f.alloc.textures_created, 1);
    CHECK_EQ_INT(f.alloc.views_created, 2);
    FIXTURE_CLOSE(f);
}

/* Passes on different mips are independent: declaring the mip 1 pass first does not make it a
 * predecessor of the mip 0 pass it reads from. */
TEST(a_pass_on_one_mip_declared_first_runs_after_the_pass_making_the_mip_it_reads) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource bloom = transient(g, "bloom", bloom_desc());
    kiln_fg_resource mip0 = kiln_frame_graph_subresource(g, bloom, 0, 0);
    kiln_fg_resource mip1 = kiln_frame_graph_subresource(g, bloom, 1, 0);
    uint32_t down1 = kiln_frame_graph_add_pass(g, "down 1", NULL, NULL);
    kiln_frame_graph_read(g, down1, mip0);
    kiln_frame_graph_color(g, down1, mip1, black);
    uint32_t down0 = kiln_frame_graph_add_pass(g, "down 0", NULL, NULL);
    kiln_frame_graph_color(g, down0, mip0, black);
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, tonemap, mip1);
    kiln_frame_graph_color(g, tonemap, target, black);
    COMPILES(g);
    CHECK_ORDER(g, down0, down1, tonemap);
    FIXTURE_CLOSE(f);
}

TEST(writing_a_subresource_orders_a_reader_of_the_whole_after_it) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_texture_desc cube_desc = hdr_desc(8, 8);
    cube_desc.layers = 6;
    kiln_fg_resource cube = transient(g, "cube", cube_desc);
    uint32_t faces[6];
    static const char *const face_names[6] = {"+x", "-x", "+y", "-y", "+z", "-z"};
    /* The reader of the whole is declared first: each face's writer still runs before it. */
    uint32_t sky = kiln_frame_graph_add_pass(g, "sky", NULL, NULL);
    for (uint32_t i = 0; i < 6; i++) {
        faces[i] = kiln_frame_graph_add_pass(g, face_names[i], NULL, NULL);
        kiln_frame_graph_color(g, faces[i], kiln_frame_graph_subresource(g, cube, 0, i), black);
    }
    kiln_frame_graph_read(g, sky, cube);
    kiln_frame_graph_color(g, sky, target, black);
    COMPILES(g);
    CHECK_ORDER(g, faces[0], faces[1], faces[2], faces[3], faces[4], faces[5], sky);
    CHECK_EQ_INT(f.alloc.views_created, 6);
    /* Each face is cleared by its own writer and stored for the reader of the whole. */
    for (uint32_t i = 0; i < 6; i++) {
        kiln_fg_attachment a;
        CHECK_EQ_INT(kiln_frame_graph_attachments(g, faces[i], &a, 1), 1);
        CHECK_MSG(a.load == WGPULoadOp_Clear && a.store == WGPUStoreOp_Store, "face %u: %s/%s", i, load_name(a.load),
                  store_name(a.store));
    }
    FIXTURE_CLOSE(f);
}

TEST(writing_the_whole_then_reading_a_subresource_works) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_texture_desc d = bloom_desc();
    d.usage = WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding;
    kiln_fg_resource env = transient(g, "environment", d);
    kiln_fg_resource mip1 = kiln_frame_graph_subresource(g, env, 1, 0);
    uint32_t filter = kiln_frame_graph_add_compute_pass(g, "filter", NULL, NULL);
    kiln_frame_graph_write(g, filter, env);
    uint32_t sky = kiln_frame_graph_add_pass(g, "sky", NULL, NULL);
    kiln_frame_graph_read(g, sky, mip1);
    kiln_frame_graph_color(g, sky, target, black);
    COMPILES(g);
    CHECK_ORDER(g, filter, sky);
    CHECK_LIFETIME(g, mip1, 0, 1);
    CHECK_LIFETIME(g, env, 0, 1);
    /* The sub-resource's view is one of mip 1, not the texture's default view. */
    WGPUTextureView v = kiln_frame_graph_view_of(g, mip1, &err);
    CHECK(v == f.alloc.last_view);
    CHECK(v != kiln_frame_graph_view_of(g, env, &err));
    CHECK_EQ_INT(f.alloc.last_view_mip, 1);
    CHECK_EQ_INT(f.alloc.last_view_layer, 0);
    CHECK(kiln_frame_graph_texture_of(g, mip1, NULL) == kiln_frame_graph_texture_of(g, env, NULL));
    CHECK(kiln_frame_graph_view_handle(g, mip1, &err).id != 0);
    FIXTURE_CLOSE(f);
}

/* ---- resolve targets ----------------------------------------------------------------------- */

static kiln_fg_texture_desc msaa_desc(void) {
    kiln_fg_texture_desc d = hdr_desc(32, 32);
    d.sample_count = 4;
    return d;
}

TEST(the_writer_a_reader_of_the_resolve_target_depends_on_resolves) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource ms = transient(g, "hdr ms", msaa_desc());
    kiln_fg_resource resolved = kiln_frame_graph_create_resolve_target(g, "hdr", ms);
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque", NULL, NULL);
    kiln_frame_graph_color(g, opaque, ms, black);
    uint32_t transparent = kiln_frame_graph_add_pass(g, "transparent", NULL, NULL);
    kiln_frame_graph_color(g, transparent, ms, black);
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, tonemap, resolved);
    kiln_frame_graph_color(g, tonemap, target, black);
    COMPILES(g);
    CHECK_ORDER(g, opaque, transparent, tonemap);
    const attachment_row rows[] = {
        /* transparent loads the samples opaque stored; only the last writer resolves */
        {"graph-5.1", opaque, 0, ms, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
        /* the samples are discarded: no later pass uses them */
        {"graph-5.2", transparent, 0, ms, WGPULoadOp_Load, WGPUStoreOp_Discard, resolved},
    };
    CHECK_ATTACHMENTS(g, rows);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 2);
    CHECK(kiln_frame_graph_view_of(g, resolved, &err) != NULL);
    char dot[4096];
    kiln_frame_graph_to_graphviz(g, dot, sizeof dot);
    CHECK_STR_CONTAINS(dot, "p1 -> r3 [style=dotted, label=\"resolve\"];");
    CHECK(strstr(dot, "p0 -> r3 [style=dotted") == NULL);
    FIXTURE_CLOSE(f);
}

/* The samples are kept when a pass after the resolving one loads them again. */
TEST(samples_are_stored_when_a_later_pass_uses_them) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource ms = transient(g, "hdr ms", msaa_desc());
    kiln_fg_resource resolved = kiln_frame_graph_create_resolve_target(g, "hdr", ms);
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque", NULL, NULL);
    kiln_frame_graph_color(g, opaque, ms, black);
    uint32_t ssr = kiln_frame_graph_add_pass(g, "ssr", NULL, NULL);
    kiln_frame_graph_read(g, ssr, resolved);
    kiln_frame_graph_color(g, ssr, target, black);
    uint32_t transparent = kiln_frame_graph_add_pass(g, "transparent", NULL, NULL);
    kiln_frame_graph_color(g, transparent, ms, black);
    kiln_frame_graph_color(g, transparent, target, black);
    COMPILES(g);
    CHECK_ORDER(g, opaque, ssr, transparent);
    const attachment_row rows[] = {
        {"graph-5.3", opaque, 0, ms, WGPULoadOp_Clear, WGPUStoreOp_Store, resolved},
        /* nothing reads the resolve target after transparent: it does not resolve */
        {"graph-5.4", transparent, 0, ms, WGPULoadOp_Load, WGPUStoreOp_Discard, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    FIXTURE_CLOSE(f);
}

/* An exported resolve target is needed after the frame: its last writer resolves into it. */
TEST(an_exported_resolve_target_is_resolved_by_the_last_writer) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource ms = transient(g, "hdr ms", msaa_desc());
    kiln_fg_resource resolved = kiln_frame_graph_create_resolve_target(g, "hdr", ms);
    kiln_frame_graph_export(g, resolved);
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque", NULL, NULL);
    kiln_frame_graph_color(g, opaque, ms, black);
    COMPILES(g);
    CHECK_ORDER(g, opaque);
    const attachment_row rows[] = {
        {"graph-5.5", opaque, 0, ms, WGPULoadOp_Clear, WGPUStoreOp_Discard, resolved},
    };
    CHECK_ATTACHMENTS(g, rows);
    FIXTURE_CLOSE(f);
}

/* A resolve target whose only reader is culled is neither allocated nor resolved into. */
TEST(a_resolve_target_read_only_by_culled_passes_gets_no_texture) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource ms = transient(g, "hdr ms", msaa_desc());
    kiln_fg_resource resolved = kiln_frame_graph_create_resolve_target(g, "hdr", ms);
    kiln_fg_resource unused = transient(g, "unused", hdr_desc(64, 64));
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque", NULL, NULL);
    kiln_frame_graph_color(g, opaque, ms, black);
    kiln_frame_graph_color(g, opaque, target, black);
    uint32_t debug = kiln_frame_graph_add_pass(g, "debug view", NULL, NULL); /* feeds nothing exported */
    kiln_frame_graph_read(g, debug, resolved);
    kiln_frame_graph_color(g, debug, unused, black);
    COMPILES(g);
    CHECK_ORDER(g, opaque);
    CHECK(kiln_frame_graph_is_culled(g, debug));
    CHECK(!kiln_frame_graph_lifetime(g, resolved, NULL, NULL));
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 1); /* the samples only */
    const attachment_row rows[] = {
        {"graph-5.6", opaque, 0, ms, WGPULoadOp_Clear, WGPUStoreOp_Discard, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    FIXTURE_CLOSE(f);
}

/* Asking twice for one mip, or twice for one resolve target, names the same resource, so two
 * features that each take a handle to it order and keep the same passes. */
TEST(a_second_handle_to_the_same_part_is_the_same_resource) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_texture_desc two_mips = hdr_desc(64, 64);
    two_mips.mip_levels = 2;
    kiln_fg_resource bloom = transient(g, "bloom", two_mips);
    kiln_fg_resource down_mip1 = kiln_frame_graph_subresource(g, bloom, 1, 0);
    kiln_fg_resource up_mip1 = kiln_frame_graph_subresource(g, bloom, 1, 0);
    kiln_fg_resource ms = transient(g, "hdr ms", msaa_desc());
    CHECK_EQ_INT(down_mip1.index, up_mip1.index);
    CHECK_EQ_INT(kiln_frame_graph_create_resolve_target(g, "hdr", ms).index,
                 kiln_frame_graph_create_resolve_target(g, "hdr again", ms).index);
    uint32_t down = kiln_frame_graph_add_pass(g, "down", NULL, NULL);
    kiln_frame_graph_color(g, down, down_mip1, black);
    uint32_t up = kiln_frame_graph_add_pass(g, "up", NULL, NULL);
    kiln_frame_graph_read(g, up, up_mip1);
    kiln_frame_graph_color(g, up, target, black);
    COMPILES(g);
    CHECK_ORDER(g, down, up);
    const attachment_row rows[] = {
        {"graph-4.4", down, 0, down_mip1, WGPULoadOp_Clear, WGPUStoreOp_Store, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    FIXTURE_CLOSE(f);
}

/* Passes declared after a compile join the graph as if declared before it: the accesses the
 * compile derived are dropped and derived again, never taken for declared ones. */
TEST(declaring_after_a_compile_derives_the_graph_anew) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource ms = transient(g, "hdr ms", msaa_desc());
    kiln_fg_resource resolved = kiln_frame_graph_create_resolve_target(g, "hdr", ms);
    uint32_t opaque = kiln_frame_graph_add_pass(g, "opaque", NULL, NULL);
    kiln_frame_graph_color(g, opaque, ms, black);
    uint32_t tonemap = kiln_frame_graph_add_pass(g, "tonemap", NULL, NULL);
    kiln_frame_graph_read(g, tonemap, resolved);
    kiln_frame_graph_color(g, tonemap, target, black);
    COMPILES(g);
    char before[4096];
    kiln_frame_graph_to_graphviz(g, before, sizeof before);
    uint32_t overlay = kiln_frame_graph_add_pass(g, "overlay", NULL, NULL);
    kiln_frame_graph_color(g, overlay, target, black);
    COMPILES(g);
    CHECK_ORDER(g, opaque, tonemap, overlay);
    char after[4096];
    kiln_frame_graph_to_graphviz(g, after, sizeof after);
    /* the resolve stays a derived (dotted) write, not a declared one */
    CHECK(strstr(after, "p0 -> r3;") == NULL);
    CHECK_STR_CONTAINS(after, "p0 -> r3 [style=dotted, label=\"resolve\"];");
    const attachment_row rows[] = {
        {"graph-5.7", opaque, 0, ms, WGPULoadOp_Clear, WGPUStoreOp_Discard, resolved},
        {"graph-3.12", overlay, 0, target, WGPULoadOp_Load, WGPUStoreOp_Store, none},
    };
    CHECK_ATTACHMENTS(g, rows);
    FIXTURE_CLOSE(f);
}

/* ---- buffers ------------------------------------------------------------------------------- */

TEST(a_buffers_writer_is_kept_only_while_a_kept_pass_reads_it) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    static const char *const ids[] = {"graph-6.1", "graph-6.2", "graph-6.3"};
    /* forward reads the lists / forward does not / only a culled debug pass reads them */
    for (int row = 0; row < 3; row++) {
        kiln_frame_graph_reset(g);
        kiln_fg_resource target = backbuffer(g);
        kiln_fg_resource lists = kiln_frame_graph_import_buffer(g, "cluster lists", (kiln_buffer){7});
        kiln_fg_resource debug = transient(g, "debug", hdr_desc(8, 8));
        uint32_t cull = kiln_frame_graph_add_compute_pass(g, "cluster light cull", NULL, NULL);
        kiln_frame_graph_write(g, cull, lists);
        uint32_t forward = kiln_frame_graph_add_pass(g, "forward", NULL, NULL);
        if (row == 0) kiln_frame_graph_read(g, forward, lists);
        kiln_frame_graph_color(g, forward, target, black);
        uint32_t heatmap = kiln_frame_graph_add_pass(g, "light heatmap", NULL, NULL);
        if (row == 2) kiln_frame_graph_read(g, heatmap, lists);
        kiln_frame_graph_color(g, heatmap, debug, black);
        COMPILES(g);
        bool kept = !kiln_frame_graph_is_culled(g, cull);
        CHECK_MSG(kept == (row == 0), "%s: the light cull is %s", ids[row], kept ? "kept" : "culled");
        CHECK_MSG(kiln_frame_graph_is_culled(g, heatmap), "%s: the heatmap is kept", ids[row]);
        if (row == 0) CHECK_LIFETIME(g, lists, 0, 1);
        else CHECK_MSG(!kiln_frame_graph_lifetime(g, lists, NULL, NULL), "%s: the lists are used", ids[row]);
    }
    FIXTURE_CLOSE(f);
}

TEST(a_buffer_has_no_texture_and_is_handed_back_to_its_reader) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource target = backbuffer(g);
    kiln_fg_resource lists = kiln_frame_graph_import_buffer(g, "cluster lists", (kiln_buffer){7});
    uint32_t forward = kiln_frame_graph_add_pass(g, "forward", NULL, NULL);
    kiln_frame_graph_read(g, forward, lists);
    kiln_frame_graph_color(g, forward, target, black);
    uint32_t cull = kiln_frame_graph_add_compute_pass(g, "cluster light cull", NULL, NULL);
    kiln_frame_graph_write(g, cull, lists);
    COMPILES(g);
    CHECK_ORDER(g, cull, forward);
    CHECK(kiln_frame_graph_view_of(g, lists, &err) == NULL);
    CHECK(strcmp(err.message, "frame graph: 'cluster lists' is a buffer and has no texture") == 0);
    CHECK(kiln_frame_graph_texture_of(g, lists, NULL) == NULL);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 0);
    kiln_fg_context ctx = {.graph = g, .pass = forward, .name = "forward"};
    CHECK_EQ_INT(kiln_fg_context_buffer(&ctx, lists).id, 7);
    CHECK_EQ_INT(ctx.error.code, 0);
    CHECK(kiln_fg_context_view(&ctx, target) == FAKE_VIEW(1));
    CHECK_EQ_INT(kiln_fg_context_buffer(&ctx, target).id, 0);
    CHECK(strcmp(ctx.error.message, "resource 1 is not a buffer") == 0);
    FIXTURE_CLOSE(f);
}

/* ---- the steady state and repeatability ---------------------------------------------------- */

/* The renderer's frame plus what it does not show: an MSAA target with its resolve target and a
 * two-mip texture drawn mip by mip. */
static void declare_steady_frame(kiln_frame_graph *g) {
    declare_frame(g, 64, 64);
    kiln_fg_resource out = kiln_frame_graph_find(g, "target");
    kiln_fg_resource ms = transient(g, "hdr ms", msaa_desc());
    kiln_fg_resource resolved = kiln_frame_graph_create_resolve_target(g, "hdr resolved", ms);
    kiln_fg_resource mips = transient(g, "chain", bloom_desc());
    kiln_fg_resource mip0 = kiln_frame_graph_subresource(g, mips, 0, 0);
    kiln_fg_resource mip1 = kiln_frame_graph_subresource(g, mips, 1, 0);
    uint32_t p = kiln_frame_graph_add_pass(g, "msaa forward", NULL, NULL);
    kiln_frame_graph_color(g, p, ms, black);
    p = kiln_frame_graph_add_pass(g, "chain 0", NULL, NULL);
    kiln_frame_graph_read(g, p, resolved);
    kiln_frame_graph_color(g, p, mip0, black);
    p = kiln_frame_graph_add_pass(g, "chain 1", NULL, NULL);
    kiln_frame_graph_read(g, p, mip0);
    kiln_frame_graph_color(g, p, mip1, black);
    p = kiln_frame_graph_add_pass(g, "composite", NULL, NULL);
    kiln_frame_graph_read(g, p, mips);
    kiln_frame_graph_color(g, p, out, black);
}

TEST(a_steady_state_frame_allocates_nothing) {
#ifndef KILN_TEST_COUNTS_ALLOCATIONS
    SKIP("AddressSanitizer replaces malloc; allocation counting needs the plain build");
#else
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};

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
        declare_steady_frame(g);
        COMPILES(g);
    }
    uint32_t created = f.alloc.textures_created, views = f.alloc.views_created;
    alloc_count = 0;
    alloc_counting = true;
    bool compiled = true;
    for (int i = 0; i < 10; i++) {
        kiln_frame_graph_reset(g);
        declare_steady_frame(g);
        compiled &= kiln_frame_graph_compile(g, &err);
        compiled &= kiln_frame_graph_view_of(g, kiln_frame_graph_find(g, "hdr"), &err) != NULL;
        kiln_fg_attachment a[KILN_MAX_COLOR_ATTACHMENTS + 1];
        compiled &= kiln_frame_graph_attachments(g, kiln_frame_graph_pass_count(g) - 1, a, 5) == 1;
    }
    alloc_counting = false;
    CHECK_MSG(compiled, "%s", err.message);
    CHECK_EQ_INT(alloc_count, 0);
    CHECK_EQ_INT(f.alloc.textures_created, created);
    CHECK_EQ_INT(f.alloc.views_created, views);
    CHECK_EQ_INT(f.alloc.textures_destroyed, 0);
    FIXTURE_CLOSE(f);
#endif
}

/* Everything a compile produces, as text: the DOT dump shows order, culling, lifetimes, physical
 * textures, clears and resolves; the attachment list adds store. */
static void compiled_text(const kiln_frame_graph *g, char *out, size_t size) {
    size_t n = kiln_frame_graph_to_graphviz(g, out, size);
    for (uint32_t p = 0; p < kiln_frame_graph_pass_count(g) && n < size; p++) {
        kiln_fg_attachment a[KILN_MAX_COLOR_ATTACHMENTS + 1];
        uint32_t count = kiln_frame_graph_attachments(g, p, a, KILN_MAX_COLOR_ATTACHMENTS + 1);
        for (uint32_t i = 0; i < count && n < size; i++)
            n += (size_t)snprintf(out + n, size - n, "pass %u attachment %u: r%u %s/%s resolve r%u\n", p, i,
                                  a[i].resource.index, load_name(a[i].load), store_name(a[i].store),
                                  a[i].resolve.index);
    }
}

TEST(compiling_the_same_declaration_twice_gives_the_same_result) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    declare_steady_frame(g);
    COMPILES(g);
    static char first[32768], second[32768];
    compiled_text(g, first, sizeof first);
    uint32_t physical = kiln_frame_graph_physical_count(g), created = f.alloc.textures_created;
    COMPILES(g);
    compiled_text(g, second, sizeof second);
    CHECK_MSG(strcmp(first, second) == 0, "first:\n%s\nsecond:\n%s", first, second);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), physical);
    CHECK_EQ_INT(f.alloc.textures_created, created);
    CHECK_STR_CONTAINS(first, "resolve");
    FIXTURE_CLOSE(f);
}

/* ---- lookup -------------------------------------------------------------------------------- */

TEST(find_returns_the_resource_declared_under_a_name) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(8, 8));
    kiln_fg_resource lists = kiln_frame_graph_import_buffer(g, "cluster lists", (kiln_buffer){0});
    char copy[] = "cluster lists"; /* another pointer, same text */
    CHECK_EQ_INT(kiln_frame_graph_find(g, "hdr").index, hdr.index);
    CHECK_EQ_INT(kiln_frame_graph_find(g, copy).index, lists.index);
    CHECK_EQ_INT(kiln_frame_graph_find(g, "missing").index, 0);
    CHECK_EQ_INT(kiln_frame_graph_find(g, NULL).index, 0);
    CHECK(kiln_frame_graph_pass_name(g, 0) == NULL);
    kiln_frame_graph_reset(g);
    CHECK_EQ_INT(kiln_frame_graph_find(g, "hdr").index, 0);
    FIXTURE_CLOSE(f);
}

TEST(results_are_refused_before_compile) {
    fg_fixture f;
    FIXTURE_OPEN(f);
    kiln_frame_graph *g = f.g;
    kiln_error err = {0};
    kiln_fg_resource hdr = transient(g, "hdr", hdr_desc(8, 8));
    CHECK(kiln_frame_graph_view_of(g, hdr, &err) == NULL);
    CHECK(strcmp(err.message, "frame graph: 'hdr' was asked for before the graph was compiled") == 0);
    CHECK(kiln_frame_graph_view_of(g, (kiln_fg_resource){0}, &err) == NULL);
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_HANDLE);
    CHECK(strcmp(err.message, "frame graph: invalid resource (index 0)") == 0);
    uint32_t count = 1;
    kiln_frame_graph_order(g, &count);
    CHECK_EQ_INT(count, 0);
    CHECK_EQ_INT(kiln_frame_graph_physical_count(g), 0);
    FIXTURE_CLOSE(f);
}

TEST(create_refuses_an_allocator_missing_a_function) {
    kiln_error err = {0};
    kiln_fg_allocator a = {.create_texture = noop_create_texture, .create_view = noop_create_view,
                           .destroy_view = noop_destroy_view};
    CHECK(kiln_frame_graph_create(&a, &err) == NULL);
    CHECK(strcmp(err.message, "frame graph: the allocator is missing a function") == 0);
    CHECK(kiln_frame_graph_create(NULL, &err) == NULL);
    kiln_frame_graph_destroy(NULL);
}

TEST_MAIN(T(passes_declared_out_of_order_run_in_dependency_order), T(a_stated_colour_load_overrides_the_derived_one),
          T(a_second_writer_waits_for_the_first_versions_readers),
          T(readers_declared_before_the_first_writer_read_its_version),
          T(a_reader_depends_on_the_most_recent_earlier_writer),
          T(a_pass_feeding_no_export_is_culled_and_drawn_dashed),
          T(graphviz_reports_the_full_length_and_truncates_safely),
          T(each_declaration_mistake_fails_compile_with_its_message), T(reset_forgets_the_mistake),
          T(a_refused_texture_leaves_the_pool_as_it_was),
          T(execute_refuses_an_uncompiled_graph_and_a_render_pass_without_attachments),
          T(transients_with_equal_descriptions_and_disjoint_lifetimes_share_a_texture),
          T(transients_with_different_descriptions_never_share),
          T(an_exported_transient_lives_to_the_end_of_the_frame),
          T(imported_views_are_returned_as_given_and_never_aliased), T(a_second_identical_frame_creates_no_textures),
          T(a_resize_moves_to_new_textures_and_destroys_the_old_ones),
          T(the_graph_derives_load_and_store_from_the_frame),
          T(an_imported_view_is_cleared_by_its_first_user_and_always_stored),
          T(mips_of_one_transient_order_and_clear_independently),
          T(a_pass_on_one_mip_declared_first_runs_after_the_pass_making_the_mip_it_reads),
          T(writing_a_subresource_orders_a_reader_of_the_whole_after_it),
          T(writing_the_whole_then_reading_a_subresource_works),
          T(the_writer_a_reader_of_the_resolve_target_depends_on_resolves),
          T(samples_are_stored_when_a_later_pass_uses_them),
          T(an_exported_resolve_target_is_resolved_by_the_last_writer), T(a_resolve_target_read_only_by_culled_passes_gets_no_texture),
          T(a_second_handle_to_the_same_part_is_the_same_resource), T(declaring_after_a_compile_derives_the_graph_anew),
          T(a_buffers_writer_is_kept_only_while_a_kept_pass_reads_it),
          T(a_buffer_has_no_texture_and_is_handed_back_to_its_reader), T(a_steady_state_frame_allocates_nothing),
          T(compiling_the_same_declaration_twice_gives_the_same_result),
          T(find_returns_the_resource_declared_under_a_name), T(results_are_refused_before_compile),
          T(create_refuses_an_allocator_missing_a_function))
