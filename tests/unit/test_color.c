/* The sRGB transfer functions at known points: the ends, both sides of the standard's thresholds,
 * mid grey, clamping, and the round trip. */
#include <kiln/core/color.h>

#include "test.h"

TEST(the_ends_map_to_themselves) {
    CHECK_NEAR(kiln_srgb_to_linear(0.0f), 0.0, 0);
    CHECK_NEAR(kiln_srgb_to_linear(1.0f), 1.0, 1e-6);
    CHECK_NEAR(kiln_linear_to_srgb(0.0f), 0.0, 0);
    CHECK_NEAR(kiln_linear_to_srgb(1.0f), 1.0, 1e-6);
}

TEST(the_thresholds_join_the_linear_segment_and_the_curve) {
    /* 0.04045 / 12.92 = 0.0031308: each threshold is the other's image. */
    CHECK_NEAR(kiln_srgb_to_linear(0.04045f), 0.04045 / 12.92, 1e-9);
    CHECK_NEAR(kiln_linear_to_srgb(0.0031308f), 0.0031308 * 12.92, 1e-7);
    /* Just past each threshold the power curve continues without a visible step. */
    CHECK_NEAR(kiln_srgb_to_linear(0.04046f), 0.0031308, 1e-5);
    CHECK_NEAR(kiln_linear_to_srgb(0.0031309f), 0.04045, 1e-5);
}

TEST(mid_grey_lands_where_the_standard_puts_it) {
    CHECK_NEAR(kiln_srgb_to_linear(0.5f), 0.214041, 1e-6);
    CHECK_NEAR(kiln_linear_to_srgb(0.5f), 0.735357, 1e-6);
    CHECK_NEAR(kiln_linear_to_srgb(0.18f), 0.461356, 1e-6);
}

TEST(values_outside_zero_to_one_are_clamped) {
    CHECK_NEAR(kiln_srgb_to_linear(-0.5f), 0.0, 0);
    CHECK_NEAR(kiln_srgb_to_linear(2.0f), 1.0, 1e-6);
    CHECK_NEAR(kiln_linear_to_srgb(-1.0f), 0.0, 0);
    CHECK_NEAR(kiln_linear_to_srgb(7.0f), 1.0, 1e-6);
    CHECK_NEAR(kiln_linear_to_srgb(NAN), 0.0, 0);
}

TEST(decode_undoes_encode) {
    for (int i = 0; i <= 100; i++) {
        float x = (float)i / 100.0f;
        CHECK_NEAR(kiln_srgb_to_linear(kiln_linear_to_srgb(x)), x, 1e-6);
    }
}

TEST_MAIN(T(the_ends_map_to_themselves), T(the_thresholds_join_the_linear_segment_and_the_curve),
          T(mid_grey_lands_where_the_standard_puts_it), T(values_outside_zero_to_one_are_clamped),
          T(decode_undoes_encode))
