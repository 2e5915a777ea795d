/* kiln/graph: the frame graph. Passes, the resources they read and write, and the code that
 * records each pass, declared from scratch every frame; compiled into an execution order, a set
 * of culled passes, resource lifetimes, derived attachment operations and pooled physical
 * textures shared by transients whose lifetimes do not overlap; then executed into one encoder.
 *
 * A frame:
 *     kiln_frame_graph_reset(g);
 *     kiln_fg_resource hdr = kiln_frame_graph_create_transient(g, "hdr", &hdr_desc);
 *     uint32_t p = kiln_frame_graph_add_pass(g, "sky", record_sky, sky_feature);
 *     kiln_frame_graph_color(g, p, hdr, (WGPUColor){0, 0, 0, 1});
 *     ...
 *     kiln_frame_graph_compile(g, &err) && kiln_frame_graph_execute(g, &encoder, &err);
 * The graph begins every executed pass (a render pass with the attachments it declared, or a
 * compute pass), calls its record function with a kiln_fg_context, and ends it.
 *
 * What the graph derives, so no pass decides it by hand:
 *   load   an attachment is cleared (to the value given when it was declared) by the first
 *          executed pass that uses the resource, and loaded by every later one;
 *   store  an attachment whose contents no later executed pass uses, and that is neither
 *          exported nor imported, is discarded;
 *   resolve  a resolve target (kiln_frame_graph_create_resolve_target) of a multisampled
 *          transient is written by the writer a reader of it depends on: that pass resolves
 *          into it, once, and its samples are kept only when a later pass uses them.
 *
 * Sub-resources: kiln_frame_graph_subresource names one mip level and one array layer (or cube
 * face) of a transient, so a bloom chain, shadow cascades or an environment's mips are one texture.
 * Each sub-resource orders, clears and is kept on its own, so writers of different parts never
 * wait for each other; a read of the whole texture is a read of every part (it waits for, and
 * keeps, each part's writer), and a write of the whole is a write of every part.
 *
 * Physical textures come from a kiln_fg_allocator: kiln_fg_gpu_allocator makes them in
 * kiln_resources; tests of ordering and culling use an allocator that makes nothing, and need no
 * device.
 *
 * Ownership:
 *   kiln_frame_graph  created by kiln_frame_graph_create, destroyed by _destroy, which releases
 *                     the pooled textures through the allocator (whose user data must outlive
 *                     the graph).
 *   names, user data  every name and record user pointer passed in is kept, not copied, until the
 *                     next _reset: string literals or persistent fields.
 *   imports           imported views and buffers stay the caller's: never aliased, never released.
 *
 * Steady state: _reset keeps every array, so declaring, compiling and executing the same frame
 * again allocates nothing on the heap and creates no GPU objects. Storage grows (by doubling) only
 * when a frame declares more than any frame before it.
 *
 * Errors: declaring never fails loudly. A bad pass index or resource handle (or running out of
 * memory while declaring) is remembered and reported by _compile. Errors while a pass records are
 * sticky: the pass's render or compute pass skips every command after the first failure
 * (kiln_render_pass.failed), and _execute reports the first error with the pass's name. Main-thread
 * only, like the rest of kiln. */
#ifndef KILN_GRAPH_H
#define KILN_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/gfx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A resource declared this frame. index 0 is the invalid resource; handles are only meaningful
 * until the next _reset. */
typedef struct kiln_fg_resource { uint32_t index; /* into this frame's resources; 0: the invalid resource */ } kiln_fg_resource;

/* Passes are numbered 0, 1, 2, ... in declaration order; _add_pass returns this when it could not
 * store the pass (out of memory, reported at compile). */
#define KILN_FG_NO_PASS UINT32_MAX

/* A 2D (array) texture. Zero-initialised fields take the defaults noted; width, height and format
 * have none. Two transients can share a physical texture only if their descriptions are equal
 * after the defaults are applied. */
typedef struct kiln_fg_texture_desc {
    /*@{*/
    uint32_t width, height;      /* texels of mip level 0; required */
    /*@}*/
    WGPUTextureFormat format;    /* required */
    WGPUTextureUsage usage;      /* 0: RenderAttachment | TextureBinding */
    uint32_t sample_count;       /* 0 means 1 */
    uint32_t mip_levels;         /* 0 means 1 */
    uint32_t layers;             /* 0 means 1; more than 1 makes a 2D array */
} kiln_fg_texture_desc;

/* ---- physical textures --------------------------------------------------------------------- */

/* A texture an allocator made, with its default view (every mip and layer). The graph passes the
 * raw objects to Dawn only when it executes. */
