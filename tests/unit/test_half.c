/* Half-float conversions: exact round trips, rounding to nearest even, and the special values. */
#include <kiln/core/half.h>

#include <stdint.h>

#include "test.h"

TEST(every_half_survives_a_round_trip_through_float) {
    for (uint32_t h = 0; h <= 0xFFFF; h++) {
        float f = kiln_half_to_float((uint16_t)h);
        bool is_nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0;
        if (is_nan) {
            CHECK_MSG(isnan(f), "half 0x%04x", h);
            CHECK_MSG(isnan(kiln_half_to_float(kiln_float_to_half(f))), "half 0x%04x", h);
        } else {
            CHECK_MSG(kiln_float_to_half(f) == h, "half 0x%04x -> %g -> 0x%04x", h, f,
                      kiln_float_to_half(f));
        }
    }
}

TEST(known_values_convert_exactly) {
    CHECK_EQ_INT(kiln_float_to_half(1.0f), 0x3C00);
    CHECK_EQ_INT(kiln_float_to_half(-2.0f), 0xC000);
    CHECK_EQ_INT(kiln_float_to_half(0.5f), 0x3800);
    CHECK_EQ_INT(kiln_float_to_half(65504.0f), 0x7BFF);
    CHECK(kiln_half_to_float(0x3555) == 0.333251953125f);
    CHECK(kiln_half_to_float(0x0001) == ldexpf(1.0f, -24));
}

TEST(ties_round_to_even) {
    /* Half has 10 mantissa bits, so near 1 the step is 2^-10. */
    CHECK_EQ_INT(kiln_float_to_half(1.0f + ldexpf(1, -11)), 0x3C00);     /* tie, down to even */
    CHECK_EQ_INT(kiln_float_to_half(1.0f + 3 * ldexpf(1, -11)), 0x3C02); /* tie, up to even */
    CHECK_EQ_INT(kiln_float_to_half(1.0f + ldexpf(1, -11) + ldexpf(1, -20)), 0x3C01);
}

TEST(values_beyond_the_range_become_infinity) {
    CHECK_EQ_INT(kiln_float_to_half(65519.0f), 0x7BFF);
    CHECK_EQ_INT(kiln_float_to_half(65520.0f), 0x7C00);
    CHECK_EQ_INT(kiln_float_to_half(1e10f), 0x7C00);
    CHECK_EQ_INT(kiln_float_to_half(-1e10f), 0xFC00);
}

TEST(tiny_values_become_subnormal_or_zero) {
    CHECK_EQ_INT(kiln_float_to_half(ldexpf(1, -14)), 0x0400);      /* smallest normal */
    CHECK_EQ_INT(kiln_float_to_half(ldexpf(1, -24)), 0x0001);      /* smallest subnormal */
    CHECK_EQ_INT(kiln_float_to_half(ldexpf(1, -25)), 0x0000);      /* tie with zero: even */
    CHECK_EQ_INT(kiln_float_to_half(ldexpf(1.5f, -25)), 0x0001);
    CHECK_EQ_INT(kiln_float_to_half(ldexpf(3, -25)), 0x0002);      /* 1.5 units: tie, to even */
    CHECK_EQ_INT(kiln_float_to_half(ldexpf(1, -30)), 0x0000);
    CHECK_EQ_INT(kiln_float_to_half(-ldexpf(1, -30)), 0x8000);
    CHECK_EQ_INT(kiln_float_to_half(1e-40f), 0x0000); /* a float subnormal */
}

TEST(infinity_nan_and_negative_zero_are_kept) {
    CHECK_EQ_INT(kiln_float_to_half(INFINITY), 0x7C00);
    CHECK_EQ_INT(kiln_float_to_half(-INFINITY), 0xFC00);
    uint16_t nan = kiln_float_to_half(NAN);
    CHECK((nan & 0x7C00) == 0x7C00 && (nan & 0x3FF) != 0);
    CHECK_EQ_INT(kiln_float_to_half(-0.0f), 0x8000);
    CHECK(isinf(kiln_half_to_float(0x7C00)) && kiln_half_to_float(0xFC00) < 0);
    CHECK(signbit(kiln_half_to_float(0x8000)));
}

TEST_MAIN(T(every_half_survives_a_round_trip_through_float), T(known_values_convert_exactly),
          T(ties_round_to_even), T(values_beyond_the_range_become_infinity),
          T(tiny_values_become_subnormal_or_zero), T(infinity_nan_and_negative_zero_are_kept))
