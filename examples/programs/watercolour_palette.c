/* The painting: the window layout, the dispatch encoder that writes one painting's parameters into
 * the uniform blob, and the pre-rolled noise. Everything that varies per develop is decided here;
 * the WGSL and the oracle only read it. */
#include "watercolour_oracle.h"

#include <math.h>
#include <string.h>

/* ---- the layout ------------------------------------------------------------------------------ */

/* Each pass's window length (its WGSL struct) and repeat count, in pass order. */
static const struct {
    uint32_t length, repeat_count;
} pass_windows[WASH_PASS_COUNT] = {
    [WASH_PASS_WATER] = {WASH_SHAPE_BYTES, WASH_WATER_PATCHES},
    [WASH_PASS_WATER_H] = {WASH_BLUR_BYTES, 0},
    [WASH_PASS_WATER_V] = {WASH_BLUR_BYTES, 0},
    [WASH_PASS_COVERAGE] = {WASH_SHAPE_BYTES, WASH_SHAPES},
    [WASH_PASS_BLEED_H] = {WASH_BLUR_BYTES, 0},
    [WASH_PASS_BLEED_V] = {WASH_BLUR_BYTES, 0},
    [WASH_PASS_WET_EDGE] = {WASH_EDGE_BYTES, 0},
    [WASH_PASS_GRANULATE] = {WASH_GRANULATE_BYTES, 0},
    [WASH_PASS_DOWNSAMPLE] = {WASH_GAIN_BYTES, 0},
    [WASH_PASS_FLOW_H] = {WASH_BLUR_BYTES, 0},
    [WASH_PASS_FLOW_V] = {WASH_BLUR_BYTES, 0},
    [WASH_PASS_FLOW] = {WASH_FLOW_BYTES, 0},
    [WASH_PASS_PAPER] = {WASH_PAPER_BYTES, 0},
    [WASH_PASS_LAYER] = {WASH_LAYER_BYTES, WASH_LAYERS},
    [WASH_PASS_COMPOSITE] = {WASH_COMPOSITE_BYTES, 0},
};

/* Bump allocation with no padding: the executor stages each window into aligned storage itself,
 * so the blob packs tight. */
void wash_layout(wash_window out[WASH_PASS_COUNT]) {
    uint32_t offset = 0;
    for (uint32_t i = 0; i < WASH_PASS_COUNT; i++) {
        uint32_t count = pass_windows[i].repeat_count;
        out[i] = (wash_window){offset, pass_windows[i].length, count, count ? pass_windows[i].length : 0};
        offset += pass_windows[i].length * (count ? count : 1);
    }
}

size_t wash_blob_size(void) {
    wash_window w[WASH_PASS_COUNT];
    wash_layout(w);
    const wash_window *last = &w[WASH_PASS_COUNT - 1];
    return (size_t)last->offset + (size_t)last->length * (last->repeat_count ? last->repeat_count : 1);
}

/* ---- the encoder ----------------------------------------------------------------------------- */

/* Writes one vec4f at byte offset `at` and returns the offset after it. */
static uint32_t put4(uint8_t *blob, uint32_t at, float x, float y, float z, float w) {
    const float v[4] = {x, y, z, w};
    memcpy(blob + at, v, sizeof v);
    return at + (uint32_t)sizeof v;
}

/* One wobbly ellipse of the coverage or water pass. */
typedef struct shape_params {
    float cx, cy, rx, ry, rotation;
    float softness, ragged;
    float amp[3], phase[3], freq[3];
    float channel[4];  /* coverage added to each wash: one-hot, or negative where it lifts one */
} shape_params;