typedef struct kiln_fg_texture {
    kiln_texture texture;        /* its handle in kiln_resources; 0 from an allocator that makes none */
    kiln_texture_view view;      /* its default view's handle */
    WGPUTexture raw_texture;     /* the Dawn texture behind `texture` */
    WGPUTextureView raw_view;    /* the Dawn view behind `view` */
} kiln_fg_texture;

/* A view of one mip level and one layer, as a 2D texture, for sub-resources. */
typedef struct kiln_fg_view {
    kiln_texture_view view;      /* the view's handle in kiln_resources */
    WGPUTextureView raw_view;    /* the Dawn view behind it */
} kiln_fg_view;

/* Where the pool's textures come from. Every function is called from _compile (create_*) or when a
 * pooled texture is dropped (destroy_*); `name` is the first transient that needed the texture. */
typedef struct kiln_fg_allocator {
    void *user;                  /* passed to every function; borrowed, must outlive the graph */
    /* Makes a texture of `desc` (defaults applied) with its default view into *out; false with err
     * filled when it cannot. */
    bool (*create_texture)(void *user, const char *name, const kiln_fg_texture_desc *desc, kiln_fg_texture *out,
                           kiln_error *err);
    /* Makes a 2D view of one mip level and one layer of `texture` into *out, for a sub-resource. */
    bool (*create_view)(void *user, const kiln_fg_texture *texture, uint32_t mip, uint32_t layer, kiln_fg_view *out,
                        kiln_error *err);
    /* Releases a view create_view made; its texture is destroyed after its views. */
    void (*destroy_view)(void *user, kiln_fg_view *view);
    /* Releases a texture create_texture made, with its default view. */
    void (*destroy_texture)(void *user, kiln_fg_texture *texture);
} kiln_fg_allocator;

/* Textures and views in kiln_resources, created inside an error scope so a description Dawn
 * refuses fails compile with Dawn's message, naming the transient. */
kiln_fg_allocator kiln_fg_gpu_allocator(kiln_resources *res);

/* ---- the graph ----------------------------------------------------------------------------- */

/* A frame graph: this frame's declarations, the last compile and the pool of physical textures.
 * Opaque. */
typedef struct kiln_frame_graph kiln_frame_graph;

/* The allocator is copied. */
kiln_frame_graph *kiln_frame_graph_create(const kiln_fg_allocator *allocator, kiln_error *err);
/* Destroys the pooled textures and their views, then the graph. NULL is ignored. */
void kiln_frame_graph_destroy(kiln_frame_graph *g);

/* Starts a new frame's declaration: forgets every pass and resource (and the last compile),
 * keeps all storage and the texture pool. */
void kiln_frame_graph_reset(kiln_frame_graph *g);

/* How many compiles in a row a pooled texture may go unused and still be kept: 0 (the default)
 * destroys it at the first compile that does not use it, the right thing for a frame that is
 * declared alike every time; a caller whose frames vary (the program runtime: programs dispatched
 * now and then) keeps textures through a few frames that do not need them. */
void kiln_frame_graph_set_keep_idle(kiln_frame_graph *g, uint32_t compiles);

/* ---- declaration: resources ---------------------------------------------------------------- */

/* A texture that lives only within the frame; the graph provides (and may alias) its storage. */
kiln_fg_resource kiln_frame_graph_create_transient(kiln_frame_graph *g, const char *name,
                                                   const kiln_fg_texture_desc *desc);
/* A single-sample transient that a multisampled transient resolves into (see "resolve" above):
 * a pass reads it; the graph picks the pass that resolves. `multisampled` must be a transient with
 * more than one sample. */
kiln_fg_resource kiln_frame_graph_create_resolve_target(kiln_frame_graph *g, const char *name,
                                                        kiln_fg_resource multisampled);
/* One mip level and one layer (cube face) of a transient, viewed as a 2D texture. */
kiln_fg_resource kiln_frame_graph_subresource(kiln_frame_graph *g, kiln_fg_resource texture, uint32_t mip,
                                              uint32_t layer);
/* A view the caller owns (a swapchain view, a registry texture). `texture` may be NULL (then
 * _texture_of fails for it); `desc` may be NULL and is only shown in diagnostics. The first pass
 * to attach it clears it. */
kiln_fg_resource kiln_frame_graph_import_view(kiln_frame_graph *g, const char *name, WGPUTextureView view,
                                              WGPUTexture texture, const kiln_fg_texture_desc *desc);
/* A buffer the caller owns (the cluster light lists): it orders its readers after its writers and
 * keeps a writer alive while a kept pass reads it. `buffer` may be id 0 for a resource that only
 * orders passes. */
kiln_fg_resource kiln_frame_graph_import_buffer(kiln_frame_graph *g, const char *name, kiln_buffer buffer);
/* Marks a resource as needed after the frame: its writers (and everything they need) are kept,
 * and a transient's lifetime extends to the end of the frame. */
