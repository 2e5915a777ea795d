/* IEEE 754 binary16 ("half") conversions, for RGBA16F images and half-precision vertex data. */
#ifndef KILN_CORE_HALF_H
#define KILN_CORE_HALF_H

#include <stdint.h>

/* Exact: every half value is representable as a float (NaNs keep their payload's top bits). */
float kiln_half_to_float(uint16_t h);
/* Rounds to nearest, ties to even. Values beyond the half range become infinity, values too
 * small for the smallest subnormal become (signed) zero, NaN stays NaN. */
uint16_t kiln_float_to_half(float f);

#endif
