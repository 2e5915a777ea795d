/* Draw sets (program.h, "draw sets"): retained lists of draws under two layouts fixed at create.
 * Every check runs at create and patch, so a pass walking a set checks nothing per draw; a refused
 * call changes nothing. A set holds each geometry and instance buffer its draws name (a count of
 * its draws per buffer), so destroying one under a set retires its id and leaves it drawing for
 * the set until the set's last draw of it goes. */
#include "program_internal.h"

#include <stdlib.h>
#include <string.h>

#include "program_layout.h"
#include "program_refuse.h"

program_draw_set *program_draw_set_lookup(const kiln_programs *p, uint32_t id) {
    return p ? program_id_table_lookup(&p->draw_sets, id) : NULL;
}

uint32_t kiln_programs_draw_set_length(const kiln_programs *p, uint32_t draw_set_id) {
    const program_draw_set *set = program_draw_set_lookup(p, draw_set_id);
    return set ? set->count : 0;
}

/* ---- checks ------------------------------------------------------------------------------------ */

static bool check_layouts(const kiln_geometry_layout *vertex, const kiln_geometry_layout *instance,
                          kiln_draw_set_error *err) {
    kiln_geometry_error why;
    if (program_layout_check(vertex, &why) != KILN_GEOMETRY_OK)
        return REFUSE(err, KILN_DRAW_SET_BAD_LAYOUT, "vertex_layout: %s (%s)", why.message,
                      kiln_geometry_class_name(why.cls));
    if (program_layout_check(instance, &why) != KILN_GEOMETRY_OK)
        return REFUSE(err, KILN_DRAW_SET_BAD_LAYOUT, "instance_layout: %s (%s)", why.message,
                      kiln_geometry_class_name(why.cls));
    for (uint32_t i = 0; i < instance->attribute_count; i++)
        for (uint32_t v = 0; v < vertex->attribute_count; v++)
            if (instance->attributes[i].location == vertex->attributes[v].location)
                return REFUSE(err, KILN_DRAW_SET_BAD_LAYOUT,
                              "instance_layout[%u]: location %u is vertex_layout[%u]'s; the two layouts share no "
                              "location", i, instance->attributes[i].location, v);
    return true;
}

/* One draw against live buffers, in the class order of kiln_draw_set_class. Ends are summed in 64
 * bits, so a run never wraps into range; a zero count is inside every buffer. */
static bool check_draw(const kiln_programs *p, const program_draw_set *set, const kiln_draw *d, uint32_t n,
                       kiln_draw_set_error *err) {
    char have[160], want[160];
    const program_geometry *g = program_geometry_lookup(p, d->geometry_id);
    if (!g) return REFUSE(err, KILN_DRAW_SET_UNKNOWN_GEOMETRY, "draw %u: geometry %u is not live", n, d->geometry_id);
    if (!kiln_geometry_layout_equal(&g->layout, &set->vertex_layout))
        return REFUSE(err, KILN_DRAW_SET_GEOMETRY_LAYOUT, "draw %u: geometry %u has layout %s; the vertex layout is %s",
                      n, d->geometry_id, program_layout_text(&g->layout, have, sizeof have),
                      program_layout_text(&set->vertex_layout, want, sizeof want));
    uint64_t index_end = (uint64_t)d->index_first + d->index_count;
    if (d->index_count && index_end > g->index_count)
        return REFUSE(err, KILN_DRAW_SET_INDEX_RANGE, "draw %u: indices %u..%llu pass geometry %u's %u indices", n,
                      d->index_first, (unsigned long long)index_end, d->geometry_id, g->index_count);
    const program_instances *b = program_instances_lookup(p, d->instances_id);
    if (!b)
        return REFUSE(err, KILN_DRAW_SET_UNKNOWN_INSTANCES, "draw %u: instance buffer %u is not live", n,
                      d->instances_id);
    if (!kiln_geometry_layout_equal(&b->layout, &set->instance_layout))
        return REFUSE(err, KILN_DRAW_SET_INSTANCES_LAYOUT,
                      "draw %u: instance buffer %u has layout %s; the instance layout is %s", n, d->instances_id,
                      program_layout_text(&b->layout, have, sizeof have),
                      program_layout_text(&set->instance_layout, want, sizeof want));
    uint64_t instance_end = (uint64_t)d->instance_first + d->instance_count;
    if (d->instance_count && instance_end > b->capacity)
        return REFUSE(err, KILN_DRAW_SET_INSTANCE_RANGE, "draw %u: records %u..%llu pass instance buffer %u's capacity "
                      "of %u", n, d->instance_first, (unsigned long long)instance_end, d->instances_id, b->capacity);
    return true;
}

