/* Dense, never reused ids with holds and retirement (program_id_table.h). */
#include "program_id_table.h"

#include <stdlib.h>

#include <kiln/core/containers.h>

bool program_id_table_reserve(program_id_table *t, uint32_t more) {
    if (more > UINT32_MAX - t->count) return false; /* ids are never reused, so none would be left */
    program_id_entry *grown = kiln_array_reserve(t->entries, &t->capacity, t->count + more, sizeof *grown);
    if (!grown) return false;
    t->entries = grown;
    return true;
}

uint32_t program_id_table_add(program_id_table *t, void *item) {
    t->entries[t->count++] = (program_id_entry){.item = item};
    return t->count;
}

static program_id_entry *entry_of(const program_id_table *t, uint32_t id) {
    return id != 0 && id <= t->count && t->entries[id - 1].item ? &t->entries[id - 1] : NULL;
}

void *program_id_table_held(const program_id_table *t, uint32_t id) {
    program_id_entry *e = entry_of(t, id);
    return e ? e->item : NULL;
}

void *program_id_table_lookup(const program_id_table *t, uint32_t id) {
    program_id_entry *e = entry_of(t, id);
    return e && !e->retired ? e->item : NULL;
}

uint32_t program_id_table_holders(const program_id_table *t, uint32_t id) {
    program_id_entry *e = entry_of(t, id);
    return e ? e->holders : 0;
}

/* Clears the entry and hands its item to the caller to free. */
static void *take(program_id_entry *e) {
    void *item = e->item;
    *e = (program_id_entry){0};
    return item;
}

void *program_id_table_retire(program_id_table *t, uint32_t id) {
    program_id_entry *e = entry_of(t, id);
    if (!e || e->retired) return NULL;
    e->retired = true;
    return e->holders ? NULL : take(e);
}

void program_id_table_hold(program_id_table *t, uint32_t id) {
    program_id_entry *e = entry_of(t, id);
    if (e) e->holders++;
}

void *program_id_table_release(program_id_table *t, uint32_t id) {
    program_id_entry *e = entry_of(t, id);
    if (!e || !e->holders) return NULL;
    return --e->holders == 0 && e->retired ? take(e) : NULL;
}

void program_id_table_free(program_id_table *t) {
    free(t->entries);
    *t = (program_id_table){0};
}

void program_id_table_move(program_id_table *to, program_id_table *from) {
    uint32_t cursor = to->cursor;
    *to = *from;
    to->cursor = cursor;
    to->uploads_pending = true;
    *from = (program_id_table){0};
}

void program_id_table_upload_step(program_id_table *t, const program_upload_queue *queue, kiln_programs *p,
                                  kiln_log *log) {
    if (!t->uploads_pending) return;
    uint32_t uploaded = 0, looked = 0;
    bool failed = false;
    for (; looked < t->count && uploaded < queue->budget; looked++) {
        uint32_t i = t->cursor++ % t->count;
        const void *item = t->entries[i].item;
        if (!item || !queue->pending(item)) continue;
        kiln_error err = {0};
        if (!queue->upload(p, i + 1, &err)) {
            kiln_log_add(log, KILN_LOG_WARN, "program", "%s: %s (tried again later)", queue->name, err.message);
            failed = true;
        }
        uploaded++;
    }
    if (looked == t->count && uploaded < queue->budget && !failed) t->uploads_pending = false;
}
