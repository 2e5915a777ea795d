/* The CPU oracle of the watercolour develop: each pass of watercolour.wgsl, in the same order,
 * reading the same windows of the same blob.
 *
 * It mirrors what the GPU does rather than what an ideal develop would do, so the two agree to
 * within rounding: every read is a bilinear sample at the coordinate the shader computes (texel
 * centres at (i + 0.5) / size, clamp or repeat addressing per texel), every transient stores
 * IEEE half floats (round to nearest even) and the sheet stores unorm8, and blends compose in
 * float before that store. What remains is the GPU's own arithmetic (fused multiply-adds, its sin,
 * atan2 and exp, the filter's subtexel weights), which README.md measures. */
#include "watercolour_oracle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/core/half.h>

/* ---- planes ------------------------------------------------------------------------------------ */

typedef enum plane_store { STORE_HALF, STORE_UNORM8 } plane_store;

/* A texture: 1 or 4 channels of floats, holding exactly what the GPU format can hold. */
typedef struct plane {
    uint32_t width, height, channels;
    plane_store store;
    bool repeat;      /* the sampler's addressing: Repeat, else Clamp */
    float *texels;
} plane;

static bool plane_init(plane *p, uint32_t width, uint32_t height, uint32_t channels, plane_store store) {
    *p = (plane){width, height, channels, store, false, calloc((size_t)width * height * channels, sizeof(float))};
    return p->texels != NULL;
}

static float quantise(plane_store store, float v) {
    if (store == STORE_HALF) return kiln_half_to_float(kiln_float_to_half(v));
    if (!(v > 0.0f)) return 0.0f;  /* NaN too */
    if (v >= 1.0f) return 1.0f;
    return floorf(v * 255.0f + 0.5f) / 255.0f;
}

/* One texel with the sampler's addressing; a one-channel format reads as (r, 0, 0, 1). */
static void fetch(const plane *p, int x, int y, float out[4]) {
    int w = (int)p->width, h = (int)p->height;
    if (p->repeat) {
        x = ((x % w) + w) % w;
        y = ((y % h) + h) % h;
    } else {
        x = x < 0 ? 0 : x >= w ? w - 1 : x;
        y = y < 0 ? 0 : y >= h ? h - 1 : y;
    }
    const float *t = p->texels + ((size_t)y * p->width + (size_t)x) * p->channels;
    if (p->channels == 4) {
        memcpy(out, t, 4 * sizeof(float));
    } else {
        out[0] = t[0];
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
    }
}

/* textureSampleLevel(t, s, uv, 0) through a linear filter. */
static void sample(const plane *p, float u, float v, float out[4]) {
    float x = u * (float)p->width - 0.5f, y = v * (float)p->height - 0.5f;
    float x0 = floorf(x), y0 = floorf(y);
    float fx = x - x0, fy = y - y0;
    float a[4], b[4], c[4], d[4];
    fetch(p, (int)x0, (int)y0, a);
    fetch(p, (int)x0 + 1, (int)y0, b);
    fetch(p, (int)x0, (int)y0 + 1, c);
    fetch(p, (int)x0 + 1, (int)y0 + 1, d);
    for (int i = 0; i < 4; i++) {
        float top = a[i] + (b[i] - a[i]) * fx;
        float bottom = c[i] + (d[i] - c[i]) * fx;
        out[i] = top + (bottom - top) * fy;
    }
}

/* ---- the shaders ------------------------------------------------------------------------------- */

/* What one invocation sees: its uniform window as floats, and its inputs. */
typedef struct pass_ctx {
    float u[WASH_SHAPE_BYTES / 4];   /* the largest window */
    const plane *in[3];
} pass_ctx;

typedef void (*shader_fn)(const pass_ctx *c, float u, float v, float out[4]);

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