/* ---- holds ---------------------------------------------------------------------------------------- */

/* Room for `extra` more distinct buffers of each kind, so applying a patch cannot fail midway. */
static bool reserve_holds(program_draw_set *set, uint32_t extra) {
    program_hold *g = kiln_array_reserve(set->geometry_holds, &set->geometry_hold_capacity,
                                         set->geometry_hold_count + extra, sizeof *g);
    if (g) set->geometry_holds = g;
    program_hold *i = g ? kiln_array_reserve(set->instance_holds, &set->instance_hold_capacity,
                                             set->instance_hold_count + extra, sizeof *i)
                        : NULL;
    if (i) set->instance_holds = i;
    return g && i;
}

static void add_hold(program_hold *holds, uint32_t *count, uint32_t id, bool *first) {
    for (uint32_t i = 0; i < *count; i++)
        if (holds[i].id == id) {
            holds[i].draws++;
            *first = false;
            return;
        }
    holds[(*count)++] = (program_hold){id, 1};
    *first = true;
}

static bool drop_hold(program_hold *holds, uint32_t *count, uint32_t id) {
    for (uint32_t i = 0; i < *count; i++)
        if (holds[i].id == id) {
            if (--holds[i].draws) return false;
            holds[i] = holds[--*count];
            return true;
        }
    return false;
}

static void hold_draw(kiln_programs *p, program_draw_set *set, const kiln_draw *d) {
    bool first;
    add_hold(set->geometry_holds, &set->geometry_hold_count, d->geometry_id, &first);
    if (first) program_geometry_hold(p, d->geometry_id);
    add_hold(set->instance_holds, &set->instance_hold_count, d->instances_id, &first);
    if (first) program_instances_hold(p, d->instances_id);
}

static void release_draw(kiln_programs *p, program_draw_set *set, const kiln_draw *d) {
    if (drop_hold(set->geometry_holds, &set->geometry_hold_count, d->geometry_id))
        program_geometry_release(p, d->geometry_id);
    if (drop_hold(set->instance_holds, &set->instance_hold_count, d->instances_id))
        program_instances_release(p, d->instances_id);
}

static void free_set(kiln_programs *p, program_draw_set *set, bool release) {
    if (!set) return;
    for (uint32_t i = 0; release && i < set->geometry_hold_count; i++)
        program_geometry_release(p, set->geometry_holds[i].id);
    for (uint32_t i = 0; release && i < set->instance_hold_count; i++)
        program_instances_release(p, set->instance_holds[i].id);
    free(set->draws);
    free(set->geometry_holds);
    free(set->instance_holds);
    free(set);
}

/* Writes draws over [first, first + count), extending the set, or truncates it to `first` for an
 * empty run; the new draws' holds are taken before the old ones' are let go, so a buffer both
 * removed and named again is never released in between. Memory is reserved first: this cannot
 * fail half-way. */
static bool apply(kiln_programs *p, program_draw_set *set, uint32_t first, const kiln_draw *draws, uint32_t count) {
    uint32_t end = count ? first + count : first;
    uint32_t length = count ? (end > set->count ? end : set->count) : first;
    kiln_draw *grown = kiln_array_reserve(set->draws, &set->capacity, length ? length : 1, sizeof *grown);
    if (!grown) return false;
    set->draws = grown;
    if (!reserve_holds(set, count)) return false;
    for (uint32_t i = 0; i < count; i++) hold_draw(p, set, &draws[i]);
    uint32_t old_end = count ? (end < set->count ? end : set->count) : set->count;
    for (uint32_t i = first; i < old_end; i++) release_draw(p, set, &set->draws[i]);
    if (count) memcpy(set->draws + first, draws, count * sizeof *draws);
    set->count = length;
    return true;
}

/* ---- the calls ------------------------------------------------------------------------------------ */