void kiln_frame_graph_export(kiln_frame_graph *g, kiln_fg_resource resource);

/* ---- declaration: passes ------------------------------------------------------------------- */

/* What a record function is given: see struct kiln_frame_graph_context below. */
typedef struct kiln_frame_graph_context kiln_fg_context;
/* Records one executed pass. Errors go into ctx->error (or stick to ctx->render / ctx->compute);
 * the graph reports them with the pass's name after the function returns. */
typedef void (*kiln_fg_record_fn)(kiln_fg_context *ctx, void *user);

/* A render pass: the graph begins it with the attachments declared by _color and _depth, in the
 * order declared. `record` may be NULL (the pass only clears). */
uint32_t kiln_frame_graph_add_pass(kiln_frame_graph *g, const char *name, kiln_fg_record_fn record, void *user);
/* A compute pass: the graph begins it and hands it to `record` as ctx->compute. */
uint32_t kiln_frame_graph_add_compute_pass(kiln_frame_graph *g, const char *name, kiln_fg_record_fn record,
                                           void *user);

/* Timestamp writes for a render or compute pass (copied): the graph begins it with them; NULL
 * takes them off again. May be called after compile, before the pass executes, without
 * invalidating the compile, so a caller that executes in ranges (_execute_range) can place each
 * range's queries as it goes. */
void kiln_frame_graph_timestamps(kiln_frame_graph *g, uint32_t pass, const kiln_pass_timestamps *writes);

/* Sampling a texture, reading a buffer. */
void kiln_frame_graph_read(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource);
/* Writing a storage texture or a buffer from a compute pass (or, in ordering tests, any write). */
void kiln_frame_graph_write(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource);
/* A colour attachment (a write). `clear` is used when the graph decides this pass clears. */
void kiln_frame_graph_color(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, WGPUColor clear);
/* A colour attachment whose load the caller states instead of the graph deriving it: Clear clears
 * to `clear` whatever ran before, Load keeps what the texture holds even at its first use (a
 * pooled transient then holds whatever its texture last held). Undefined: as _color. */
void kiln_frame_graph_color_load(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, WGPUColor clear,
                                 WGPULoadOp load);
/* The depth attachment: a write, cleared to `clear` when this pass is the first user; read_only
 * makes it a read (depth testing against what an earlier pass wrote). */
void kiln_frame_graph_depth(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource, float clear,
                            bool read_only);

/* ---- compile and execute ------------------------------------------------------------------- */

/* Culls passes that feed no exported resource, orders the rest (stable Kahn sort: among ready
 * passes the lowest declaration index first), computes lifetimes, derives attachment operations
 * and assigns pooled textures, creating those missing and destroying pooled textures this frame
 * does not use. Fails with a message naming the pass or resource at fault: a declaration error, a
 * cycle ("frame graph: cycle between passes 'a' and 'b'"), a transient an executed pass reads but
 * no pass writes, a transient without size or format, or a texture the allocator refuses. After a
 * failure nothing compiled is available and the pool is left as it was. */
bool kiln_frame_graph_compile(kiln_frame_graph *g, kiln_error *err);

/* Records every executed pass in order into `enc`. Stops at the first pass that fails
 * ("frame graph: pass 'tonemap': <why>"), leaving the encoder with that pass ended; the caller
 * discards the encoder. */
bool kiln_frame_graph_execute(kiln_frame_graph *g, kiln_encoder *enc, kiln_error *err);
/* _execute over the order positions [first, first + count) only (clamped to the order): for a
 * caller that submits between ranges (a long frame split over several encoders), or that goes on
 * with the next range after one failed (the program runtime: a failed dispatch stops its own
 * passes, not the next dispatch's). The derived operations assume every earlier range ran. */
bool kiln_frame_graph_execute_range(kiln_frame_graph *g, kiln_encoder *enc, uint32_t first, uint32_t count,
                                    kiln_error *err);

/* What a record function is given. */
struct kiln_frame_graph_context {
    const kiln_frame_graph *graph; /* for lookups: a record function declares nothing */
    uint32_t pass;               /* the pass's declaration index */
    const char *name;            /* the name given to _add_pass (kept, not copied) */
    kiln_encoder *encoder;       /* the encoder being executed into */
    kiln_render_pass *render;    /* render passes; NULL for compute passes */
    kiln_compute_pass *compute;  /* compute passes; NULL for render passes */
    kiln_error error;            /* a record function's own failure (code stays 0 on success) */
};

/* The view of a texture resource the pass uses (a sub-resource's own view); NULL, with the reason
 * in ctx->error, for a resource without one. */
WGPUTextureView kiln_fg_context_view(kiln_fg_context *ctx, kiln_fg_resource resource);
/* The pooled view's handle, for caching bind groups by (index, generation): a resize gives a new
 * handle even where the allocator hands back the same address. Transients and sub-resources. */
