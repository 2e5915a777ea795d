/* The frame graph as Graphviz DOT, for the debug overlay and for reading a frame by eye. Produced
 * only on demand: it formats text with snprintf and is never part of the frame path. */
#include "frame_graph_internal.h"

#include <stdarg.h>
#include <stdio.h>

/* Appends into a caller buffer, truncating (always NUL-terminated) but counting every character,
 * so the total tells the caller how large a buffer the whole text needs. */
typedef struct dot_writer {
    char *out;
    size_t size;
    size_t length;
} dot_writer;

__attribute__((format(printf, 2, 3))) static void dot_printf(dot_writer *w, const char *fmt, ...) {
    char *dst = w->length < w->size ? w->out + w->length : NULL;
    size_t room = dst ? w->size - w->length : 0;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(dst, room, fmt, args);
    va_end(args);
    if (n > 0) w->length += (size_t)n;
}

static void dot_putc(dot_writer *w, char c) {
    if (w->length + 1 < w->size) {
        w->out[w->length] = c;
        w->out[w->length + 1] = '\0';
    }
    w->length++;
}

/* Names go inside double-quoted DOT strings. */
static void dot_quoted(dot_writer *w, const char *text) {
    for (const char *c = fg_name(text); *c; c++) {
        if (*c == '"' || *c == '\\') dot_putc(w, '\\');
        dot_putc(w, *c);
    }
}

static void dot_pass(dot_writer *w, const kiln_frame_graph *g, uint32_t p) {
    const fg_pass *pass = &g->passes[p];
    if (!g->compiled) {
        dot_printf(w, "  p%u [shape=box, label=\"", p);
        dot_quoted(w, pass->name);
    } else if (pass->culled) {
        dot_printf(w, "  p%u [shape=box, style=dashed, label=\"", p);
        dot_quoted(w, pass->name);
        dot_printf(w, "\\n(culled)");
    } else {
        dot_printf(w, "  p%u [shape=box, label=\"%u: ", p, pass->position);
        dot_quoted(w, pass->name);
    }
    dot_printf(w, "\"];\n");
}

static void dot_resource(dot_writer *w, const kiln_frame_graph *g, uint32_t r) {
    const fg_resource *res = &g->resources[r];
    bool used = g->compiled && res->first != FG_NONE;
    dot_printf(w, "  r%u [shape=ellipse%s%s, label=\"", r, res->exported ? ", peripheries=2" : "",
               g->compiled && !used ? ", style=dashed" : "");
    dot_quoted(w, res->name);
    if (res->kind == FG_IMPORTED) dot_printf(w, "\\nimported");
    else if (res->kind == FG_BUFFER) dot_printf(w, "\\nbuffer");
    else if (res->kind == FG_SUBRESOURCE) dot_printf(w, "\\nmip %u layer %u", res->mip, res->layer);
    else if (used) dot_printf(w, "\\nphysical %u", res->physical);
    else dot_printf(w, "\\ntransient");
    if (res->kind != FG_BUFFER && res->kind != FG_SUBRESOURCE)
        dot_printf(w, " %ux%u", res->desc.width, res->desc.height);
    if (used) dot_printf(w, "\\n[%u, %u]", res->first, res->last);
    else if (g->compiled) dot_printf(w, "\\nunused");
    dot_printf(w, "\"];\n");
}

/* Whether the pass's attachment of the resource clears it (compiled graphs only). */
static bool cleared_by(const kiln_frame_graph *g, uint32_t pass, uint32_t resource) {
    if (!g->compiled) return false;
    for (uint32_t i = 0; i < g->attachment_count; i++) {
        const fg_attachment *at = &g->attachments[i];
        if (at->pass == pass && at->resource == resource && at->load == WGPULoadOp_Clear) return true;
    }
    return false;
}

size_t kiln_frame_graph_to_graphviz(const kiln_frame_graph *g, char *out, size_t size) {
    dot_writer w = {.out = out, .size = out ? size : 0};
    if (w.size) out[0] = '\0';
    dot_printf(&w, "digraph frame_graph {\n  rankdir=LR;\n  node [fontname=\"sans-serif\", fontsize=10];\n");
    /* Executed passes in execution order, then the culled ones (or all, uncompiled). */
    if (g->compiled)
        for (uint32_t i = 0; i < g->order_count; i++) dot_pass(&w, g, g->order[i]);
    for (uint32_t p = 0; p < g->pass_count; p++)
        if (!g->compiled || g->passes[p].culled) dot_pass(&w, g, p);
    for (uint32_t r = 1; r < g->resource_count; r++) dot_resource(&w, g, r);
    for (uint32_t a = 0; a < g->declared_access_count; a++) {
        const fg_access *acc = &g->accesses[a];
        bool culled = g->compiled && g->passes[acc->pass].culled;
        if (!acc->write) {
            dot_printf(&w, "  r%u -> p%u%s;\n", acc->resource, acc->pass, culled ? " [style=dashed]" : "");
            continue;
        }
        dot_printf(&w, "  p%u -> r%u", acc->pass, acc->resource);
        if (culled) dot_printf(&w, " [style=dashed]");
        else if (cleared_by(g, acc->pass, acc->resource)) dot_printf(&w, " [label=\"clear\"]");
        dot_printf(&w, ";\n");
    }
    /* A resolve is a write the graph chose: drawn dotted, from the resolving pass. */
    for (uint32_t i = 0; g->compiled && i < g->attachment_count; i++) {
        const fg_attachment *at = &g->attachments[i];
        if (at->resolve && !g->passes[at->pass].culled)
            dot_printf(&w, "  p%u -> r%u [style=dotted, label=\"resolve\"];\n", at->pass, at->resolve);
    }
    dot_printf(&w, "}\n");
    return w.length;
}