uint32_t kiln_programs_create_draw_set(kiln_programs *p, const kiln_geometry_layout *vertex_layout,
                                       const kiln_geometry_layout *instance_layout, const kiln_draw *draws,
                                       uint32_t draw_count, kiln_draw_set_error *err) {
    kiln_draw_set_error local;
    if (!err) err = &local;
    *err = (kiln_draw_set_error){0};
    if (!p) return REFUSE(err, KILN_DRAW_SET_BAD_LAYOUT, "no program runtime"), 0;
    if (!draws) draw_count = 0;
    if (!vertex_layout || !instance_layout)
        return REFUSE(err, KILN_DRAW_SET_BAD_LAYOUT, "a draw set needs a vertex and an instance layout"), 0;
    if (!check_layouts(vertex_layout, instance_layout, err)) return 0;
    program_draw_set probe = {.vertex_layout = *vertex_layout, .instance_layout = *instance_layout};
    for (uint32_t i = 0; i < draw_count; i++)
        if (!check_draw(p, &probe, &draws[i], i, err)) return 0;
    program_draw_set *set = program_id_table_reserve(&p->draw_sets, 1) ? calloc(1, sizeof *set) : NULL;
    if (set) *set = probe;
    if (!set || !apply(p, set, 0, draws, draw_count)) {
        free_set(p, set, true);
        return REFUSE(err, KILN_DRAW_SET_BAD_LAYOUT, "out of memory for %u draws", draw_count), 0;
    }
    return program_id_table_add(&p->draw_sets, set);
}

bool kiln_programs_update_draw_set(kiln_programs *p, uint32_t draw_set_id, uint32_t first, const kiln_draw *draws,
                                   uint32_t draw_count, kiln_draw_set_error *err) {
    kiln_draw_set_error local;
    if (!err) err = &local;
    *err = (kiln_draw_set_error){0};
    if (!p) return REFUSE(err, KILN_DRAW_SET_UNKNOWN_ID, "no program runtime");
    if (!draws) draw_count = 0;
    program_draw_set *set = program_draw_set_lookup(p, draw_set_id);
    bool ok = set != NULL;
    if (!set) REFUSE(err, KILN_DRAW_SET_UNKNOWN_ID, "draw_set_id: draw set %u is not live", draw_set_id);
    else if (first > set->count)
        ok = REFUSE(err, KILN_DRAW_SET_BAD_FIRST, "first: %u is past the set's %u draws (append at %u)", first,
                    set->count, set->count);
    else if ((uint64_t)first + draw_count > UINT32_MAX)
        ok = REFUSE(err, KILN_DRAW_SET_BAD_FIRST, "first: %u draws from %u pass the largest set", draw_count, first);
    for (uint32_t i = 0; ok && i < draw_count; i++) ok = check_draw(p, set, &draws[i], i, err);
    if (ok && !apply(p, set, first, draws, draw_count))
        ok = REFUSE(err, KILN_DRAW_SET_BAD_LAYOUT, "out of memory for %u more draws", draw_count);
    if (!ok)
        kiln_log_add(&p->log, KILN_LOG_WARN, "program", "dropped update_draw_set of draw set %u (%s): %s; the set is "
                     "as it was", draw_set_id, kiln_draw_set_class_name(err->cls), err->message);
    return ok;
}

bool kiln_programs_destroy_draw_set(kiln_programs *p, uint32_t draw_set_id) {
    if (!program_draw_set_lookup(p, draw_set_id)) {
        if (p) kiln_log_add(&p->log, KILN_LOG_WARN, "program", "destroy_draw_set: unknown draw set id %u", draw_set_id);
        return false;
    }
    free_set(p, program_id_table_retire(&p->draw_sets, draw_set_id), true); /* nothing holds a set */
    return true;
}

/* ---- the GPU side and the runtime's life ------------------------------------------------------------ */

bool program_draw_set_realize(kiln_programs *p, const program_draw_set *set, kiln_error *err) {
    for (uint32_t i = 0; i < set->geometry_hold_count; i++)
        if (!program_geometry_realize(p, set->geometry_holds[i].id, err)) return false;
    for (uint32_t i = 0; i < set->instance_hold_count; i++)
        if (!program_instances_realize(p, set->instance_holds[i].id, err)) return false;
    return true;
}

/* At runtime destroy the buffers go on their own, so the sets only free themselves. */
void program_draw_sets_free_all(kiln_programs *p) {
    for (uint32_t id = 1; id <= p->draw_sets.count; id++) free_set(p, program_draw_set_lookup(p, id), false);
    program_id_table_free(&p->draw_sets);
}

void program_draw_sets_move(kiln_programs *fresh, kiln_programs *old) {
    program_id_table_move(&fresh->draw_sets, &old->draw_sets);
}
