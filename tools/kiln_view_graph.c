/* kiln-view's reading of the frame graph's Graphviz text (kiln_view_graph.h). The text's node
 * lines, as src/graph/frame_graph_dot.c writes them:
 *   p3 [shape=box, label="3: depth prepass"];
 *   p9 [shape=box, style=dashed, label="debug copy\n(culled)"];
 *   r8 [shape=ellipse, label="depth\nphysical 2 64x64\n[5, 11]"];
 * where \n is the two characters of a DOT escape. */
#include "kiln_view_graph.h"

#include <stdio.h>
#include <string.h>

/* The label's text up to the first escaped newline or its end, unescaped, into out; returns
 * where the next part starts, or NULL after the last. */
static const char *label_part(const char *p, char *out, size_t size) {
    size_t n = 0;
    for (; *p && *p != '"'; p++) {
        if (p[0] == '\\' && p[1] == 'n') {
            out[n] = '\0';
            return p + 2;
        }
        if (p[0] == '\\' && p[1]) p++;
        if (n + 1 < size) out[n++] = *p;
    }
    out[n] = '\0';
    return NULL;
}

static void parse_pass(view_graph *g, const char *line, const char *label) {
    if (g->pass_count == VIEW_GRAPH_MAX_PASSES) return;
    view_graph_pass *p = &g->passes[g->pass_count++];
    p->culled = strstr(line, "style=dashed") != NULL;
    char text[VIEW_GRAPH_NAME_SIZE];
    label_part(label, text, sizeof text);
    /* An executed pass's label starts with its position ("3: "). */
    const char *colon = strstr(text, ": ");
    const char *name = !p->culled && colon ? colon + 2 : text;
    snprintf(p->name, sizeof p->name, "%s", name);
}

static void parse_resource(view_graph *g, const char *label) {
    if (g->resource_count == VIEW_GRAPH_MAX_RESOURCES) return;
    view_graph_resource *r = &g->resources[g->resource_count++];
    *r = (view_graph_resource){.physical = -1};
    char life[VIEW_GRAPH_NAME_SIZE] = "";
    const char *next = label_part(label, r->name, sizeof r->name);
    if (next) next = label_part(next, r->kind, sizeof r->kind);
    if (next) label_part(next, life, sizeof life);
    sscanf(r->kind, "physical %d", &r->physical);
    r->used = sscanf(life, "[%u, %u]", &r->first, &r->last) == 2;
}

void view_graph_parse(view_graph *g, const char *dot) {
    g->pass_count = g->resource_count = 0;
    for (const char *at = dot; at && *at;) {
        /* One line at a time, copied, so every search stays inside it. */
        const char *end = strchr(at, '\n');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(length < sizeof line ? length : sizeof line - 1), at);
        at = end ? end + 1 : NULL;
        const char *start = line;
        while (*start == ' ') start++;
        const char *label = strstr(start, "label=\"");
        if (!label || strstr(start, "->")) continue;
        label += strlen("label=\"");
        if (start[0] == 'p' && start[1] >= '0' && start[1] <= '9') parse_pass(g, start, label);
        else if (start[0] == 'r' && start[1] >= '0' && start[1] <= '9') parse_resource(g, label);
    }
}

bool view_graph_aliased(const view_graph *g, uint32_t resource) {
    const view_graph_resource *r = &g->resources[resource];
    if (r->physical < 0) return false;
    for (uint32_t i = 0; i < g->resource_count; i++)
        if (i != resource && g->resources[i].physical == r->physical) return true;
    return false;
}