static float smoothstepf(float e0, float e1, float x) {
    float t = clampf((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

static float mixf(float a, float b, float t) { return a * (1.0f - t) + b * t; }

static void fs_coverage(const pass_ctx *c, float u, float v, float out[4]) {
    const float *s = c->u;  /* centre_radii 0-3, frame 4-7, amp 8-11, phase 12-15, freq 16-19, channel 20-23 */
    float px = u * s[11] - s[0], py = v - s[1];
    float qx = (s[4] * px + s[5] * py) / s[2];
    float qy = (s[4] * py - s[5] * px) / s[3];
    float len = fmaxf(sqrtf(qx * qx + qy * qy), 1e-4f);
    float theta = atan2f(qy, qx);
    float outline = 1.0f;
    for (int k = 0; k < 3; k++) outline += s[8 + k] * sinf(s[16 + k] * theta + s[12 + k]);
    float gx = qx / (len * s[2]), gy = qy / (len * s[3]);
    float gradient = sqrtf(gx * gx + gy * gy);
    float n[4];
    sample(c->in[0], u * s[15], v * s[19], n);
    float dist = (len - outline) / gradient + s[7] * (n[0] - 0.5f);
    float cov = 1.0f - smoothstepf(-s[6], s[6], dist);
    for (int i = 0; i < 4; i++) out[i] = s[20 + i] * cov;
}

static void fs_blur(const pass_ctx *c, float u, float v, float out[4]) {
    const float *b = c->u;  /* axis 0-3, offsets 4-11, weights 12-19 */
    float sx = b[0] / (float)c->in[0]->width, sy = b[1] / (float)c->in[0]->height;
    float t[4];
    sample(c->in[0], u, v, t);
    for (int i = 0; i < 4; i++) out[i] = b[2] * t[i];
    for (int k = 0; k < WASH_BLUR_PAIRS; k++) {
        float ox = sx * b[4 + k], oy = sy * b[4 + k];
        float plus[4], minus[4];
        sample(c->in[0], u + ox, v + oy, plus);
        sample(c->in[0], u - ox, v - oy, minus);
        for (int i = 0; i < 4; i++) out[i] += b[12 + k] * (plus[i] + minus[i]);
    }
}

static void fs_wet_edge(const pass_ctx *c, float u, float v, float out[4]) {
    const float *e = c->u;  /* threshold 0-3, width 4-7, base 8-11, rim 12-15 */
    float bled[4], w[4];
    sample(c->in[0], u, v, bled);
    sample(c->in[1], u, v, w);
    float water = clampf(w[0], 0.0f, 1.0f);
    for (int i = 0; i < 4; i++) {
        bled[i] = fmaxf(bled[i], 0.0f);
        float crisp = smoothstepf(e[i] - e[4 + i], e[i] + e[4 + i], bled[i]);
        float mask = mixf(crisp, bled[i], water);
        float rim = fmaxf(crisp - bled[i], 0.0f) * (1.0f - water);
        out[i] = mask * e[8 + i] + rim * e[12 + i];
    }
}

static void fs_granulate(const pass_ctx *c, float u, float v, float out[4]) {
    const float *g = c->u;  /* strength 0-3, octave0 4-7, octave1 8-11, mix 12-15 */
    float n0[4], n1[4], d[4];
    sample(c->in[1], u * g[4] + g[6], v * g[5] + g[7], n0);
    sample(c->in[1], u * g[8] + g[10], v * g[9] + g[11], n1);
    float tooth = g[12] * n0[0] + g[13] * n1[0] - 0.5f;
    sample(c->in[0], u, v, d);
    for (int i = 0; i < 4; i++) out[i] = d[i] * fmaxf(0.0f, 1.0f + 2.0f * g[i] * tooth);
}

static void fs_downsample(const pass_ctx *c, float u, float v, float out[4]) {
    float d[4];
    sample(c->in[0], u, v, d);
    for (int i = 0; i < 4; i++) out[i] = d[i] * c->u[i];
}

static void fs_flow(const pass_ctx *c, float u, float v, float out[4]) {
    const float *f = c->u;  /* amount 0-3, gain 4-7 */
    float pigment[4], carried[4], w[4];
    sample(c->in[0], u, v, pigment);
    sample(c->in[1], u, v, carried);
    sample(c->in[2], u, v, w);
    float water = clampf(w[0], 0.0f, 1.0f);
    for (int i = 0; i < 4; i++) out[i] = mixf(pigment[i], carried[i] * f[4 + i], water * f[i]);
}

static void fs_paper(const pass_ctx *c, float u, float v, float out[4]) {
    const float *p = c->u;  /* absorb 0-3, grain 4-7, octave 8-11 */
    float n[4];
    sample(c->in[0], u * p[8] + p[10], v * p[9] + p[11], n);
    for (int i = 0; i < 3; i++) out[i] = fmaxf(p[i] + p[4 + i] * (n[0] - 0.5f), 0.0f);
    out[3] = 0.0f;
}

static void fs_layer(const pass_ctx *c, float u, float v, float out[4]) {
    const float *l = c->u;  /* channel 0-3, absorb 4-7 */
    float d[4];
    sample(c->in[0], u, v, d);
    float density = d[0] * l[0] + d[1] * l[1] + d[2] * l[2] + d[3] * l[3];
    for (int i = 0; i < 3; i++) out[i] = l[4 + i] * density;
    out[3] = 0.0f;
}

static void fs_composite(const pass_ctx *c, float u, float v, float out[4]) {
    float a[4];
    sample(c->in[0], u, v, a);
    for (int i = 0; i < 3; i++) out[i] = c->u[i] * expf(-a[i]);
    out[3] = 1.0f;
}

/* ---- the pass sequence ----------------------------------------------------------------------- */

typedef enum blend { BLEND_REPLACE, BLEND_ADDITIVE } blend;

/* The planes of one develop: the noise binding, the sheet binding and the transients. */
enum {
    P_NOISE, P_SHEET,
    P_WATER, P_WATER_H, P_WATER_SOFT,
    P_COVERAGE, P_BLEED_H, P_BLEED, P_DENSITY, P_PIGMENT,
    P_FLOW_HALF, P_FLOW_HALF_H, P_FLOW_HALF_V, P_SETTLED, P_ABSORBANCE,
    P_COUNT
};

static const struct {
    shader_fn shader;
    int inputs[3];  /* -1: none */
    int output;
    blend blend;
} sequence[WASH_PASS_COUNT] = {
    [WASH_PASS_WATER] = {fs_coverage, {P_NOISE, -1, -1}, P_WATER, BLEND_ADDITIVE},
    [WASH_PASS_WATER_H] = {fs_blur, {P_WATER, -1, -1}, P_WATER_H, BLEND_REPLACE},
    [WASH_PASS_WATER_V] = {fs_blur, {P_WATER_H, -1, -1}, P_WATER_SOFT, BLEND_REPLACE},
    [WASH_PASS_COVERAGE] = {fs_coverage, {P_NOISE, -1, -1}, P_COVERAGE, BLEND_ADDITIVE},
    [WASH_PASS_BLEED_H] = {fs_blur, {P_COVERAGE, -1, -1}, P_BLEED_H, BLEND_REPLACE},
    [WASH_PASS_BLEED_V] = {fs_blur, {P_BLEED_H, -1, -1}, P_BLEED, BLEND_REPLACE},
    [WASH_PASS_WET_EDGE] = {fs_wet_edge, {P_BLEED, P_WATER_SOFT, -1}, P_DENSITY, BLEND_REPLACE},
    [WASH_PASS_GRANULATE] = {fs_granulate, {P_DENSITY, P_NOISE, -1}, P_PIGMENT, BLEND_REPLACE},
    [WASH_PASS_DOWNSAMPLE] = {fs_downsample, {P_PIGMENT, -1, -1}, P_FLOW_HALF, BLEND_REPLACE},
    [WASH_PASS_FLOW_H] = {fs_blur, {P_FLOW_HALF, -1, -1}, P_FLOW_HALF_H, BLEND_REPLACE},
    [WASH_PASS_FLOW_V] = {fs_blur, {P_FLOW_HALF_H, -1, -1}, P_FLOW_HALF_V, BLEND_REPLACE},
    [WASH_PASS_FLOW] = {fs_flow, {P_PIGMENT, P_FLOW_HALF_V, P_WATER_SOFT}, P_SETTLED, BLEND_REPLACE},
    [WASH_PASS_PAPER] = {fs_paper, {P_NOISE, -1, -1}, P_ABSORBANCE, BLEND_REPLACE},
    [WASH_PASS_LAYER] = {fs_layer, {P_SETTLED, -1, -1}, P_ABSORBANCE, BLEND_ADDITIVE},
    [WASH_PASS_COMPOSITE] = {fs_composite, {P_ABSORBANCE, -1, -1}, P_SHEET, BLEND_REPLACE},
};

/* Runs one iteration of a pass over every texel of its output: uv at the texel's centre, then
 * the blend in float, then the store's rounding. */
static void run_pass(shader_fn shader, const pass_ctx *ctx, plane *out, blend mode) {
    for (uint32_t y = 0; y < out->height; y++) {
        for (uint32_t x = 0; x < out->width; x++) {
            float u = ((float)x + 0.5f) / (float)out->width, v = ((float)y + 0.5f) / (float)out->height;
            float result[4];
            shader(ctx, u, v, result);
            float *t = out->texels + ((size_t)y * out->width + x) * out->channels;
            for (uint32_t i = 0; i < out->channels; i++)
                t[i] = quantise(out->store, mode == BLEND_ADDITIVE ? t[i] + result[i] : result[i]);
        }
    }
}

static void free_planes(plane *planes) {
    for (int i = 0; i < P_COUNT; i++) free(planes[i].texels);
}

bool wash_develop(const uint8_t *blob, size_t blob_size, const uint8_t *noise, uint32_t width, uint32_t height,
                  uint8_t *rgba) {
    if (blob_size < wash_blob_size() || width == 0 || height == 0) return false;
    /* Divided { divisor: 2 }: floor division, at least one texel. */
    uint32_t half_w = width / 2 ? width / 2 : 1, half_h = height / 2 ? height / 2 : 1;
    plane planes[P_COUNT] = {0};
    bool ok = plane_init(&planes[P_NOISE], WASH_NOISE_SIDE, WASH_NOISE_SIDE, 1, STORE_UNORM8) &&
              plane_init(&planes[P_SHEET], width, height, 4, STORE_UNORM8);
    for (int i = P_WATER; ok && i < P_COUNT; i++) {
        bool half = i == P_FLOW_HALF || i == P_FLOW_HALF_H || i == P_FLOW_HALF_V;
        bool single = i == P_WATER || i == P_WATER_H || i == P_WATER_SOFT;
        ok = plane_init(&planes[i], half ? half_w : width, half ? half_h : height, single ? 1 : 4, STORE_HALF);
    }
    if (!ok) {
        free_planes(planes);
        return false;
    }
    planes[P_NOISE].repeat = true;
    for (size_t i = 0; i < (size_t)WASH_NOISE_SIDE * WASH_NOISE_SIDE; i++) planes[P_NOISE].texels[i] = noise[i] / 255.0f;

    wash_window windows[WASH_PASS_COUNT];
    wash_layout(windows);
    for (int p = 0; p < WASH_PASS_COUNT; p++) {
        pass_ctx ctx = {0};
        for (int i = 0; i < 3; i++) ctx.in[i] = sequence[p].inputs[i] >= 0 ? &planes[sequence[p].inputs[i]] : NULL;
        uint32_t iterations = windows[p].repeat_count ? windows[p].repeat_count : 1;
        for (uint32_t it = 0; it < iterations; it++) {
            memcpy(ctx.u, blob + windows[p].offset + it * windows[p].repeat_stride, windows[p].length);
            run_pass(sequence[p].shader, &ctx, &planes[sequence[p].output], sequence[p].blend);
        }
    }

    const plane *sheet = &planes[P_SHEET];
    for (size_t i = 0; i < (size_t)width * height * 4; i++) rgba[i] = (uint8_t)lrintf(sheet->texels[i] * 255.0f);
    free_planes(planes);
    return true;
}
