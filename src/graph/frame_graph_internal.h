/* The frame graph's storage, shared by frame_graph.c (declaration, queries), frame_graph_compile.c
 * (edges, culling, order, lifetimes, attachment operations), frame_graph_pool.c (physical
 * textures), frame_graph_execute.c and frame_graph_dot.c. Every array is owned by the graph, grown
 * by doubling during declaration and never shrunk; _reset only sets counts back to zero. */
#ifndef KILN_GRAPH_INTERNAL_H
#define KILN_GRAPH_INTERNAL_H

#include <kiln/graph.h>

#define FG_NONE UINT32_MAX

typedef enum fg_kind {
    FG_TRANSIENT,
    FG_SUBRESOURCE,                /* one mip and layer of a transient (`parent`) */
    FG_IMPORTED,
    FG_BUFFER,
} fg_kind;

typedef struct fg_pass {
    const char *name;              /* the caller's */
    kiln_fg_record_fn record;
    void *user;
    bool compute;
    bool timed;                    /* begin the pass with `timestamps` */
    kiln_pass_timestamps timestamps;
    uint32_t colors;               /* colour attachments declared */
    bool has_depth;                /* a depth attachment declared */
    /* compile results */
    bool culled;
    uint32_t position;             /* index into order; FG_NONE when culled */
    uint32_t attachment_start, attachment_count; /* range of sorted_attachments */
    /* compile scratch */
    uint32_t indegree;             /* unsatisfied dependencies during the sort */
    uint32_t out_start, out_count; /* range of out_edges: edges leaving this pass */
    uint32_t in_start, in_count;   /* range of in_edges: edges arriving at this pass */
    bool on_walk;                  /* visited while looking for a cycle */
} fg_pass;

/* One read or write, in call order. Compile appends `derived` accesses after the declared ones
 * (a texture's reads and writes mirrored onto its sub-resources, a resolve target's writes) and drops
 * them again at the next compile. */
typedef struct fg_access {
    uint32_t pass;
    uint32_t resource;
    bool write;
    bool derived;
} fg_access;

/* A _color or _depth call; the derived operations are filled by compile. */
typedef struct fg_attachment {
    uint32_t pass;
    uint32_t resource;
    bool depth, read_only;
    WGPUColor clear_color;
    float clear_depth;
    WGPULoadOp stated_load;        /* _color_load's; Undefined: derived */
    /* compile results */
    WGPULoadOp load;
    WGPUStoreOp store;
    uint32_t resolve;              /* resource index of the resolve target; 0 when none */
} fg_attachment;

typedef struct fg_resource {
    const char *name;              /* the caller's */
    fg_kind kind;
    bool exported;
    kiln_fg_texture_desc desc;     /* defaults applied (transients), the parent's (sub-resources), as given (imports) */
    WGPUTextureView imported_view; /* the caller's */
    WGPUTexture imported_texture;  /* the caller's, may be NULL */
    kiln_buffer buffer;            /* FG_BUFFER: the caller's, may be id 0 */
    uint32_t parent;               /* FG_SUBRESOURCE: the transient it is part of */
    uint32_t mip, layer;           /* FG_SUBRESOURCE */
    uint32_t first_part;           /* a transient: its first sub-resource; 0 when none */
    uint32_t next_part;            /* FG_SUBRESOURCE: the next part of the same transient; 0 last */
    uint32_t resolve_of;           /* a resolve target: the multisampled transient; else 0 */
    uint32_t resolve_target;       /* a multisampled transient: its resolve target; else 0 */
    /* compile results */
    uint32_t first, last;          /* lifetime in order positions; FG_NONE when unused */
    uint32_t last_declared;        /* last position of a declared (not derived) access; FG_NONE if none */
    uint32_t physical;             /* slot in the texture pool; FG_NONE when none */
    uint32_t view;                 /* FG_SUBRESOURCE: index into the physical's views */
    /* compile scratch: this resource's accesses in sorted_accesses, by ascending pass */
    uint32_t access_start, access_count;
} fg_resource;

/* "from must run before to". Data edges (a reader on its producer, a writer on the previous
 * version's writer) also keep `from` alive when `to` is kept; ordering-only edges (a writer after
 * the previous version's readers) do not. */
typedef struct fg_edge {
    uint32_t from, to;
    bool data;
} fg_edge;

/* A view of one mip and layer of a pooled texture, made when a sub-resource first needs it. */
typedef struct fg_physical_view {
    uint32_t mip, layer;
    kiln_fg_view view;
} fg_physical_view;

/* A pooled texture from the allocator, kept across frames while frames use it. */
typedef struct fg_physical {
    kiln_fg_texture_desc desc;
    kiln_fg_texture texture;
    fg_physical_view *views;
    uint32_t view_count, view_capacity;
    bool alive;                    /* the slot holds a texture */
    bool used;                     /* assigned to at least one transient this frame */
    uint32_t busy_until;           /* last position of its latest user this frame */
    uint64_t last_used;            /* the graph's compile_serial when a frame last used it */
} fg_physical;