kiln_texture_view kiln_fg_context_view_handle(kiln_fg_context *ctx, kiln_fg_resource resource);
/* The buffer of an imported buffer resource; id 0, with the reason in ctx->error, for any other. */
kiln_buffer kiln_fg_context_buffer(kiln_fg_context *ctx, kiln_fg_resource resource);

/* ---- results (valid after a successful compile, until the next declaration or reset) ------- */

/* The executed passes in execution order; *count is 0 before compile. */
const uint32_t *kiln_frame_graph_order(const kiln_frame_graph *g, uint32_t *count);
/* True for a pass that will not execute (also for an unknown pass index, or before compile). */
bool kiln_frame_graph_is_culled(const kiln_frame_graph *g, uint32_t pass);
/* How many declared passes compile culled; 0 before compile. */
uint32_t kiln_frame_graph_culled_count(const kiln_frame_graph *g);
/* Pooled physical textures this frame uses (the renderer reports it as transient_textures). */
uint32_t kiln_frame_graph_physical_count(const kiln_frame_graph *g);

/* What the pool holds now, used this frame or kept idle (kiln_frame_graph_set_keep_idle): its
 * textures, and how many distinct descriptions they have. Any time. */
typedef struct kiln_fg_pool_stats {
    uint32_t textures;           /* physical textures held */
    uint32_t descriptions;       /* distinct kiln_fg_texture_desc among them (defaults applied) */
} kiln_fg_pool_stats;
/* The pool's statistics now; see kiln_fg_pool_stats. */
kiln_fg_pool_stats kiln_frame_graph_pool_stats(const kiln_frame_graph *g);
/* The first and last order positions at which executed passes use the resource (an exported one
 * lasts to the end of the frame); false, with both set to UINT32_MAX, when no executed pass
 * uses it. */
bool kiln_frame_graph_lifetime(const kiln_frame_graph *g, kiln_fg_resource resource, uint32_t *first,
                               uint32_t *last);

/* An attachment of a pass as the graph will begin it. */
typedef struct kiln_fg_attachment {
    kiln_fg_resource resource;   /* the attached resource */
    bool depth;                  /* the depth attachment; false: a colour attachment */
    bool read_only;              /* depth only */
    WGPULoadOp load;             /* Clear or Load (Undefined for a read-only depth attachment) */
    WGPUStoreOp store;           /* Store or Discard (Undefined for a read-only depth attachment) */
    kiln_fg_resource resolve;    /* the resolve target this pass resolves into; index 0 if none */
} kiln_fg_attachment;

/* Writes up to `max` attachments of an executed pass (colours in declaration order, then depth)
 * and returns how many it has; 0 for a culled or unknown pass or before compile. */
uint32_t kiln_frame_graph_attachments(const kiln_frame_graph *g, uint32_t pass, kiln_fg_attachment *out,
                                      uint32_t max);

/* The view to bind for a transient, sub-resource or imported resource. Fails for an invalid
 * handle, before compile, for a buffer and for a transient no executed pass uses. */
WGPUTextureView kiln_frame_graph_view_of(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err);
/* The texture behind a resource: the whole physical texture for a transient or sub-resource, the
 * `texture` given for an imported view. Fails as _view_of does, and for a view imported without
 * its texture. */
WGPUTexture kiln_frame_graph_texture_of(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err);
/* See kiln_fg_context_view_handle. */
kiln_texture_view kiln_frame_graph_view_handle(const kiln_frame_graph *g, kiln_fg_resource resource,
                                               kiln_error *err);

/* ---- lookup and diagnostics (any time) ----------------------------------------------------- */

/* The first resource declared this frame under `name` (strcmp); the invalid resource if none. */
kiln_fg_resource kiln_frame_graph_find(const kiln_frame_graph *g, const char *name);
/* How many passes were declared this frame (culled ones included). */
uint32_t kiln_frame_graph_pass_count(const kiln_frame_graph *g);
/* The name given to _add_pass, or NULL for an unknown pass. */
const char *kiln_frame_graph_pass_name(const kiln_frame_graph *g, uint32_t pass);

/* Writes the graph as Graphviz DOT into out (NUL-terminated, truncated to size) and returns the
 * length of the whole text, like snprintf, so a caller can size a buffer. Executed passes are
 * boxes labelled with their order position, culled passes dashed boxes, resources ellipses with
 * their name, kind or physical texture, and lifetime; writes are pass -> resource edges (a
 * cleared attachment labelled "clear") and reads resource -> pass. For debugging UIs: formats
 * text, not for the frame path. */
size_t kiln_frame_graph_to_graphviz(const kiln_frame_graph *g, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
