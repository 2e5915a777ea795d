/* The frame blackboard: the graph resources one feature hands another within a frame, by name
 * ("depth", "hdr", "ao", "cascade maps"), so a new pass publishes what it writes without adding a
 * field to a shared struct, and a reader names what it needs.
 *
 * Every name a frame uses is published by its owner, even when the owner has nothing to give
 * this frame: it then publishes index 0 ("ao" with ambient occlusion off). So a reader tells
 * "off this frame" (find returns index 0) from a name nobody owns, which is a mistake: a find or
 * need of a name never published fails the frame, and so does a need of a name published as
 * absent, a second publish of a name (two owners), and a publish past capacity. Only a chain
 * ("display", "hdr resolved": a filter takes the current resource and puts its own in its place)
 * replaces, with render_blackboard_replace.
 *
 * It holds a fixed number of entries and is cleared at the start of each frame: nothing is
 * allocated. Names are string literals of the features that publish them (the blackboard keeps
 * the pointer); a lookup compares strings, a few dozen a frame. A failure marks the board with
 * the names involved, and the frame fails with that message before the graph compiles. */
#ifndef KILN_RENDER_BLACKBOARD_H
#define KILN_RENDER_BLACKBOARD_H

#include <kiln/graph.h>

#define RENDER_BLACKBOARD_CAPACITY 32

typedef enum render_blackboard_failure {
    RENDER_BLACKBOARD_OK,
    RENDER_BLACKBOARD_UNKNOWN,   /* a find, need or replace of a name never published */
    RENDER_BLACKBOARD_ABSENT,    /* a need of a name published as absent this frame */
    RENDER_BLACKBOARD_TWICE,     /* a second put of a name */
    RENDER_BLACKBOARD_FULL,      /* a put past capacity */
} render_blackboard_failure;

typedef struct render_blackboard {
    const char *names[RENDER_BLACKBOARD_CAPACITY];
    kiln_fg_resource resources[RENDER_BLACKBOARD_CAPACITY];
    const char *owners[RENDER_BLACKBOARD_CAPACITY]; /* the feature that published each */
    uint32_t count;
    /* The first failure: what, the name at fault and the feature declaring at the time. */
    render_blackboard_failure failure;
    const char *failed_name, *failed_feature;
    const char *feature;  /* the feature declaring now (set by the frame), for the messages */
} render_blackboard;

void render_blackboard_clear(render_blackboard *b);
/* Publishes `resource` (index 0: absent this frame) under a name not yet published. */
void render_blackboard_put(render_blackboard *b, const char *name, kiln_fg_resource resource);
/* Puts `resource` in the place of a published name: a link of a chain. */
void render_blackboard_replace(render_blackboard *b, const char *name, kiln_fg_resource resource);
/* The resource published under `name`: index 0 when it is absent this frame. */
kiln_fg_resource render_blackboard_find(render_blackboard *b, const char *name);
/* The same, for a resource the caller cannot do without: absent fails the frame too. */
kiln_fg_resource render_blackboard_need(render_blackboard *b, const char *name);
/* False with the message of the first failure ("renderer: feature 'tonemap' needs 'hdr resolved',
 * which no feature before it published"). */
bool render_blackboard_check(const render_blackboard *b, kiln_error *err);

#endif
