/* The watercolour develop: the worked consumer of authored render programs (README.md here).
 *
 * Three pieces share this header:
 *   - the layout: where each pass's uniform window sits in the one blob, and the sizes of the
 *     WGSL structs in watercolour.wgsl that those windows cover;
 *   - the palette (watercolour_palette.c): the "dispatch encoder" that writes one painting's
 *     parameters into a blob, and the pre-rolled noise bytes the granulation and ragged edges read;
 *   - the oracle (watercolour_oracle.c): the same develop on the CPU, pass by pass, from a blob and
 *     the noise, mirroring what the GPU does (bilinear reads at texel centres, half-float
 *     transients, an Rgba8 sheet) so the two agree to within a few 1/255 steps.
 *
 * The script generator (watercolour_script.c) writes watercolour.json from the same layout and
 * palette, and tests/program/test_watercolour.c compares the GPU's sheet with the oracle's. */
#ifndef KILN_WATERCOLOUR_ORACLE_H
#define KILN_WATERCOLOUR_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The sheet the script develops; the program itself scales to any size (its graph carries only
 * ratios), and the oracle takes the size as an argument. */
#define WASH_WIDTH 256
#define WASH_HEIGHT 192
/* The noise texture: R8, square, tiled (Filtered Repeat). */
#define WASH_NOISE_SIDE 64

/* Four washes travel together, one per channel of every Rgba16Float plane. */
#define WASH_LAYERS 4
/* Wet patches laid on the paper before the washes (wet-in-wet areas). */
#define WASH_WATER_PATCHES 2
/* Shapes laid by the coverage pass (its repeat count): the sky is two overlapping shapes, so its
 * wet-in-wet density grades toward the top, and the foreground two. */
#define WASH_SHAPES 6
/* Pair taps on each side of a blur's centre tap: up to 2 * 8 * 2 + 1 = 33 texels. */
#define WASH_BLUR_PAIRS 8

/* Bytes of each WGSL uniform struct (WGSL layout: every member here is a vec4f or an array of
 * them, so a struct is 16 bytes per vec4f). */
#define WASH_SHAPE_BYTES 96     /* Shape: six vec4f */
#define WASH_BLUR_BYTES 80      /* Blur: axis, offsets[2], weights[2] */
#define WASH_EDGE_BYTES 64      /* Edge: threshold, width, base, rim */
#define WASH_GRANULATE_BYTES 64 /* Granulate: strength, octave0, octave1, octave_mix */
#define WASH_GAIN_BYTES 16      /* Gain: gain */
#define WASH_FLOW_BYTES 32      /* Flow: amount, gain */
#define WASH_PAPER_BYTES 48     /* Paper: absorb, grain, octave */
#define WASH_LAYER_BYTES 32     /* Layer: channel, absorb */
#define WASH_COMPOSITE_BYTES 16 /* Composite: white */

/* The passes, in sequence order, and the transients they write. */
typedef enum wash_pass {
    WASH_PASS_WATER,        /* fs_coverage x2, Additive -> water (R16Float) */
    WASH_PASS_WATER_H,      /* fs_blur -> water_h (R16Float) */
    WASH_PASS_WATER_V,      /* fs_blur -> water_soft (R16Float) */
    WASH_PASS_COVERAGE,     /* fs_coverage x6, Additive -> coverage (Rgba16Float) */
    WASH_PASS_BLEED_H,      /* fs_blur -> bleed_h */
    WASH_PASS_BLEED_V,      /* fs_blur -> bleed */
    WASH_PASS_WET_EDGE,     /* fs_wet_edge (bleed, water_soft) -> density */
    WASH_PASS_GRANULATE,    /* fs_granulate (density, noise) -> pigment */
    WASH_PASS_DOWNSAMPLE,   /* fs_downsample (pigment) -> flow_half (Divided 2) */
    WASH_PASS_FLOW_H,       /* fs_blur -> flow_half_h (Divided 2) */
    WASH_PASS_FLOW_V,       /* fs_blur -> flow_half_v (Divided 2) */
    WASH_PASS_FLOW,         /* fs_flow (pigment, flow_half_v, water_soft) -> settled */
    WASH_PASS_PAPER,        /* fs_paper (noise), Replace -> absorbance */
    WASH_PASS_LAYER,        /* fs_layer x4 (settled), Additive -> absorbance */
    WASH_PASS_COMPOSITE,    /* fs_composite (absorbance), Replace -> the sheet binding */
    WASH_PASS_COUNT
} wash_pass;

/* One pass's place in the blob: its window and, for a repeated pass, the iteration count and
 * stride (count 0: not repeated). */
typedef struct wash_window {
    uint32_t offset, length;
    uint32_t repeat_count, repeat_stride;
} wash_window;

/* Fills windows[WASH_PASS_COUNT]: bump-allocated in pass order, packed tight (a repeated pass
 * takes count * stride bytes). */
void wash_layout(wash_window windows[WASH_PASS_COUNT]);
/* The blob's total size: the end of the last window. */
size_t wash_blob_size(void);

/* ---- the palette ---------------------------------------------------------------------------- */

/* Writes the painting's parameters into blob (wash_blob_size() bytes) for a sheet of the given
 * size (the aspect ratio and the noise tiling depend on it). */
void wash_build_blob(uint8_t *blob, uint32_t width, uint32_t height);
/* Writes WASH_NOISE_SIDE^2 bytes of pre-rolled, tileable, smoothed value noise. */
void wash_build_noise(uint8_t *noise);

/* ---- the oracle ----------------------------------------------------------------------------- */

/* Develops the sheet on the CPU: rgba receives width * height * 4 bytes, rows top-down. Fails
 * (writing nothing) when the blob is shorter than wash_blob_size() or a size is zero or the work
 * memory cannot be allocated. */
bool wash_develop(const uint8_t *blob, size_t blob_size, const uint8_t *noise, uint32_t width, uint32_t height,
                  uint8_t *rgba);

#endif
