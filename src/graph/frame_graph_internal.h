/* The frame graph's storage, shared by frame_graph.c (declaration, compile, queries) and
 * frame_graph_dot.c (the Graphviz dump). Every array is owned by the graph, grown by doubling
 * during declaration and never shrunk; _reset only sets counts back to zero. */
#ifndef KILN_GRAPH_INTERNAL_H
#define KILN_GRAPH_INTERNAL_H

#include <kiln/graph.h>

#define FG_NONE UINT32_MAX

typedef enum fg_kind {
    FG_TRANSIENT,
    FG_IMPORTED,
    FG_EXTERNAL,
} fg_kind;

typedef struct fg_pass {
    const char *name;              /* the caller's */
    /* compile results */
    bool culled;
    uint32_t position;             /* index into order; FG_NONE when culled */
    /* compile scratch */
    uint32_t indegree;             /* unsatisfied dependencies during the sort */
    uint32_t out_start, out_count; /* range of out_edges: edges leaving this pass */
    uint32_t in_start, in_count;   /* range of in_edges: edges arriving at this pass */
    bool on_walk;                  /* visited while looking for a cycle */
} fg_pass;

/* One read or write call, in call order. */
typedef struct fg_access {
    uint32_t pass;
    uint32_t resource;
    bool write;
} fg_access;

typedef struct fg_resource {
    const char *name;              /* the caller's */
    fg_kind kind;
    bool exported;
    kiln_fg_texture_desc desc;     /* defaults applied (transients) or as given (imports) */
    WGPUTextureView imported_view; /* the caller's */
    WGPUTexture imported_texture;  /* the caller's, may be NULL */
    /* compile results */
    uint32_t first, last;          /* lifetime in order positions; FG_NONE when unused */
    uint32_t physical;             /* slot in the texture pool; FG_NONE when none */
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

/* A pooled texture and its default view, both in kiln_resources. */
typedef struct fg_physical {
    kiln_fg_texture_desc desc;
    kiln_texture texture;
    kiln_texture_view view;
    WGPUTexture raw_texture;
    WGPUTextureView raw_view;
    bool alive;                    /* the slot holds a texture */
    bool used;                     /* assigned to at least one transient this frame */
    uint32_t busy_until;           /* last position of its latest user this frame */
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
} fg_mistake_kind;

typedef struct fg_mistake {
    fg_mistake_kind kind;
    uint32_t pass;
    uint32_t resource;
} fg_mistake;

struct kiln_frame_graph {
    kiln_resources *res;

    fg_pass *passes;
    uint32_t pass_count, pass_capacity;
    fg_resource *resources;              /* [0] is reserved: index 0 is the invalid handle */
    uint32_t resource_count, resource_capacity;
    fg_access *accesses;
    uint32_t access_count, access_capacity;
    fg_mistake mistake;

    /* compile scratch, sized with the declaration arrays */
    uint32_t *sorted_accesses;           /* access_capacity: access indices grouped by resource */
    fg_edge *edges;                      /* 2 * access_capacity (see build_edges for the bound) */
    uint32_t edge_count;
    uint32_t *out_edges, *in_edges;      /* 2 * access_capacity: edge indices grouped by pass */
    uint32_t *pass_scratch;              /* pass_capacity: readers list, stack, heap */
    uint32_t *resource_scratch;          /* resource_capacity: transients by first use */

    /* compile results */
    bool compiled;
    uint32_t *order;                     /* pass_capacity */
    uint32_t order_count;
    uint32_t culled_count;
    uint32_t physical_used;

    /* the texture pool, across frames */
    fg_physical *physical;
    uint32_t physical_slots, physical_capacity;
};

static inline const char *fg_name(const char *name) { return name ? name : ""; }

/* frame_graph_pool.c */
/* Grows the pool's slot array to hold `need` slots (new slots empty). */
bool fg_pool_reserve(kiln_frame_graph *g, uint32_t need);
/* Destroys every pooled texture and view. */
void fg_pool_release_all(kiln_frame_graph *g);
/* Assigns each transient an executed pass uses a pooled texture (creating missing ones) and
 * destroys pooled textures this frame does not use. Needs lifetimes computed. */
bool fg_assign_textures(kiln_frame_graph *g, kiln_error *err);

#endif
