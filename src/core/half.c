/* Half-float conversions by bit manipulation.
 *
 * float: 1 sign, 8 exponent (bias 127), 23 mantissa bits.
 * half:  1 sign, 5 exponent (bias 15),  10 mantissa bits; exponent 0 is zero/subnormal
 *        (value = mantissa * 2^-24) and exponent 31 is infinity/NaN. */
#include <kiln/core/half.h>

#include <math.h>
#include <string.h>

float kiln_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1Fu;
    uint32_t mantissa = h & 0x3FFu;

    if (exponent == 0) {
        /* Zero or subnormal: exactly mantissa * 2^-24, which a float holds as a normal number. */
        float magnitude = ldexpf((float)mantissa, -24);
        return sign ? -magnitude : magnitude;
    }

    uint32_t bits;
    if (exponent == 31) bits = sign | 0x7F800000u | (mantissa << 13); /* inf or NaN */
    else bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);

    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Drops the low `shift` bits of value, rounding to nearest with ties to even. A carry out of
 * the mantissa correctly bumps the exponent when the caller adds the result to it. */
static uint32_t shift_round_even(uint32_t value, uint32_t shift) {
    uint32_t kept = value >> shift;
    uint32_t rest = value & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (kept & 1u))) kept++;
    return kept;
}

uint16_t kiln_float_to_half(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);

    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    int32_t exponent = (int32_t)((bits >> 23) & 0xFFu);
    uint32_t mantissa = bits & 0x7FFFFFu;

    if (exponent == 0xFF) {
        if (mantissa == 0) return sign | 0x7C00u;
        /* Keep the NaN quiet and non-zero whatever its payload. */
        return (uint16_t)(sign | 0x7E00u | (mantissa >> 13));
    }

    int32_t half_exponent = exponent - 127 + 15;
    if (half_exponent >= 31) return sign | 0x7C00u; /* too large: infinity */

    if (half_exponent <= 0) {
        /* Subnormal half (or zero). The value is 1.mantissa * 2^(half_exponent - 15), and a
         * subnormal counts units of 2^-24, so the 24-bit significand shifts right by
         * 14 - half_exponent. Beyond 24 bits even the rounding bit is gone: the result is 0. */
        if (half_exponent < -10) return sign;
        uint32_t significand = mantissa | 0x800000u;
        return (uint16_t)(sign | shift_round_even(significand, (uint32_t)(14 - half_exponent)));
    }

    /* Normal: keep 10 of the 23 mantissa bits. Rounding may carry into the exponent, even up to
     * 31 (infinity), which is the correctly rounded answer for values near 65520. */
    uint32_t rounded = ((uint32_t)half_exponent << 10) + shift_round_even(mantissa, 13);
    return (uint16_t)(sign | rounded);
}
