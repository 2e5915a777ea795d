/* kiln_buffer_readbacks: a small region of a buffer read back a frame or more later, without
 * waiting: the copy, its token, the newest-first poll, the rotation's limit and the refusals. */
#include "gfx_fixture.h"

typedef struct readback_fixture {
    gfx_fixture f;
    kiln_buffer_readbacks *rb;
    kiln_buffer source; /* 16 words, word i = 100 + i */
} readback_fixture;

static bool readback_open(readback_fixture *t) {
    kiln_error err = {0};
    t->rb = kiln_buffer_readbacks_create(t->f.res, 8, &err);
    t->source = kiln_resources_create_buffer(t->f.res, &(kiln_buffer_desc){.label = "source", .size = 64,
        .usage = WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst}, &err);
    uint32_t words[16];
    for (uint32_t i = 0; i < 16; i++) words[i] = 100 + i;
    bool ok = t->rb && t->source.id && kiln_resources_write_buffer(t->f.res, t->source, 0, words, sizeof words, &err);
    if (!ok) fprintf(stderr, "readback_open: %s\n", err.message);
    return ok;
}

static void readback_close(readback_fixture *t) {
    kiln_buffer_readbacks_destroy(t->rb);
    kiln_resources_destroy_buffer(t->f.res, t->source, NULL);
}

/* One encoder carrying one copy of 8 bytes from `offset`, submitted. */
static bool submit_copy(readback_fixture *t, uint64_t offset, uint64_t token, kiln_error *err) {
    kiln_encoder enc;
    if (!kiln_encoder_begin(&enc, t->f.res, "readback", err)) return false;
    if (!kiln_buffer_readbacks_copy(t->rb, &enc, t->source, offset, token, err)) {
        kiln_encoder_discard(&enc);
        return false;
    }
    return kiln_encoder_finish_and_submit(&enc, err);
}

/* Waits for the queue and pumps until a copy has come back (bounded). */
static bool poll_until_done(readback_fixture *t, uint32_t out[2], uint64_t *token) {
    for (int tries = 0; tries < 100; tries++) {
        if (!kiln_gfx_wait_for_queue(t->f.gfx, NULL)) return false;
        kiln_gfx_pump(t->f.gfx, true);
        if (kiln_buffer_readbacks_poll(t->rb, out, token)) return true;
    }
    return false;
}

TEST(a_copy_comes_back_with_its_bytes_and_token) {
    readback_fixture t;
    FIXTURE_OPEN(t.f);
    CHECK(readback_open(&t));
    kiln_error err = {0};
    CHECK_MSG(submit_copy(&t, 12, 77, &err), "%s", err.message);
    uint32_t out[2] = {0};
    uint64_t token = 0;
    CHECK(poll_until_done(&t, out, &token));
    CHECK_EQ_INT(out[0], 103);
    CHECK_EQ_INT(out[1], 104);
    CHECK_EQ_INT(token, 77);
    CHECK_EQ_INT(kiln_buffer_readbacks_in_flight(t.rb), 0);
    CHECK(!kiln_buffer_readbacks_poll(t.rb, out, &token)); /* handed out once */
    readback_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(the_poll_hands_out_the_newest_and_frees_the_older) {
    readback_fixture t;
    FIXTURE_OPEN(t.f);
    CHECK(readback_open(&t));
    kiln_error err = {0};
    CHECK_MSG(submit_copy(&t, 0, 1, &err), "%s", err.message);
    CHECK_MSG(submit_copy(&t, 8, 2, &err), "%s", err.message);
    CHECK_MSG(submit_copy(&t, 16, 3, &err), "%s", err.message);
    /* Every copy is submitted before the waits, and a few pumps bring all three maps in. */
    for (int i = 0; i < 5; i++) {
        CHECK(kiln_gfx_wait_for_queue(t.f.gfx, &err));
        kiln_gfx_pump(t.f.gfx, true);
    }
    uint32_t out[2] = {0};
    uint64_t token = 0;
    CHECK(kiln_buffer_readbacks_poll(t.rb, out, &token));
    CHECK_EQ_INT(token, 3);
    CHECK_EQ_INT(out[0], 104);
    CHECK_EQ_INT(kiln_buffer_readbacks_in_flight(t.rb), 0);
    readback_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(a_fifth_copy_in_flight_is_refused_and_a_discard_frees_its_buffer) {
    readback_fixture t;
    FIXTURE_OPEN(t.f);
    CHECK(readback_open(&t));
    kiln_error err = {0};
    kiln_encoder enc;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "readback", &err));
    for (uint64_t i = 0; i < KILN_BUFFER_READBACKS; i++)
        CHECK_MSG(kiln_buffer_readbacks_copy(t.rb, &enc, t.source, 0, i, &err), "%s", err.message);
    CHECK(!kiln_buffer_readbacks_copy(t.rb, &enc, t.source, 0, 9, &err));
    CHECK_STR_CONTAINS(err.message, "buffer readbacks: all 4 readback buffers are in flight");
    CHECK_EQ_INT(kiln_buffer_readbacks_in_flight(t.rb), KILN_BUFFER_READBACKS);
    kiln_encoder_discard(&enc);
    CHECK_EQ_INT(kiln_buffer_readbacks_in_flight(t.rb), 0);
    readback_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST(bad_sizes_and_an_open_pass_are_refused_naming_them) {
    readback_fixture t;
    FIXTURE_OPEN(t.f);
    CHECK(readback_open(&t));
    kiln_error err = {0};
    static const uint32_t bad[] = {0, 6, KILN_BUFFER_READBACK_MAX_SIZE + 4};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!kiln_buffer_readbacks_create(t.f.res, bad[i], &err));
        CHECK_STR_CONTAINS(err.message, "is not a multiple of 4 in 4..256");
    }
    kiln_encoder enc;
    kiln_compute_pass pass;
    CHECK(kiln_encoder_begin(&enc, t.f.res, "readback", &err));
    CHECK(kiln_encoder_begin_compute_pass(&enc, "open", &pass, &err));
    CHECK(!kiln_buffer_readbacks_copy(t.rb, &enc, t.source, 0, 1, &err));
    CHECK_STR_CONTAINS(err.message, "end the open pass first");
    kiln_compute_pass_end(&pass);
    kiln_encoder_discard(&enc);
    CHECK_EQ_INT(kiln_buffer_readbacks_in_flight(t.rb), 0);
    readback_close(&t);
    FIXTURE_CLOSE_CLEAN(t.f);
}

TEST_MAIN(T(a_copy_comes_back_with_its_bytes_and_token), T(the_poll_hands_out_the_newest_and_frees_the_older),
          T(a_fifth_copy_in_flight_is_refused_and_a_discard_frees_its_buffer),
          T(bad_sizes_and_an_open_pass_are_refused_naming_them))
