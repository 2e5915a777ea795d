/* The frame graph as kiln-view's Frame graph panel shows it: the passes in execution order (culled
 * ones after, marked) and the resources with their physical textures and lifetimes, read from the
 * renderer's Graphviz text (kiln_renderer_graph_dot, the renderer's one public view of its graph).
 * Pure C with no window, unit tested on a fixed text (tests/view/test_view_graph.c). */
#ifndef KILN_VIEW_GRAPH_H
#define KILN_VIEW_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VIEW_GRAPH_MAX_PASSES 160
#define VIEW_GRAPH_MAX_RESOURCES 160
#define VIEW_GRAPH_NAME_SIZE 64

typedef struct view_graph_pass {
    char name[VIEW_GRAPH_NAME_SIZE];
    bool culled;               /* declared but culled: nothing it writes is read */
} view_graph_pass;

typedef struct view_graph_resource {
    char name[VIEW_GRAPH_NAME_SIZE];
    char kind[VIEW_GRAPH_NAME_SIZE]; /* "physical 3 64x64", "imported 1280x720", "buffer", "mip 0 layer 1" */
    int32_t physical;          /* the pooled texture a transient lives in; -1 for any other kind */
    bool used;                 /* some executed pass touches it */
    /*@{*/
    uint32_t first, last;      /* the executed passes of its lifetime, when used */
    /*@}*/
} view_graph_resource;

typedef struct view_graph {
    view_graph_pass passes[VIEW_GRAPH_MAX_PASSES];
    uint32_t pass_count;       /* executed passes first, in order, then culled ones */
    view_graph_resource resources[VIEW_GRAPH_MAX_RESOURCES];
    uint32_t resource_count;
} view_graph;

/* Reads kiln_frame_graph_to_graphviz's text (passes and resources; edges are skipped). */
void view_graph_parse(view_graph *g, const char *dot);
/* Whether another resource lives in the same physical texture: transient aliasing. */
bool view_graph_aliased(const view_graph *g, uint32_t resource);

#endif