static void put_shape(uint8_t *blob, uint32_t at, const shape_params *s, float aspect, float tile_x, float tile_y) {
    at = put4(blob, at, s->cx, s->cy, s->rx, s->ry);
    at = put4(blob, at, cosf(s->rotation), sinf(s->rotation), s->softness, s->ragged);
    at = put4(blob, at, s->amp[0], s->amp[1], s->amp[2], aspect);
    at = put4(blob, at, s->phase[0], s->phase[1], s->phase[2], tile_x);
    at = put4(blob, at, s->freq[0], s->freq[1], s->freq[2], tile_y);
    put4(blob, at, s->channel[0], s->channel[1], s->channel[2], s->channel[3]);
}

/* A separable Gaussian of standard deviation sigma texels, truncated at 2 * pairs texels, along
 * (dx, dy). Tap k weighs exp(-k^2 / 2 sigma^2), normalised over -2 pairs .. 2 pairs. Taps 2j + 1
 * and 2j + 2 become pair j: one filtered read at their weighted mean offset carries both (the
 * bilinear filter splits the pair's weight back between the two texels). Unused pairs weigh 0. */
static void put_blur(uint8_t *blob, uint32_t at, float dx, float dy, float sigma, uint32_t pairs) {
    double tap[2 * WASH_BLUR_PAIRS + 1];
    double total = 0.0;
    for (uint32_t k = 0; k <= 2 * pairs; k++) {
        tap[k] = exp(-(double)(k * k) / (2.0 * sigma * sigma));
        total += k ? 2.0 * tap[k] : tap[k];
    }
    float offsets[WASH_BLUR_PAIRS] = {0}, weights[WASH_BLUR_PAIRS] = {0};
    for (uint32_t j = 0; j < pairs; j++) {
        double a = tap[2 * j + 1], b = tap[2 * j + 2];
        weights[j] = (float)((a + b) / total);
        offsets[j] = (float)(((2 * j + 1) * a + (2 * j + 2) * b) / (a + b));
    }
    at = put4(blob, at, dx, dy, (float)(tap[0] / total), 0.0f);
    at = put4(blob, at, offsets[0], offsets[1], offsets[2], offsets[3]);
    at = put4(blob, at, offsets[4], offsets[5], offsets[6], offsets[7]);
    at = put4(blob, at, weights[0], weights[1], weights[2], weights[3]);
    put4(blob, at, weights[4], weights[5], weights[6], weights[7]);
}

/* The four pigments, as the colour a density of 1 leaves on white paper; glazing multiplies
 * light, so each is laid as its absorbance -ln(colour). */
static const float pigments[WASH_LAYERS][3] = {
    {0.30f, 0.47f, 0.82f}, /* 0: ultramarine sky */
    {0.56f, 0.46f, 0.62f}, /* 1: violet-grey distant hills */
    {0.36f, 0.66f, 0.24f}, /* 2: sap green foreground */
    {0.98f, 0.70f, 0.22f}, /* 3: quinacridone gold sun */
};

/* The wet patches: the sky was painted wet-in-wet, and the sun dropped into its own puddle. */
static const shape_params water[WASH_WATER_PATCHES] = {
    {.cx = 0.667f, .cy = 0.02f, .rx = 1.25f, .ry = 0.47f, .rotation = 0.03f, .softness = 0.02f, .ragged = 0.0f,
     .amp = {0.03f, 0.02f, 0.0f}, .phase = {1.3f, 0.2f, 0.0f}, .freq = {2, 5, 1}, .channel = {1, 0, 0, 0}},
    {.cx = 1.02f, .cy = 0.28f, .rx = 0.17f, .ry = 0.16f, .rotation = 0.0f, .softness = 0.02f, .ragged = 0.0f,
     .amp = {0.05f, 0.0f, 0.0f}, .phase = {0.7f, 0.0f, 0.0f}, .freq = {3, 1, 1}, .channel = {1, 0, 0, 0}},
};

