/* The id table under the program runtime's geometry, instance buffers and draw sets
 * (src/program/program_id_table.c): dense ids never reused, holds, retirement that waits for the
 * last holder, and the round-robin upload step. Pure CPU: items are plain ints here. */
#include <stdlib.h>
#include <string.h>

#include "program/program_id_table.h"

#include "test.h"

/* A table holding `n` items, ids 1..n naming items[0..n-1]. */
static void fill(program_id_table *t, int *items, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        CHECK(program_id_table_reserve(t, 1));
        CHECK_EQ_INT(program_id_table_add(t, &items[i]), i + 1);
    }
}

TEST(ids_start_at_1_and_are_never_reused) {
    program_id_table t = {0};
    int items[3] = {10, 20, 30};
    fill(&t, items, 2);
    CHECK(program_id_table_retire(&t, 1) == &items[0]);
    CHECK(program_id_table_reserve(&t, 1));
    CHECK_EQ_INT(program_id_table_add(&t, &items[2]), 3); /* not 1 again */
    CHECK(program_id_table_lookup(&t, 1) == NULL);
    CHECK(program_id_table_lookup(&t, 2) == &items[1]);
    CHECK(program_id_table_lookup(&t, 3) == &items[2]);
    program_id_table_free(&t);
}

TEST(unknown_ids_name_nothing) {
    program_id_table t = {0};
    int item = 1;
    CHECK(program_id_table_lookup(&t, 1) == NULL); /* an empty table */
    fill(&t, &item, 1);
    static const uint32_t unknown[] = {0, 2, UINT32_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CHECK(program_id_table_lookup(&t, unknown[i]) == NULL);
        CHECK(program_id_table_held(&t, unknown[i]) == NULL);
        CHECK(program_id_table_retire(&t, unknown[i]) == NULL);
        CHECK(program_id_table_release(&t, unknown[i]) == NULL);
        program_id_table_hold(&t, unknown[i]); /* ignored */
        CHECK_EQ_INT(program_id_table_holders(&t, unknown[i]), 0);
    }
    CHECK_EQ_INT(program_id_table_holders(&t, 1), 0);
    program_id_table_free(&t);
}

TEST(a_held_item_retired_lives_until_the_last_release) {
    program_id_table t = {0};
    int item = 7;
    fill(&t, &item, 1);
    program_id_table_hold(&t, 1);
    program_id_table_hold(&t, 1);
    CHECK_EQ_INT(program_id_table_holders(&t, 1), 2);
    CHECK(program_id_table_retire(&t, 1) == NULL);      /* held: not handed back yet */
    CHECK(program_id_table_lookup(&t, 1) == NULL);      /* but its id names nothing */
    CHECK(program_id_table_held(&t, 1) == &item);       /* its holders still see it */
    CHECK(program_id_table_retire(&t, 1) == NULL);      /* retiring twice does nothing */
    CHECK(program_id_table_release(&t, 1) == NULL);     /* one holder left */
    CHECK(program_id_table_release(&t, 1) == &item);    /* the last: the caller frees it */
    CHECK(program_id_table_held(&t, 1) == NULL);
    CHECK(program_id_table_release(&t, 1) == NULL);     /* nothing left to let go */
    program_id_table_free(&t);
}

TEST(releasing_a_live_item_keeps_it) {
    program_id_table t = {0};
    int item = 7;
    fill(&t, &item, 1);
    program_id_table_hold(&t, 1);
    CHECK(program_id_table_release(&t, 1) == NULL);
    CHECK(program_id_table_lookup(&t, 1) == &item);
    CHECK(program_id_table_release(&t, 1) == NULL); /* no hold: a release is ignored */
    CHECK(program_id_table_retire(&t, 1) == &item); /* unheld: handed back at once */
    program_id_table_free(&t);
}

TEST(a_move_keeps_every_id_and_hold) {
    program_id_table from = {0}, to = {0};
    int items[2] = {1, 2};
    fill(&from, items, 2);
    program_id_table_hold(&from, 2);
    program_id_table_move(&to, &from);
    CHECK(to.uploads_pending); /* every item uploads again on the new device */
    CHECK(program_id_table_lookup(&from, 1) == NULL);
    CHECK_EQ_INT(from.count, 0);
    CHECK(program_id_table_lookup(&to, 1) == &items[0]);
    CHECK_EQ_INT(program_id_table_holders(&to, 2), 1);
    CHECK(program_id_table_reserve(&to, 1));
    CHECK_EQ_INT(program_id_table_add(&to, &items[0]), 3);
    program_id_table_free(&to);
}

/* ---- upload steps ---------------------------------------------------------------------------- */

