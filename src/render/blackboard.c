/* The frame blackboard (blackboard.h). */
#include <string.h>

#include "blackboard.h"

void render_blackboard_clear(render_blackboard *b) { *b = (render_blackboard){0}; }

static int find_entry(const render_blackboard *b, const char *name) {
    for (uint32_t i = 0; i < b->count; i++)
        if (b->names[i] == name || !strcmp(b->names[i], name)) return (int)i;
    return -1;
}

static void fail(render_blackboard *b, render_blackboard_failure failure, const char *name) {
    if (b->failure) return;
    b->failure = failure;
    b->failed_name = name;
    b->failed_feature = b->feature ? b->feature : "frame";
}

void render_blackboard_put(render_blackboard *b, const char *name, kiln_fg_resource resource) {
    if (find_entry(b, name) >= 0) return fail(b, RENDER_BLACKBOARD_TWICE, name);
    if (b->count == RENDER_BLACKBOARD_CAPACITY) return fail(b, RENDER_BLACKBOARD_FULL, name);
    b->names[b->count] = name;
    b->owners[b->count] = b->feature ? b->feature : "frame";
    b->resources[b->count++] = resource;
}

void render_blackboard_replace(render_blackboard *b, const char *name, kiln_fg_resource resource) {
    int at = find_entry(b, name);
    if (at < 0) return fail(b, RENDER_BLACKBOARD_UNKNOWN, name);
    b->resources[at] = resource;
}

kiln_fg_resource render_blackboard_find(render_blackboard *b, const char *name) {
    int at = find_entry(b, name);
    if (at < 0) fail(b, RENDER_BLACKBOARD_UNKNOWN, name);
    return at < 0 ? (kiln_fg_resource){0} : b->resources[at];
}

kiln_fg_resource render_blackboard_need(render_blackboard *b, const char *name) {
    int at = find_entry(b, name);
    if (at < 0) fail(b, RENDER_BLACKBOARD_UNKNOWN, name);
    else if (!b->resources[at].index) fail(b, RENDER_BLACKBOARD_ABSENT, name);
    return at < 0 ? (kiln_fg_resource){0} : b->resources[at];
}

bool render_blackboard_check(const render_blackboard *b, kiln_error *err) {
    const char *feature = b->failed_feature, *name = b->failed_name;
    switch (b->failure) {
    case RENDER_BLACKBOARD_OK: return true;
    case RENDER_BLACKBOARD_UNKNOWN:
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "renderer: feature '%s' asks for '%s', which no feature before it published", feature, name);
    case RENDER_BLACKBOARD_ABSENT:
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: feature '%s' needs '%s', which is absent this frame",
                              feature, name);
    case RENDER_BLACKBOARD_TWICE: {
        int at = find_entry(b, name);
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "renderer: feature '%s' publishes '%s', which '%s' published",
                              feature, name, at >= 0 ? b->owners[at] : "?");
    }
    case RENDER_BLACKBOARD_FULL:
        return kiln_error_set(err, KILN_ERR_CAPACITY,
                              "renderer: feature '%s' publishes '%s' on a full frame blackboard (%d names)", feature, name,
                              RENDER_BLACKBOARD_CAPACITY);
    }
    return true;
}