/* The washes' shapes, each adding coverage to its pigment's channel (the sun's also lifts the sky). */
static const shape_params shapes[WASH_SHAPES] = {
    /* the sky, and a second pass over its top so it grades darker upward where it is wet */
    {.cx = 0.667f, .cy = -0.17f, .rx = 1.30f, .ry = 0.72f, .rotation = 0.02f, .softness = 0.006f, .ragged = 0.010f,
     .amp = {0.020f, 0.015f, 0.010f}, .phase = {0.4f, 2.1f, 4.0f}, .freq = {2, 5, 9}, .channel = {1, 0, 0, 0}},
    {.cx = 0.45f, .cy = -0.38f, .rx = 1.20f, .ry = 0.58f, .rotation = -0.08f, .softness = 0.006f, .ragged = 0.010f,
     .amp = {0.030f, 0.020f, 0.010f}, .phase = {2.4f, 0.3f, 1.1f}, .freq = {3, 4, 7}, .channel = {1, 0, 0, 0}},
    /* the distant hills: a ridged top */
    {.cx = 0.55f, .cy = 1.06f, .rx = 0.98f, .ry = 0.50f, .rotation = 0.04f, .softness = 0.006f, .ragged = 0.020f,
     .amp = {0.040f, 0.030f, 0.018f}, .phase = {0.9f, 3.3f, 5.1f}, .freq = {7, 11, 17}, .channel = {0, 1, 0, 0}},
    /* the foreground: a bank from the right and a smaller one from the left */
    {.cx = 1.18f, .cy = 1.22f, .rx = 0.95f, .ry = 0.50f, .rotation = -0.14f, .softness = 0.006f, .ragged = 0.022f,
     .amp = {0.030f, 0.022f, 0.012f}, .phase = {1.7f, 4.2f, 0.6f}, .freq = {5, 9, 15}, .channel = {0, 0, 1, 0}},
    {.cx = -0.05f, .cy = 1.10f, .rx = 0.55f, .ry = 0.26f, .rotation = 0.10f, .softness = 0.006f, .ragged = 0.022f,
     .amp = {0.040f, 0.025f, 0.015f}, .phase = {0.2f, 2.8f, 3.9f}, .freq = {4, 9, 13}, .channel = {0, 0, 1, 0}},
    /* the sun, lifted out of the wet sky and dropped into its own puddle */
    {.cx = 1.02f, .cy = 0.28f, .rx = 0.095f, .ry = 0.095f, .rotation = 0.0f, .softness = 0.006f, .ragged = 0.012f,
     .amp = {0.030f, 0.020f, 0.0f}, .phase = {0.5f, 1.9f, 0.0f}, .freq = {3, 5, 1}, .channel = {-1.3f, 0, 0, 1}},
};