/* The first declaration mistake of the frame, kept as numbers (no strings in the frame path) and
 * formatted by compile. */
typedef enum fg_mistake_kind {
    FG_MISTAKE_NONE,
    FG_MISTAKE_OUT_OF_MEMORY,
    FG_MISTAKE_READ_BAD_PASS,
    FG_MISTAKE_WRITE_BAD_PASS,
    FG_MISTAKE_READ_BAD_RESOURCE,
    FG_MISTAKE_WRITE_BAD_RESOURCE,
    FG_MISTAKE_EXPORT_BAD_RESOURCE,
    FG_MISTAKE_ATTACH_NOT_TEXTURE,     /* a buffer attached, or an attachment on a compute pass */
    FG_MISTAKE_TOO_MANY_COLORS,
    FG_MISTAKE_TWO_DEPTHS,
    FG_MISTAKE_SUBRESOURCE_OF,         /* of something that is not a transient */
    FG_MISTAKE_SUBRESOURCE_MIP,        /* a mip past the texture's */
    FG_MISTAKE_SUBRESOURCE_LAYER,      /* a layer past the texture's */
    FG_MISTAKE_RESOLVE_OF,             /* of something that is not a multisampled transient */
} fg_mistake_kind;

typedef struct fg_mistake {
    fg_mistake_kind kind;
    uint32_t pass;
    uint32_t resource;
    uint32_t value;                /* the mip or layer at fault */
} fg_mistake;

struct kiln_frame_graph {
    kiln_fg_allocator allocator;

    fg_pass *passes;
    uint32_t pass_count, pass_capacity;
    fg_resource *resources;              /* [0] is reserved: index 0 is the invalid handle */
    uint32_t resource_count, resource_capacity;
    fg_access *accesses;                 /* declared ones first, then compile's derived ones */
    uint32_t access_count, declared_access_count, access_capacity;
    fg_attachment *attachments;
    uint32_t attachment_count, attachment_capacity;
    fg_mistake mistake;

    /* compile scratch, sized with the declaration arrays */
    uint32_t *sorted_accesses;           /* access_capacity: access indices grouped by resource */
    fg_edge *edges;                      /* 2 * access_capacity (see build_edges for the bound) */
    uint32_t edge_count;
    uint32_t *out_edges, *in_edges;      /* 2 * access_capacity: edge indices grouped by pass */
    uint32_t *pass_scratch;              /* pass_capacity: readers list, stack, heap */
    uint32_t *resource_scratch;          /* resource_capacity: transients by first use */
    uint32_t *sorted_attachments;        /* attachment_capacity: attachment indices grouped by pass */

    /* compile results */
    bool compiled;
    uint32_t *order;                     /* pass_capacity */
    uint32_t order_count;
    uint32_t culled_count;
    uint32_t physical_used;

    /* the texture pool, across frames */
    fg_physical *physical;
    uint32_t physical_slots, physical_capacity;
    uint64_t compile_serial;             /* texture assignments made (one per compile that got that far) */
    uint32_t keep_idle;                  /* kiln_frame_graph_set_keep_idle */
};

static inline const char *fg_name(const char *name) { return name ? name : ""; }

/* frame_graph.c */
/* Grows the access arrays (and the edge scratch sized with them) to hold `need` accesses. */
bool fg_reserve_accesses(kiln_frame_graph *g, uint32_t need);
bool fg_valid_resource(const kiln_frame_graph *g, kiln_fg_resource r);

/* frame_graph_compile.c: everything compile does before textures are assigned. */
bool fg_compile_order(kiln_frame_graph *g, kiln_error *err);
/* Load, store and resolve of every attachment of an executed pass; needs lifetimes. */
void fg_derive_attachments(kiln_frame_graph *g);

/* frame_graph_pool.c */
/* Grows the pool's slot array to hold `need` slots (new slots empty). */
bool fg_pool_reserve(kiln_frame_graph *g, uint32_t need);
/* Destroys every pooled texture and view. */
void fg_pool_release_all(kiln_frame_graph *g);
/* Assigns each transient an executed pass uses a pooled texture (creating missing ones), gives
 * each used sub-resource its view, and destroys pooled textures that have now gone unused through
 * more than keep_idle compiles in a row. Needs lifetimes computed. */
bool fg_assign_textures(kiln_frame_graph *g, kiln_error *err);
kiln_fg_pool_stats fg_pool_stats(const kiln_frame_graph *g);
/* The view (raw and handle) a texture resource resolves to after compile. */
kiln_fg_view fg_resource_view(const kiln_frame_graph *g, const fg_resource *r);

#endif
