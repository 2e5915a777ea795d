/* The frame blackboard: the graph resources one feature hands another within a frame, by name
 * ("depth", "hdr", "ao", "cascade maps"), so a new pass publishes what it writes without adding a
 * field to a shared struct, and a reader names what it needs.
 *
 * It holds a fixed number of entries and is cleared at the start of each frame: nothing is
 * allocated. Names are string literals of the features that publish them (the blackboard keeps
 * the pointer); a lookup compares strings, a few dozen a frame. A feature that needs a name no one
 * published, or a publish past capacity, marks the board failed with the names involved, and the
 * frame fails with that message before the graph compiles. */
#ifndef KILN_RENDER_BLACKBOARD_H
#define KILN_RENDER_BLACKBOARD_H

#include <kiln/graph.h>

#define RENDER_BLACKBOARD_CAPACITY 32

typedef struct render_blackboard {
    const char *names[RENDER_BLACKBOARD_CAPACITY];
    kiln_fg_resource resources[RENDER_BLACKBOARD_CAPACITY];
    uint32_t count;
    /* The first failure: the name at fault and the feature declaring at the time; `full` when
     * it was a publish past capacity, else a need of a name no one published. */
    const char *failed_name, *failed_feature;
    bool full;
    const char *feature;  /* the feature declaring now (set by the frame), for the message */
} render_blackboard;

void render_blackboard_clear(render_blackboard *b);
/* Publishes `resource` under `name`, replacing an entry of that name (a later feature may hand on
 * a new version: the tone map publishes "ldr" as the output or as a transient FXAA reads). */
void render_blackboard_put(render_blackboard *b, const char *name, kiln_fg_resource resource);
/* The resource published under `name`, or index 0 when none was. */
kiln_fg_resource render_blackboard_find(const render_blackboard *b, const char *name);
/* The same, for a resource the caller cannot do without: none marks the board failed. */
kiln_fg_resource render_blackboard_need(render_blackboard *b, const char *name);
/* False with the message of the first failure ("renderer: feature 'tonemap' needs 'hdr', which
 * no feature before it published"). */
bool render_blackboard_check(const render_blackboard *b, kiln_error *err);

#endif
