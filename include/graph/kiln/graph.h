/* The frame graph: passes and the resources they read and write, declared from scratch every
 * frame, then compiled into an execution order, a set of culled passes, resource lifetimes and
 * pooled physical textures shared by transients whose lifetimes do not overlap.
 *
 * The graph never calls back into user code: after compile the renderer walks
 * kiln_frame_graph_order() and records each pass itself, fetching views with _view_of.
 *
 * Ownership:
 *   kiln_frame_graph   created by kiln_frame_graph_create, destroyed by _destroy. It owns its
 *                      declaration storage, its compile scratch and the pool of physical textures
 *                      (textures and views created in the kiln_resources given at creation, which
 *                      must outlive the graph). _destroy releases them.
 *   names              every name passed in is a pointer the caller keeps alive and unchanged
 *                      until the next _reset (string literals or persistent fields): the graph
 *                      stores the pointer and never copies, formats or frees it.
 *   imported views     stay the caller's: never aliased, never released.
 *
 * Steady state: _reset keeps every array, so declaring and compiling the same frame again
 * allocates nothing on the heap and creates no GPU objects. Storage grows (by doubling) only when
 * a frame declares more than any frame before it.
 *
 * Errors: declaring never fails loudly. A bad pass index or resource handle (or running out of
 * memory while declaring) is remembered and reported by _compile, which is the one call of the
 * frame path that takes a kiln_error. Main-thread only, like the rest of kiln. */
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
typedef struct kiln_fg_resource { uint32_t index; } kiln_fg_resource;

/* Passes are numbered 0, 1, 2, ... in declaration order; _add_pass returns this when it could not
 * store the pass (out of memory, reported at compile). */
#define KILN_FG_NO_PASS UINT32_MAX

/* A 2D (array) texture. Zero-initialised fields take the defaults noted; width, height and format
 * have none. Two transients can share a physical texture only if their descriptions are equal
 * after the defaults are applied. */
typedef struct kiln_fg_texture_desc {
    uint32_t width, height;
    WGPUTextureFormat format;
    WGPUTextureUsage usage;      /* 0: RenderAttachment | TextureBinding */
    uint32_t sample_count;       /* 0 means 1 */
    uint32_t mip_levels;         /* 0 means 1 */
    uint32_t layers;             /* 0 means 1; more than 1 makes a 2D array */
} kiln_fg_texture_desc;

typedef struct kiln_frame_graph kiln_frame_graph;

kiln_frame_graph *kiln_frame_graph_create(kiln_resources *res, kiln_error *err);
/* Destroys the pooled textures and their views, then the graph. NULL is ignored. */
void kiln_frame_graph_destroy(kiln_frame_graph *g);

/* Starts a new frame's declaration: forgets every pass and resource (and the last compile),
 * keeps all storage and the texture pool. */
void kiln_frame_graph_reset(kiln_frame_graph *g);

/* ---- declaration --------------------------------------------------------------------------- */

/* A texture that lives only within the frame; the graph provides (and may alias) its storage. */
kiln_fg_resource kiln_frame_graph_create_transient(kiln_frame_graph *g, const char *name,
                                                   const kiln_fg_texture_desc *desc);
/* A view the caller owns (a swapchain view, a shadow map). `texture` may be NULL (then _texture_of
 * fails for it); `desc` may be NULL and is only shown in diagnostics. */
kiln_fg_resource kiln_frame_graph_import_view(kiln_frame_graph *g, const char *name, WGPUTextureView view,
                                              WGPUTexture texture, const kiln_fg_texture_desc *desc);
/* A resource the graph knows nothing about except who reads and writes it (a buffer such as the
 * cluster light lists): it orders passes and keeps writers alive, and has no view. */
kiln_fg_resource kiln_frame_graph_create_external(kiln_frame_graph *g, const char *name);
/* Marks a resource as needed after the frame: its writers (and everything they need) are kept,
 * and a transient's lifetime extends to the end of the frame. */
void kiln_frame_graph_export(kiln_frame_graph *g, kiln_fg_resource resource);

uint32_t kiln_frame_graph_add_pass(kiln_frame_graph *g, const char *name);
void kiln_frame_graph_read(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource);
void kiln_frame_graph_write(kiln_frame_graph *g, uint32_t pass, kiln_fg_resource resource);

/* ---- compile ------------------------------------------------------------------------------- */

/* Culls passes that feed no exported resource, orders the rest (stable Kahn sort: among ready
 * passes the lowest declaration index first), computes lifetimes and assigns pooled textures,
 * creating those missing and destroying pooled textures this frame does not use. Fails with a
 * message naming the pass or resource at fault: a declaration error, a cycle ("frame graph:
 * cycle between passes 'a' and 'b'"), a transient an executed pass reads but no pass writes, a
 * transient without size or format, or a texture Dawn refuses. After a failure nothing compiled
 * is available and the pool is left as it was. */
bool kiln_frame_graph_compile(kiln_frame_graph *g, kiln_error *err);

/* ---- results (valid after a successful compile, until the next declaration or reset) ------- */

/* The executed passes in execution order; *count is 0 before compile. */
const uint32_t *kiln_frame_graph_order(const kiln_frame_graph *g, uint32_t *count);
/* True for a pass that will not execute (also for an unknown pass index, or before compile). */
bool kiln_frame_graph_is_culled(const kiln_frame_graph *g, uint32_t pass);
uint32_t kiln_frame_graph_culled_count(const kiln_frame_graph *g);
/* Pooled physical textures this frame uses (the renderer reports it as transient_textures). */
uint32_t kiln_frame_graph_physical_count(const kiln_frame_graph *g);
/* The first and last order positions at which executed passes use the resource (an exported one
 * lasts to the end of the frame); false, with both set to UINT32_MAX, when no executed pass
 * uses it. */
bool kiln_frame_graph_lifetime(const kiln_frame_graph *g, kiln_fg_resource resource, uint32_t *first,
                               uint32_t *last);

/* The view to bind for a transient or an imported resource. Fails for an invalid handle, before
 * compile, for an external resource and for a transient no executed pass uses. */
WGPUTextureView kiln_frame_graph_view_of(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err);
WGPUTexture kiln_frame_graph_texture_of(const kiln_frame_graph *g, kiln_fg_resource resource, kiln_error *err);
/* The pooled view's handle, for caching bind groups by (index, generation): a resize gives a new
 * handle even where the allocator hands back the same address. Transients only. */
kiln_texture_view kiln_frame_graph_view_handle(const kiln_frame_graph *g, kiln_fg_resource resource,
                                               kiln_error *err);

/* ---- lookup and diagnostics (any time) ----------------------------------------------------- */

/* The first resource declared this frame under `name` (strcmp); the invalid resource if none. */
kiln_fg_resource kiln_frame_graph_find(const kiln_frame_graph *g, const char *name);
uint32_t kiln_frame_graph_pass_count(const kiln_frame_graph *g);
/* The name given to _add_pass, or NULL for an unknown pass. */
const char *kiln_frame_graph_pass_name(const kiln_frame_graph *g, uint32_t pass);

/* Writes the graph as Graphviz DOT into out (NUL-terminated, truncated to size) and returns the
 * length of the whole text, like snprintf, so a caller can size a buffer. Executed passes are
 * boxes labelled with their order position, culled passes dashed boxes, resources ellipses with
 * their name, kind or physical texture, and lifetime; writes are pass -> resource edges and reads
 * resource -> pass. For debugging UIs: formats text, not for the frame path. */
size_t kiln_frame_graph_to_graphviz(const kiln_frame_graph *g, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