/* What the fake uploads saw: the ids in order, and the id whose upload fails (0: none). */
typedef struct upload_record {
    uint32_t order[16], count;
    uint32_t failing;
} upload_record;
static upload_record uploads;

static bool is_pending(const void *item) { return *(const int *)item != 0; }

static bool record_upload(kiln_programs *p, uint32_t id, kiln_error *err) {
    (void)p;
    uploads.order[uploads.count++] = id;
    return id != uploads.failing || kiln_error_set(err, KILN_ERR_GPU, "item %u: no buffer", id);
}

static const program_upload_queue TWO_A_STEP = {"test queue", 2, is_pending, record_upload};
static const program_upload_queue FOUR_A_STEP = {"test queue", 4, is_pending, record_upload};

TEST(an_upload_step_visits_pending_items_round_robin_within_its_budget) {
    program_id_table t = {0};
    int items[5] = {1, 0, 1, 1, 1}; /* id 2 has nothing to upload */
    fill(&t, items, 5);
    t.uploads_pending = true;
    uploads = (upload_record){0};
    program_id_table_upload_step(&t, &TWO_A_STEP, NULL, NULL);
    CHECK(t.uploads_pending); /* the budget ran out */
    CHECK_EQ_INT(uploads.count, 2);
    CHECK_EQ_INT(uploads.order[0], 1);
    CHECK_EQ_INT(uploads.order[1], 3);
    items[0] = items[2] = 0;
    /* The next step starts where this one stopped: ids 4 and 5, then around to 1 and 2. */
    program_id_table_upload_step(&t, &TWO_A_STEP, NULL, NULL);
    CHECK(t.uploads_pending);
    CHECK_EQ_INT(uploads.order[2], 4);
    CHECK_EQ_INT(uploads.order[3], 5);
    items[3] = items[4] = 0;
    program_id_table_upload_step(&t, &TWO_A_STEP, NULL, NULL);
    CHECK(!t.uploads_pending); /* a whole walk found nothing left */
    CHECK_EQ_INT(uploads.count, 4);
    items[1] = 1;
    program_id_table_upload_step(&t, &TWO_A_STEP, NULL, NULL);
    CHECK_EQ_INT(uploads.count, 4); /* not pending: a step does not walk */
    program_id_table_free(&t);
}

TEST(a_failed_upload_is_logged_and_keeps_the_table_pending) {
    program_id_table t = {0};
    int items[2] = {1, 0};
    fill(&t, items, 2);
    t.uploads_pending = true;
    uploads = (upload_record){.failing = 1};
    kiln_log log;
    CHECK(kiln_log_init(&log, 4));
    program_id_table_upload_step(&t, &FOUR_A_STEP, NULL, &log);
    CHECK(t.uploads_pending);
    CHECK_EQ_INT(uploads.count, 1);
    kiln_log_record r;
    CHECK(kiln_log_take(&log, &r));
    CHECK_MSG(strcmp(r.message, "test queue: item 1: no buffer (tried again later)") == 0, "%s", r.message);
    uploads.failing = 0;
    items[0] = 0;
    program_id_table_upload_step(&t, &FOUR_A_STEP, NULL, &log);
    CHECK(!t.uploads_pending);
    CHECK(!kiln_log_take(&log, &r));
    program_id_table empty = {.uploads_pending = true};
    program_id_table_upload_step(&empty, &FOUR_A_STEP, NULL, &log);
    CHECK(!empty.uploads_pending);
    kiln_log_free(&log);
    program_id_table_free(&t);
}

TEST(freed_entries_are_skipped_by_an_upload_step) {
    program_id_table t = {0};
    int items[2] = {1, 1};
    fill(&t, items, 2);
    CHECK(program_id_table_retire(&t, 1) == &items[0]);
    t.uploads_pending = true;
    uploads = (upload_record){0};
    program_id_table_upload_step(&t, &FOUR_A_STEP, NULL, NULL);
    CHECK(!t.uploads_pending);
    CHECK_EQ_INT(uploads.count, 1);
    CHECK_EQ_INT(uploads.order[0], 2);
    program_id_table_free(&t);
}

TEST_MAIN(T(ids_start_at_1_and_are_never_reused), T(unknown_ids_name_nothing),
          T(a_held_item_retired_lives_until_the_last_release), T(releasing_a_live_item_keeps_it),
          T(a_move_keeps_every_id_and_hold), T(an_upload_step_visits_pending_items_round_robin_within_its_budget),
          T(a_failed_upload_is_logged_and_keeps_the_table_pending), T(freed_entries_are_skipped_by_an_upload_step))
