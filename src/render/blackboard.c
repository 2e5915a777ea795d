/* The frame blackboard (blackboard.h). */
#include <string.h>

#include "blackboard.h"

void render_blackboard_clear(render_blackboard *b) { *b = (render_blackboard){0}; }

static int find_entry(const render_blackboard *b, const char *name) {
    for (uint32_t i = 0; i < b->count; i++)
        if (b->names[i] == name || !strcmp(b->names[i], name)) return (int)i;
    return -1;
}

static void fail(render_blackboard *b, bool full, const char *name) {
    if (b->failed_name) return;
    b->full = full;
    b->failed_name = name;
    b->failed_feature = b->feature ? b->feature : "frame";
}

void render_blackboard_put(render_blackboard *b, const char *name, kiln_fg_resource resource) {
    int at = find_entry(b, name);
    if (at < 0 && b->count == RENDER_BLACKBOARD_CAPACITY) {
        fail(b, true, name);
        return;
    }
    if (at < 0) at = (int)b->count++;
    b->names[at] = name;
    b->resources[at] = resource;
}

kiln_fg_resource render_blackboard_find(const render_blackboard *b, const char *name) {
    int at = find_entry(b, name);
    return at < 0 ? (kiln_fg_resource){0} : b->resources[at];
}

kiln_fg_resource render_blackboard_need(render_blackboard *b, const char *name) {
    kiln_fg_resource r = render_blackboard_find(b, name);
    if (!r.index) fail(b, false, name);
    return r;
}

bool render_blackboard_check(const render_blackboard *b, kiln_error *err) {
    if (!b->failed_name) return true;
    if (b->full)
        return kiln_error_set(err, KILN_ERR_CAPACITY,
                              "renderer: feature '%s' publishes '%s' on a full frame blackboard (%d names)",
                              b->failed_feature, b->failed_name, RENDER_BLACKBOARD_CAPACITY);
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: feature '%s' needs '%s', which no feature before it published",
                          b->failed_feature, b->failed_name);
}