void wash_build_blob(uint8_t *blob, uint32_t width, uint32_t height) {
    wash_window w[WASH_PASS_COUNT];
    wash_layout(w);
    memset(blob, 0, wash_blob_size());
    const float aspect = (float)width / (float)height;
    /* Noise tilings: one noise texel per sheet pixel, and coarser ones. */
    const float tile_x = (float)width / WASH_NOISE_SIDE, tile_y = (float)height / WASH_NOISE_SIDE;

    for (uint32_t i = 0; i < WASH_WATER_PATCHES; i++)
        put_shape(blob, w[WASH_PASS_WATER].offset + i * WASH_SHAPE_BYTES, &water[i], aspect, tile_x, tile_y);
    put_blur(blob, w[WASH_PASS_WATER_H].offset, 1, 0, 5.0f, 8);
    put_blur(blob, w[WASH_PASS_WATER_V].offset, 0, 1, 5.0f, 8);

    for (uint32_t i = 0; i < WASH_SHAPES; i++)
        put_shape(blob, w[WASH_PASS_COVERAGE].offset + i * WASH_SHAPE_BYTES, &shapes[i], aspect, 0.5f * tile_x,
                  0.5f * tile_y);
    put_blur(blob, w[WASH_PASS_BLEED_H].offset, 1, 0, 2.0f, 4);
    put_blur(blob, w[WASH_PASS_BLEED_V].offset, 0, 1, 2.0f, 4);

    uint32_t at = w[WASH_PASS_WET_EDGE].offset;
    at = put4(blob, at, 0.5f, 0.5f, 0.5f, 0.5f);      /* threshold */
    at = put4(blob, at, 0.12f, 0.12f, 0.12f, 0.12f);  /* width */
    at = put4(blob, at, 0.60f, 0.55f, 0.62f, 0.80f);  /* base density */
    put4(blob, at, 0.0f, 1.4f, 1.2f, 0.5f);           /* rim */

    at = w[WASH_PASS_GRANULATE].offset;
    at = put4(blob, at, 0.45f, 0.35f, 0.25f, 0.10f);  /* strength: ultramarine granulates most */
    at = put4(blob, at, tile_x, tile_y, 0.37f, 0.71f);
    at = put4(blob, at, tile_x / 3.0f, tile_y / 3.0f, 0.11f, 0.53f);
    put4(blob, at, 0.6f, 0.4f, 0.0f, 0.0f);

    put4(blob, w[WASH_PASS_DOWNSAMPLE].offset, 1.0f, 1.0f, 1.0f, 1.0f);
    put_blur(blob, w[WASH_PASS_FLOW_H].offset, 1, 0, 3.0f, 6);
    put_blur(blob, w[WASH_PASS_FLOW_V].offset, 0, 1, 3.0f, 6);
    at = w[WASH_PASS_FLOW].offset;
    at = put4(blob, at, 0.70f, 0.30f, 0.30f, 0.85f);  /* amount */
    put4(blob, at, 1.05f, 1.0f, 1.0f, 1.1f);          /* gain */

    at = w[WASH_PASS_PAPER].offset;
    at = put4(blob, at, 0.015f, 0.025f, 0.055f, 0.0f);  /* a warm paper */
    at = put4(blob, at, 0.06f, 0.06f, 0.06f, 0.0f);     /* its tooth */
    put4(blob, at, tile_x, tile_y, 0.13f, 0.29f);

    for (uint32_t i = 0; i < WASH_LAYERS; i++) {
        at = w[WASH_PASS_LAYER].offset + i * WASH_LAYER_BYTES;
        at = put4(blob, at, i == 0, i == 1, i == 2, i == 3);
        put4(blob, at, -logf(pigments[i][0]), -logf(pigments[i][1]), -logf(pigments[i][2]), 0.0f);
    }
    put4(blob, w[WASH_PASS_COMPOSITE].offset, 1.0f, 0.995f, 0.985f, 1.0f);
}

/* ---- the noise ------------------------------------------------------------------------------- */

/* Tileable value noise in integers only, so every machine rolls the same bytes: white noise from
 * a linear congruential generator, two wrapped [1 2 1] x [1 2 1] smoothings (grain a few texels
 * wide, like a paper's tooth), stretched to the full 0..255 range. */
void wash_build_noise(uint8_t *noise) {
    enum { N = WASH_NOISE_SIDE };
    uint32_t a[N * N], b[N * N];
    uint32_t state = 0x2545f491u;
    for (uint32_t i = 0; i < N * N; i++) {
        state = state * 1664525u + 1013904223u;
        a[i] = state >> 24;
    }
    for (int round = 0; round < 2; round++) {
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++)
                b[y * N + x] = a[y * N + (x + N - 1) % N] + 2 * a[y * N + x] + a[y * N + (x + 1) % N];
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++)
                a[y * N + x] = (b[((y + N - 1) % N) * N + x] + 2 * b[y * N + x] + b[((y + 1) % N) * N + x] + 8) / 16;
    }
    uint32_t lo = 255, hi = 0;
    for (uint32_t i = 0; i < N * N; i++) {
        if (a[i] < lo) lo = a[i];
        if (a[i] > hi) hi = a[i];
    }
    for (uint32_t i = 0; i < N * N; i++)
        noise[i] = (uint8_t)(hi > lo ? ((a[i] - lo) * 255u + (hi - lo) / 2) / (hi - lo) : 128);
}
