/* The id table of the program runtime (internal to src/program): programs, geometry, instance
 * buffers and draw sets each keep their items in one.
 *
 * Ids are dense and never reused: the first is 1, each create takes the next, and an id once
 * destroyed names nothing for the rest of the runtime's life (programs.md, "Geometry resources";
 * the spec's ids never come back). An item can be held (a draw set holds the geometry and instance
 * buffers its draws name): destroying a held item retires it, so its id names nothing at once, but
 * the item lives on for its holders until the last one lets go, which hands it back to be freed.
 * The table owns no item: whoever gets an item back from retire or release frees it.
 *
 * The upload queues of geometry and instance buffers live in their tables too: whatever leaves an
 * item to upload (a create, an update, a device replacement) marks the table pending, and each
 * record call's program_id_table_upload_step walks it round-robin, a few items per call, from
 * where the last call stopped, until a whole walk finds nothing left: a steady frame loop does not
 * walk every item each record call.
 *
 * Not in a table, because the runtime names them by no id of its own: program buffers (a pool by
 * size, program_buffers.c says why) and textures. A dispatch names registry textures (arrays and
 * volumes among them) by the registry's ids, which the texture registry hands out, checks and
 * retires for programs and renderer alike; the runtime copies those ids into its queue for one
 * record call, keeps the last record's write failures by them (program_write_failures), and keeps
 * no texture of its own under an id: its transients and depth slots are frame graph resources,
 * pooled by the graph. */
#ifndef KILN_PROGRAM_ID_TABLE_H
#define KILN_PROGRAM_ID_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/core/error.h>
#include <kiln/core/log.h>
#include <kiln/program.h>

typedef struct program_id_entry {
    void *item;       /* NULL once freed */
    uint32_t holders; /* holds taken and not let go */
    bool retired;     /* destroyed: the id names nothing; the item lives while held */
} program_id_entry;

/* Zero-initialised is an empty table whose next id is 1. */
typedef struct program_id_table {
    program_id_entry *entries; /* entries[id - 1] */
    uint32_t count;            /* ids handed out; the next id is count + 1 */
    uint32_t capacity;
    uint32_t cursor;           /* where the next upload step starts looking */
    bool uploads_pending;      /* an item may have something to upload */
} program_id_table;

/* Makes room for `more` ids, so that the creates that follow cannot fail on the table; false when
 * memory runs out or the ids would pass UINT32_MAX (nothing changed). */
bool program_id_table_reserve(program_id_table *t, uint32_t more);
/* Gives item the next id and returns it; a NULL item makes an id that names nothing (a device
 * replacement keeps the holes of destroyed programs). Call after program_id_table_reserve. */
uint32_t program_id_table_add(program_id_table *t, void *item);
/* The item id names, retired or not (what its holders see); NULL for an id never handed out or
 * one whose item was freed. */
void *program_id_table_held(const program_id_table *t, uint32_t id);
/* The live item id names: NULL when it is unknown or retired. */
void *program_id_table_lookup(const program_id_table *t, uint32_t id);
/* How many holds id's item has (0 for an unknown id). */
uint32_t program_id_table_holders(const program_id_table *t, uint32_t id);
/* Retires the live item id names. Returns it when nobody holds it (the id's entry is cleared and
 * the caller frees the item), NULL while it is held (the last release returns it) or when id
 * names no live item. */
void *program_id_table_retire(program_id_table *t, uint32_t id);
/* Takes a hold on id's item (retired or not); an unknown id is ignored. */
void program_id_table_hold(program_id_table *t, uint32_t id);
/* Lets go of a hold. Returns the item when this was the last hold of a retired item (its entry is
 * cleared and the caller frees it); NULL otherwise, and for an id that has no hold. */
void *program_id_table_release(program_id_table *t, uint32_t id);
/* Frees the entries (not the items: free those first) and empties the table; the next id starts
 * at 1 again, which only a runtime being destroyed may see. */
void program_id_table_free(program_id_table *t);
/* Moves every entry of `from` into `to` (empty), ids and holds with them, and leaves `from`
 * empty: a device replacement keeps every id. `to` is left pending (every item uploads again on
 * the new device), its upload steps starting from its own cursor. */
void program_id_table_move(program_id_table *to, program_id_table *from);

/* An upload queue over a table: what the warning of a failed upload is prefixed with, how many
 * uploads one step makes at most, whether an item has something to upload, and the upload itself
 * (false with err filled when it failed: the item stays pending and is tried on a later step). */
typedef struct program_upload_queue {
    const char *name;
    uint32_t budget;
    bool (*pending)(const void *item);
    bool (*upload)(kiln_programs *p, uint32_t id, kiln_error *err);
} program_upload_queue;

/* One step of the upload queue, nothing while the table is not pending: visits the entries
 * round-robin from where the last step stopped and uploads each pending item, at most
 * queue->budget of them, warning in `log` ("<name>: <error> (tried again later)") of each that
 * fails. A step that looked at every entry without reaching the budget and without a failure
 * leaves nothing pending, and clears the table's uploads_pending. */
void program_id_table_upload_step(program_id_table *t, const program_upload_queue *queue, kiln_programs *p,
                                  kiln_log *log);

#endif
