/* The layout byte writer: WGSL alignments, padding, overflow and the size assertion. */
#include <kiln/core/bytes.h>

#include <stdint.h>

#include "test.h"

/* Storage pre-filled with a marker so padding that is not zeroed, or writes past the end, show. */
static uint8_t storage[256];

static void fill_marker(void) {
    memset(storage, 0xAB, sizeof storage);
}

static float f32_at(size_t offset) {
    float v;
    memcpy(&v, storage + offset, sizeof v);
    return v;
}

TEST(scalars_pack_at_four_byte_steps) {
    fill_marker();
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_f32(&w, 1.5f);
    kiln_bytes_u32(&w, 0xDEADBEEFu);
    kiln_bytes_i32(&w, -7);
    CHECK_EQ_INT(w.size, 12);
    CHECK(f32_at(0) == 1.5f);
    uint32_t u;
    int32_t i;
    memcpy(&u, storage + 4, 4);
    memcpy(&i, storage + 8, 4);
    CHECK(u == 0xDEADBEEFu);
    CHECK_EQ_INT(i, -7);
}

TEST(vec2_aligns_to_eight) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_f32(&w, 1);
    kiln_bytes_vec2(&w, (kiln_vec2){2, 3});
    CHECK_EQ_INT(w.size, 16);
    CHECK(f32_at(8) == 2 && f32_at(12) == 3);
}

TEST(vec3_aligns_to_sixteen_and_leaves_the_fourth_lane_free) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_f32(&w, 1);
    kiln_bytes_vec3(&w, kiln_vec3_make(2, 3, 4));
    CHECK_EQ_INT(w.size, 28);
    kiln_bytes_f32(&w, 5); /* packs into the vec3's fourth lane, as in WGSL */
    CHECK_EQ_INT(w.size, 32);
    CHECK(f32_at(16) == 2 && f32_at(24) == 4 && f32_at(28) == 5);
}

TEST(vec4_aligns_to_sixteen) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_u32(&w, 1);
    kiln_bytes_vec4(&w, kiln_vec4_make(1, 2, 3, 4));
    CHECK_EQ_INT(w.size, 32);
    CHECK(f32_at(16) == 1 && f32_at(28) == 4);
}

TEST(mat4_writes_columns_in_order) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_mat4(&w, kiln_mat4_translation(kiln_vec3_make(7, 8, 9)));
    CHECK_EQ_INT(w.size, 64);
    /* The translation column is the last 16 bytes. */
    CHECK(f32_at(48) == 7 && f32_at(52) == 8 && f32_at(56) == 9 && f32_at(60) == 1);
}

TEST(alignment_padding_is_zeroed) {
    fill_marker();
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_f32(&w, 1);
    kiln_bytes_align(&w, 16);
    CHECK_EQ_INT(w.size, 16);
    for (int i = 4; i < 16; i++) CHECK_EQ_INT(storage[i], 0);
    CHECK_EQ_INT(storage[16], 0xAB);
}

TEST(pad_to_reaches_the_offset_and_never_goes_back) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_pad_to(&w, 40);
    CHECK_EQ_INT(w.size, 40);
    kiln_bytes_pad_to(&w, 8);
    CHECK_EQ_INT(w.size, 40);
}

TEST(end_struct_rounds_size_up_to_struct_alignment) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_vec4(&w, kiln_vec4_make(0, 0, 0, 0));
    kiln_bytes_f32(&w, 1);
    kiln_bytes_end_struct(&w, 16);
    CHECK_EQ_INT(w.size, 32);
}

TEST(std140_array_f32_uses_a_sixteen_byte_stride) {
    fill_marker();
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    float v[3] = {1, 2, 3};
    kiln_bytes_u32(&w, 9);
    kiln_bytes_std140_array_f32(&w, v, 3);
    CHECK_EQ_INT(w.size, 16 + 3 * 16);
    CHECK(f32_at(16) == 1 && f32_at(32) == 2 && f32_at(48) == 3);
    CHECK_EQ_INT(storage[20], 0);
}

TEST(a_wgsl_struct_layout_matches_its_declared_size) {
    /* struct Camera { view: mat4x4<f32>, position: vec3<f32>, near: f32, size: vec2<f32> }
     * offsets 0, 64, 76, 80; size 88 rounded up to the 16-byte alignment: 96. */
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_mat4(&w, kiln_mat4_identity());
    kiln_bytes_vec3(&w, kiln_vec3_make(1, 2, 3));
    kiln_bytes_f32(&w, 0.1f);
    kiln_bytes_vec2(&w, (kiln_vec2){640, 480});
    kiln_bytes_end_struct(&w, 16);
    CHECK(f32_at(76) == 0.1f && f32_at(80) == 640);
    CHECK(kiln_bytes_expect(&w, 96, NULL));
}

TEST(overflow_sets_the_flag_and_writes_nothing_more) {
    fill_marker();
    kiln_bytes w;
    kiln_bytes_init(&w, storage, 8);
    kiln_bytes_f32(&w, 1);
    kiln_bytes_f32(&w, 2);
    CHECK(!w.overflow);
    kiln_bytes_f32(&w, 3);
    CHECK(w.overflow);
    CHECK_EQ_INT(w.size, 8);
    CHECK_EQ_INT(storage[8], 0xAB);
    /* A partly fitting write is refused whole, and so is everything after. */
    kiln_bytes_init(&w, storage, 20);
    kiln_bytes_vec3(&w, kiln_vec3_make(1, 1, 1));
    kiln_bytes_vec3(&w, kiln_vec3_make(9, 9, 9));
    CHECK(w.overflow);
    kiln_bytes_u32(&w, 0);
    CHECK_EQ_INT(w.size, 16);
    CHECK_EQ_INT(storage[16], 0xAB);
}

TEST(writer_without_storage_overflows_on_first_write) {
    kiln_bytes w;
    kiln_bytes_init(&w, NULL, 64);
    kiln_bytes_f32(&w, 1);
    CHECK(w.overflow);
    CHECK_EQ_INT(w.size, 0);
}

TEST(expect_reports_both_sizes_on_mismatch) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, sizeof storage);
    kiln_bytes_vec4(&w, kiln_vec4_make(1, 2, 3, 4));
    kiln_error err = {0};
    CHECK(!kiln_bytes_expect(&w, 32, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_FORMAT);
    CHECK_STR_CONTAINS(err.message, "16");
    CHECK_STR_CONTAINS(err.message, "32");
}

TEST(expect_fails_after_overflow_even_at_the_expected_size) {
    kiln_bytes w;
    kiln_bytes_init(&w, storage, 16);
    kiln_bytes_vec4(&w, kiln_vec4_make(1, 2, 3, 4));
    kiln_bytes_f32(&w, 5);
    kiln_error err = {0};
    CHECK(!kiln_bytes_expect(&w, 16, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_CAPACITY);
    CHECK_STR_CONTAINS(err.message, "overflow");
}

TEST_MAIN(T(scalars_pack_at_four_byte_steps), T(vec2_aligns_to_eight),
          T(vec3_aligns_to_sixteen_and_leaves_the_fourth_lane_free), T(vec4_aligns_to_sixteen),
          T(mat4_writes_columns_in_order), T(alignment_padding_is_zeroed),
          T(pad_to_reaches_the_offset_and_never_goes_back),
          T(end_struct_rounds_size_up_to_struct_alignment),
          T(std140_array_f32_uses_a_sixteen_byte_stride),
          T(a_wgsl_struct_layout_matches_its_declared_size),
          T(overflow_sets_the_flag_and_writes_nothing_more),
          T(writer_without_storage_overflows_on_first_write),
          T(expect_reports_both_sizes_on_mismatch),
          T(expect_fails_after_overflow_even_at_the_expected_size))
