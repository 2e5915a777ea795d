/* The shared blocks: their C layouts, the packers that write through them, and the check of every
 * layout against the WGSL by reflection. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/geometry/mesh_data.h>
#include <kiln/shader/wgsl_reflect.h>

#include "features/features.h"
#include "material_gpu.h"

static bool is_zero(kiln_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

kiln_environment kiln_environment_resolve(const kiln_environment *in) {
    kiln_environment e = in ? *in : (kiln_environment){0};
    if (is_zero(e.zenith)) e.zenith = (kiln_vec3){0.25f, 0.45f, 0.9f};
    if (is_zero(e.ground)) e.ground = (kiln_vec3){0.28f, 0.25f, 0.22f};
    if (e.sun_intensity <= 0.0f) e.sun_intensity = 1.0f;
    return e;
}

#define UNIFORMS_C "src/render/uniforms.c"

/* ---- the layouts ------------------------------------------------------------------------------ */

enum {
    VIEW_WORLD_TO_VIEW, VIEW_VIEW_TO_CLIP, VIEW_WORLD_TO_CLIP, VIEW_VIEW_TO_WORLD, VIEW_CLIP_TO_VIEW,
    VIEW_CAMERA_POSITION, VIEW_NEAR, VIEW_SCREEN_SIZE, VIEW_INVERSE_SCREEN_SIZE, VIEW_DEBUG_MODE, VIEW_MEMBERS
};
static const block_member VIEW_MEMBERS_[VIEW_MEMBERS] = {
    [VIEW_WORLD_TO_VIEW] = {"world_to_view", 0, 64},
    [VIEW_VIEW_TO_CLIP] = {"view_to_clip", 64, 64},
    [VIEW_WORLD_TO_CLIP] = {"world_to_clip", 128, 64},
    [VIEW_VIEW_TO_WORLD] = {"view_to_world", 192, 64},
    [VIEW_CLIP_TO_VIEW] = {"clip_to_view", 256, 64},
    [VIEW_CAMERA_POSITION] = {"camera_position", 320, 12},
    [VIEW_NEAR] = {"near", 332, 4},
    [VIEW_SCREEN_SIZE] = {"screen_size", 336, 8},
    [VIEW_INVERSE_SCREEN_SIZE] = {"inverse_screen_size", 344, 8},
    [VIEW_DEBUG_MODE] = {"debug_mode", 352, 4},
};
const block_layout kiln_view_block = {"View", KILN_VIEW_UNIFORM_SIZE, VIEW_MEMBERS_, VIEW_MEMBERS, UNIFORMS_C};

enum {
    LIGHTING_SUN_DIRECTION, LIGHTING_SUN_INTENSITY, LIGHTING_SUN_COLOR, LIGHTING_HAS_SUN, LIGHTING_SKY_ZENITH,
    LIGHTING_IBL_INTENSITY, LIGHTING_SKY_GROUND, LIGHTING_SKY_SUN_INTENSITY, LIGHTING_ENV_ROTATION,
    LIGHTING_HAS_EQUIRECT, LIGHTING_PAD, LIGHTING_MEMBERS
};
static const block_member LIGHTING_MEMBERS_[LIGHTING_MEMBERS] = {
    [LIGHTING_SUN_DIRECTION] = {"sun_direction", 0, 12},
    [LIGHTING_SUN_INTENSITY] = {"sun_intensity", 12, 4},
    [LIGHTING_SUN_COLOR] = {"sun_color", 16, 12},
    [LIGHTING_HAS_SUN] = {"has_sun", 28, 4},
    [LIGHTING_SKY_ZENITH] = {"sky_zenith", 32, 12},
    [LIGHTING_IBL_INTENSITY] = {"ibl_intensity", 44, 4},
    [LIGHTING_SKY_GROUND] = {"sky_ground", 48, 12},
    [LIGHTING_SKY_SUN_INTENSITY] = {"sky_sun_intensity", 60, 4},
    [LIGHTING_ENV_ROTATION] = {"env_rotation", 64, 8},
    [LIGHTING_HAS_EQUIRECT] = {"has_equirect", 72, 4},
    [LIGHTING_PAD] = {"lighting_pad", 76, 4},
};
const block_layout kiln_lighting_block = {"Lighting", KILN_LIGHTING_UNIFORM_SIZE, LIGHTING_MEMBERS_, LIGHTING_MEMBERS, UNIFORMS_C};

enum {
    BAKE_ZENITH, BAKE_SUN_INTENSITY, BAKE_GROUND, BAKE_HAS_SUN, BAKE_SUN_DIRECTION, BAKE_ROUGHNESS, BAKE_SUN_COLOR,
    BAKE_HAS_EQUIRECT, BAKE_ROTATION, BAKE_SOURCE_SIZE, BAKE_SOURCE_MIPS, BAKE_MEMBERS
};
static const block_member BAKE_MEMBERS_[BAKE_MEMBERS] = {
    [BAKE_ZENITH] = {"zenith", 0, 12},
    [BAKE_SUN_INTENSITY] = {"sun_intensity", 12, 4},
    [BAKE_GROUND] = {"ground", 16, 12},
    [BAKE_HAS_SUN] = {"has_sun", 28, 4},
    [BAKE_SUN_DIRECTION] = {"sun_direction", 32, 12},
    [BAKE_ROUGHNESS] = {"roughness", 44, 4},
    [BAKE_SUN_COLOR] = {"sun_color", 48, 12},
    [BAKE_HAS_EQUIRECT] = {"has_equirect", 60, 4},
    [BAKE_ROTATION] = {"rotation", 64, 8},
    [BAKE_SOURCE_SIZE] = {"source_size", 72, 4},
    [BAKE_SOURCE_MIPS] = {"source_mips", 76, 4},
};
const block_layout kiln_bake_block = {"Bake", KILN_BAKE_UNIFORM_SIZE, BAKE_MEMBERS_, BAKE_MEMBERS, UNIFORMS_C};

enum { ATLAS_VIEW_WORLD_TO_CLIP, ATLAS_VIEW_TILE, ATLAS_VIEW_TEXEL_SCALE, ATLAS_VIEW_NORMAL_OFFSET, ATLAS_VIEW_PAD0,
       ATLAS_VIEW_PAD1, ATLAS_VIEW_MEMBERS };
static const block_member ATLAS_VIEW_MEMBERS_[ATLAS_VIEW_MEMBERS] = {
    [ATLAS_VIEW_WORLD_TO_CLIP] = {"world_to_clip", 0, 64},
    [ATLAS_VIEW_TILE] = {"tile", 64, 16},
    [ATLAS_VIEW_TEXEL_SCALE] = {"texel_scale", 80, 4},
    [ATLAS_VIEW_NORMAL_OFFSET] = {"normal_offset", 84, 4},
    [ATLAS_VIEW_PAD0] = {"atlas_pad0", 88, 4},
    [ATLAS_VIEW_PAD1] = {"atlas_pad1", 92, 4},
};
const block_layout kiln_atlas_view_block = {"AtlasView", KILN_ATLAS_VIEW_SIZE, ATLAS_VIEW_MEMBERS_, ATLAS_VIEW_MEMBERS, UNIFORMS_C};
static const block_member ATLAS_VIEWS_MEMBERS_[1] = {{"views", 0, KILN_ATLAS_VIEWS_UNIFORM_SIZE}};
const block_layout kiln_atlas_views_block = {"AtlasViews", KILN_ATLAS_VIEWS_UNIFORM_SIZE, ATLAS_VIEWS_MEMBERS_, 1, UNIFORMS_C};

enum {
    POST_EXPOSURE, POST_TONEMAPPER, POST_OUTPUT_SRGB_ENCODE, POST_BLOOM_STRENGTH, POST_BACKGROUND,
    POST_PREMULTIPLY, POST_BACKGROUND_COLOR, POST_MEMBERS
};
static const block_member POST_MEMBERS_[POST_MEMBERS] = {
    [POST_EXPOSURE] = {"exposure", 0, 4},
    [POST_TONEMAPPER] = {"tonemapper", 4, 4},
    [POST_OUTPUT_SRGB_ENCODE] = {"output_srgb_encode", 8, 4},
    [POST_BLOOM_STRENGTH] = {"bloom_strength", 12, 4},
    [POST_BACKGROUND] = {"background", 16, 4},
    [POST_PREMULTIPLY] = {"premultiply", 20, 4},
    [POST_BACKGROUND_COLOR] = {"background_color", 32, 12},
};
const block_layout kiln_post_block = {"Post", KILN_POST_UNIFORM_SIZE, POST_MEMBERS_, POST_MEMBERS, UNIFORMS_C};

enum { BLOOM_THRESHOLD, BLOOM_KNEE, BLOOM_PAD0, BLOOM_PAD1, BLOOM_MEMBERS };
static const block_member BLOOM_MEMBERS_[BLOOM_MEMBERS] = {
    [BLOOM_THRESHOLD] = {"threshold", 0, 4},
    [BLOOM_KNEE] = {"knee", 4, 4},
    [BLOOM_PAD0] = {"_pad0", 8, 4},
    [BLOOM_PAD1] = {"_pad1", 12, 4},
};
const block_layout kiln_bloom_block = {"Bloom", KILN_BLOOM_UNIFORM_SIZE, BLOOM_MEMBERS_, BLOOM_MEMBERS, UNIFORMS_C};

enum { AO_RADIUS, AO_FALLOFF_START, AO_POWER, AO_BLUR_DEPTH_TOLERANCE, AO_MEMBERS };
static const block_member AO_MEMBERS_[AO_MEMBERS] = {
    [AO_RADIUS] = {"radius", 0, 4},
    [AO_FALLOFF_START] = {"falloff_start", 4, 4},
    [AO_POWER] = {"power", 8, 4},
    [AO_BLUR_DEPTH_TOLERANCE] = {"blur_depth_tolerance", 12, 4},
};
const block_layout kiln_ao_block = {"AmbientOcclusion", KILN_AO_UNIFORM_SIZE, AO_MEMBERS_, AO_MEMBERS, UNIFORMS_C};

enum {
    SHADOWS_WORLD_TO_SHADOW, SHADOWS_SPLITS, SHADOWS_TEXEL_WORLD, SHADOWS_RESOLUTION, SHADOWS_BLEND_BAND,
    SHADOWS_NORMAL_OFFSET, SHADOWS_ENABLED, SHADOWS_MEMBERS
};
static const block_member SHADOWS_MEMBERS_[SHADOWS_MEMBERS] = {
    [SHADOWS_WORLD_TO_SHADOW] = {"world_to_shadow", 0, 64 * KILN_CASCADE_COUNT},
    [SHADOWS_SPLITS] = {"splits", 256, 16},
    [SHADOWS_TEXEL_WORLD] = {"texel_world", 272, 16},
    [SHADOWS_RESOLUTION] = {"resolution", 288, 4},
    [SHADOWS_BLEND_BAND] = {"blend_band", 292, 4},
    [SHADOWS_NORMAL_OFFSET] = {"normal_offset", 296, 4},
    [SHADOWS_ENABLED] = {"enabled", 300, 4},
};
const block_layout kiln_shadows_block = {"Shadows", KILN_SHADOWS_UNIFORM_SIZE, SHADOWS_MEMBERS_, SHADOWS_MEMBERS, UNIFORMS_C};

static const block_member PASS_VIEW_MEMBERS_[] = {{"view_projection", 0, 64}};
const block_layout kiln_pass_view_block = {"PassView", KILN_PASS_VIEW_SIZE, PASS_VIEW_MEMBERS_, 1, UNIFORMS_C};

enum { INSTANCE_MODEL, INSTANCE_NORMAL_MATRIX, INSTANCE_PARAMS, INSTANCE_OBJECT, INSTANCE_MEMBERS };
static const block_member INSTANCE_MEMBERS_[INSTANCE_MEMBERS] = {
    [INSTANCE_MODEL] = {"model", 0, 64},
    [INSTANCE_NORMAL_MATRIX] = {"normal_matrix", 64, 64},
    [INSTANCE_PARAMS] = {"params", 128, 16},
    [INSTANCE_OBJECT] = {"object", 144, 16},
};
const block_layout kiln_instance_block = {"Instance", KILN_INSTANCE_RECORD_SIZE, INSTANCE_MEMBERS_, INSTANCE_MEMBERS, UNIFORMS_C};

enum { MORPH_WEIGHTS, MORPH_TARGET_COUNT, MORPH_MEMBERS };
static const block_member MORPH_MEMBERS_[MORPH_MEMBERS] = {
    [MORPH_WEIGHTS] = {"weights", 0, 4 * KILN_MAX_MORPH_WEIGHTS},
    [MORPH_TARGET_COUNT] = {"target_count", 32, 4},
};
const block_layout kiln_morph_weights_block = {"MorphWeights", KILN_MORPH_WEIGHTS_SIZE, MORPH_MEMBERS_, MORPH_MEMBERS, UNIFORMS_C};

/* ---- the packers ------------------------------------------------------------------------------ */

void kiln_view_uniform_pack(const kiln_view_uniform_inputs *in, uint8_t out[KILN_VIEW_UNIFORM_SIZE]) {
    kiln_mat4 view_projection = kiln_mat4_mul(in->projection, in->view), inverse_view, inverse_projection;
    if (!kiln_mat4_inverse(in->view, &inverse_view)) inverse_view = kiln_mat4_identity();
    if (!kiln_mat4_inverse(in->projection, &inverse_projection)) inverse_projection = kiln_mat4_identity();
    const block_layout *b = &kiln_view_block;
    float screen[2] = {(float)in->width, (float)in->height};
    float inverse_screen[2] = {1.0f / (float)in->width, 1.0f / (float)in->height};
    uint32_t debug = (uint32_t)in->debug;
    memset(out, 0, b->size);
    block_put(out, b, VIEW_WORLD_TO_VIEW, in->view.m);
    block_put(out, b, VIEW_VIEW_TO_CLIP, in->projection.m);
    block_put(out, b, VIEW_WORLD_TO_CLIP, view_projection.m);
    block_put(out, b, VIEW_VIEW_TO_WORLD, inverse_view.m);
    block_put(out, b, VIEW_CLIP_TO_VIEW, inverse_projection.m);
    block_put(out, b, VIEW_CAMERA_POSITION, &in->camera_position);
    block_put(out, b, VIEW_NEAR, &in->near);
    block_put(out, b, VIEW_SCREEN_SIZE, screen);
    block_put(out, b, VIEW_INVERSE_SCREEN_SIZE, inverse_screen);
    block_put(out, b, VIEW_DEBUG_MODE, &debug);
}

void kiln_lighting_uniform_pack(const kiln_lighting_uniform_inputs *in, uint8_t out[KILN_LIGHTING_UNIFORM_SIZE]) {
    const block_layout *b = &kiln_lighting_block;
    uint32_t has_sun = in->has_sun ? 1u : 0u;
    memset(out, 0, b->size);
    block_put(out, b, LIGHTING_SUN_DIRECTION, &in->sun_direction);
    block_put(out, b, LIGHTING_SUN_INTENSITY, &in->sun_intensity);
    block_put(out, b, LIGHTING_SUN_COLOR, &in->sun_color);
    block_put(out, b, LIGHTING_HAS_SUN, &has_sun);
    block_put(out, b, LIGHTING_SKY_ZENITH, &in->environment.zenith);
    block_put(out, b, LIGHTING_IBL_INTENSITY, &in->ibl_intensity);
    block_put(out, b, LIGHTING_SKY_GROUND, &in->environment.ground);
    block_put(out, b, LIGHTING_SKY_SUN_INTENSITY, &in->environment.sun_intensity);
    float rotation[2] = {cosf(in->environment.rotation), sinf(in->environment.rotation)};
    uint32_t has_equirect = in->environment.equirect ? 1u : 0u;
    block_put(out, b, LIGHTING_ENV_ROTATION, rotation);
    block_put(out, b, LIGHTING_HAS_EQUIRECT, &has_equirect);
}

void kiln_bake_uniform_pack(const kiln_bake_uniform_inputs *in, uint8_t out[KILN_BAKE_UNIFORM_SIZE]) {
    const block_layout *b = &kiln_bake_block;
    const kiln_environment *e = &in->environment;
    uint32_t has_sun = in->has_sun ? 1u : 0u, has_equirect = e->equirect ? 1u : 0u;
    float rotation[2] = {cosf(e->rotation), sinf(e->rotation)};
    float size = (float)in->source_size, mips = (float)in->source_mips;
    memset(out, 0, b->size);
    block_put(out, b, BAKE_ZENITH, &e->zenith);
    block_put(out, b, BAKE_SUN_INTENSITY, &e->sun_intensity);
    block_put(out, b, BAKE_GROUND, &e->ground);
    block_put(out, b, BAKE_HAS_SUN, &has_sun);
    block_put(out, b, BAKE_SUN_DIRECTION, &in->sun_direction);
    block_put(out, b, BAKE_ROUGHNESS, &in->roughness);
    block_put(out, b, BAKE_SUN_COLOR, &in->sun_color);
    block_put(out, b, BAKE_HAS_EQUIRECT, &has_equirect);
    block_put(out, b, BAKE_ROTATION, rotation);
    block_put(out, b, BAKE_SOURCE_SIZE, &size);
    block_put(out, b, BAKE_SOURCE_MIPS, &mips);
}

void kiln_atlas_view_pack(const kiln_shadow_view *v, uint32_t atlas_size, uint32_t tile_size,
                          uint8_t out[KILN_ATLAS_VIEW_SIZE]) {
    const block_layout *b = &kiln_atlas_view_block;
    uint32_t per_row = atlas_size / tile_size;
    float size = (float)atlas_size;
    kiln_mat4 world_to_clip = kiln_mat4_mul(v->projection, v->view);
    float tile[4] = {(float)((v->tile % per_row) * tile_size) / size, (float)((v->tile / per_row) * tile_size) / size,
                     (float)tile_size / size, 1.0f / size};
    float normal_offset = KILN_SHADOW_NORMAL_OFFSET;
    memset(out, 0, b->size);
    block_put(out, b, ATLAS_VIEW_WORLD_TO_CLIP, world_to_clip.m);
    block_put(out, b, ATLAS_VIEW_TILE, tile);
    block_put(out, b, ATLAS_VIEW_TEXEL_SCALE, &v->texel_scale);
    block_put(out, b, ATLAS_VIEW_NORMAL_OFFSET, &normal_offset);
}

void kiln_post_uniform_pack(float exposure, kiln_tonemapper tonemapper, bool output_srgb_encode, float bloom_strength,
                            kiln_background_mode background, kiln_vec3 background_color, bool filter_follows,
                            uint8_t out[KILN_POST_UNIFORM_SIZE]) {
    const block_layout *b = &kiln_post_block;
    uint32_t curve = (uint32_t)tonemapper, encode = output_srgb_encode ? 1u : 0u;
    memset(out, 0, b->size);
    block_put(out, b, POST_EXPOSURE, &exposure);
    block_put(out, b, POST_TONEMAPPER, &curve);
    block_put(out, b, POST_OUTPUT_SRGB_ENCODE, &encode);
    block_put(out, b, POST_BLOOM_STRENGTH, &bloom_strength);
    uint32_t mode = (uint32_t)background;
    block_put(out, b, POST_BACKGROUND, &mode);
    /* Over a transparent background a display image handed to a filter (FXAA, grading) carries
     * colour premultiplied by coverage, and whatever writes the target divides it out: FXAA
     * filters colour with its neighbours', and straight colour would pull the black of empty
     * pixels into the edges. */
    uint32_t premultiply = background == KILN_BACKGROUND_TRANSPARENT && filter_follows ? 1u : 0u;
    block_put(out, b, POST_PREMULTIPLY, &premultiply);
    block_put(out, b, POST_BACKGROUND_COLOR, &background_color);
}

void kiln_bloom_uniform_pack(float threshold, float knee, uint8_t out[KILN_BLOOM_UNIFORM_SIZE]) {
    const block_layout *b = &kiln_bloom_block;
    memset(out, 0, b->size);
    block_put(out, b, BLOOM_THRESHOLD, &threshold);
    block_put(out, b, BLOOM_KNEE, &knee);
}

void kiln_ao_uniform_pack(float radius, uint8_t out[KILN_AO_UNIFORM_SIZE]) {
    const block_layout *b = &kiln_ao_block;
    float falloff_start = KILN_AO_FALLOFF_START, power = KILN_AO_POWER, tolerance = KILN_AO_BLUR_DEPTH_TOLERANCE;
    memset(out, 0, b->size);
    block_put(out, b, AO_RADIUS, &radius);
    block_put(out, b, AO_FALLOFF_START, &falloff_start);
    block_put(out, b, AO_POWER, &power);
    block_put(out, b, AO_BLUR_DEPTH_TOLERANCE, &tolerance);
}

void kiln_shadows_uniform_pack(const kiln_cascade *cascades, uint32_t count, uint32_t resolution,
                               uint8_t out[KILN_SHADOWS_UNIFORM_SIZE]) {
    const block_layout *b = &kiln_shadows_block;
    float matrices[16 * KILN_CASCADE_COUNT] = {0}, splits[KILN_CASCADE_COUNT] = {0}, texel[KILN_CASCADE_COUNT] = {0};
    for (uint32_t i = 0; i < count && i < KILN_CASCADE_COUNT; i++) {
        kiln_mat4 world_to_shadow = kiln_mat4_mul(cascades[i].projection, cascades[i].view);
        memcpy(&matrices[16 * i], world_to_shadow.m, sizeof world_to_shadow.m);
        splits[i] = cascades[i].split_far;
        texel[i] = cascades[i].texel_world;
    }
    float size = (float)resolution, band = KILN_SHADOW_BLEND_BAND, offset = KILN_SHADOW_NORMAL_OFFSET;
    uint32_t enabled = count ? 1u : 0u;
    memset(out, 0, b->size);
    block_put(out, b, SHADOWS_WORLD_TO_SHADOW, matrices);
    block_put(out, b, SHADOWS_SPLITS, splits);
    block_put(out, b, SHADOWS_TEXEL_WORLD, texel);
    block_put(out, b, SHADOWS_RESOLUTION, &size);
    block_put(out, b, SHADOWS_BLEND_BAND, &band);
    block_put(out, b, SHADOWS_NORMAL_OFFSET, &offset);
    block_put(out, b, SHADOWS_ENABLED, &enabled);
}

void kiln_pass_view_pack(kiln_mat4 view_projection, uint8_t out[KILN_PASS_VIEW_SIZE]) {
    block_put(out, &kiln_pass_view_block, 0, view_projection.m);
}

/* The normal matrix: the inverse transpose of the model's upper 3x3 (the translation does not
 * move normals), which is its cofactor matrix over its determinant: with the 3x3's columns c0, c1,
 * c2, the columns c1 x c2, c2 x c0 and c0 x c1, divided by c0 . (c1 x c2). That is a tenth of the
 * work of inverting the 4x4. A singular 3x3 (a zero scale, or a determinant lost in rounding
 * next to the columns' lengths) keeps the model's own, which at worst shades that degenerate
 * object wrongly. Written into a mat4 with a zero translation and w = 1, as the shader reads it. */
static kiln_mat4 normal_matrix(const kiln_mat4 *model) {
    kiln_vec3 c0 = {model->m[0], model->m[1], model->m[2]};
    kiln_vec3 c1 = {model->m[4], model->m[5], model->m[6]};
    kiln_vec3 c2 = {model->m[8], model->m[9], model->m[10]};
    kiln_vec3 n0 = kiln_vec3_cross(c1, c2), n1 = kiln_vec3_cross(c2, c0), n2 = kiln_vec3_cross(c0, c1);
    float det = kiln_vec3_dot(c0, n0);
    float extent = kiln_vec3_length(c0) * kiln_vec3_length(c1) * kiln_vec3_length(c2);
    kiln_mat4 normal = kiln_mat4_identity();
    bool invertible = isfinite(det) && fabsf(det) > 4.0f * FLT_EPSILON * extent;
    float s = invertible ? 1.0f / det : 1.0f;
    kiln_vec3 cols[3] = {n0, n1, n2};
    if (!invertible) cols[0] = c0, cols[1] = c1, cols[2] = c2;
    for (int c = 0; c < 3; c++) {
        normal.m[c * 4 + 0] = cols[c].x * s;
        normal.m[c * 4 + 1] = cols[c].y * s;
        normal.m[c * 4 + 2] = cols[c].z * s;
    }
    return normal;
}

void kiln_instance_record_pack(kiln_mat4 model, uint32_t material, uint32_t flags, uint32_t lod, int32_t joint_offset,
                               uint32_t morph_slot, uint32_t object_id, uint8_t out[KILN_INSTANCE_RECORD_SIZE]) {
    kiln_mat4 normal = normal_matrix(&model);
    uint32_t params[4] = {material, flags | (lod << 8), (uint32_t)joint_offset, morph_slot};
    uint32_t object[4] = {object_id, 0, 0, 0};
    const block_layout *b = &kiln_instance_block;
    block_put(out, b, INSTANCE_MODEL, model.m);
    block_put(out, b, INSTANCE_NORMAL_MATRIX, normal.m);
    block_put(out, b, INSTANCE_PARAMS, params);
    block_put(out, b, INSTANCE_OBJECT, object);
}

void kiln_morph_weights_pack(const float weights[KILN_MAX_MORPH_WEIGHTS], uint32_t target_count,
                             uint8_t out[KILN_MORPH_WEIGHTS_SIZE]) {
    float used[KILN_MAX_MORPH_WEIGHTS] = {0};
    uint32_t count = target_count < KILN_MAX_MORPH_WEIGHTS ? target_count : KILN_MAX_MORPH_WEIGHTS;
    for (uint32_t t = 0; t < count; t++) used[t] = weights[t];
    memset(out, 0, KILN_MORPH_WEIGHTS_SIZE);
    const block_layout *b = &kiln_morph_weights_block;
    block_put(out, b, MORPH_WEIGHTS, used);
    block_put(out, b, MORPH_TARGET_COUNT, &count);
}

/* ---- the check ------------------------------------------------------------------------------- */

static const kiln_wgsl_member *find_member(const kiln_wgsl_struct *s, const char *name) {
    for (uint32_t i = 0; i < s->member_count; i++)
        if (!strcmp(s->members[i].name, name)) return &s->members[i];
    return NULL;
}

static bool check_block(const kiln_wgsl_module *m, const char *program, const block_layout *b, kiln_error *err) {
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, b->name);
    if (!s) return kiln_error_set(err, KILN_ERR_SHADER, "renderer: %s declares no struct %s", program, b->name);
    kiln_wgsl_layout layout;
    if (!kiln_wgsl_type_layout(m, s->type, KILN_WGSL_SPACE_STORAGE, &layout, err)) return false;
    if (layout.size != b->size)
        return kiln_error_set(err, KILN_ERR_SHADER, "renderer: struct %s in %s is %u bytes in WGSL but %u in C (%s)",
                              b->name, program, layout.size, b->size, b->source);
    for (uint32_t i = 0; i < b->member_count; i++) {
        const block_member *c = &b->members[i];
        const kiln_wgsl_member *w = find_member(s, c->name);
        if (!w)
            return kiln_error_set(err, KILN_ERR_SHADER, "renderer: struct %s in %s has no member %s, which C writes",
                                  b->name, program, c->name);
        if (w->offset != c->offset || w->size != c->size)
            return kiln_error_set(err, KILN_ERR_SHADER,
                                  "renderer: %s.%s in %s is %u bytes at %u in WGSL but %u at %u in C", b->name, c->name,
                                  program, w->size, w->offset, c->size, c->offset);
    }
    if (s->member_count != b->member_count)
        for (uint32_t i = 0; i < s->member_count; i++) {
            bool known = false;
            for (uint32_t j = 0; j < b->member_count && !known; j++) known = !strcmp(b->members[j].name, s->members[i].name);
            if (!known)
                return kiln_error_set(err, KILN_ERR_SHADER, "renderer: %s.%s in %s has no C counterpart", b->name,
                                      s->members[i].name, program);
        }
    return true;
}

/* Whether `program` shares a block with C or binds the shading group: the features say. */
static bool checked_program(const char *program) {
    for (uint32_t f = 0; f < render_feature_count; f++) {
        const render_feature *feature = render_features[f];
        if (feature->scene_program && !strcmp(feature->scene_program, program)) return true;
        for (uint32_t i = 0; i < feature->block_count; i++)
            if (!strcmp(feature->blocks[i].program, program)) return true;
    }
    return false;
}

/* Every block the features share with `program`, in list order, then its shading-group vars. */
static bool check_module(const kiln_wgsl_module *m, const char *program, kiln_error *err) {
    bool scene = false;
    for (uint32_t f = 0; f < render_feature_count; f++) {
        const render_feature *feature = render_features[f];
        scene = scene || (feature->scene_program && !strcmp(feature->scene_program, program));
        for (uint32_t i = 0; i < feature->block_count; i++)
            if (!strcmp(feature->blocks[i].program, program) && !check_block(m, program, feature->blocks[i].block, err))
                return false;
    }
    return !scene || renderer_check_shading_bindings(m, program, err);
}

bool renderer_check_program_layouts(void *user, const char *program, const char *text, size_t length,
                                    kiln_error *err) {
    (void)user;
    if (!checked_program(program)) return true;
    kiln_wgsl_module *m = kiln_wgsl_reflect(text, length, program, err);
    if (!m) return false;
    bool ok = check_module(m, program, err);
    kiln_wgsl_module_free(m);
    return ok;
}

static bool check_program(const kiln_wgsl_source *source, const char *program, kiln_error *err) {
    kiln_assembled_wgsl a;
    if (!kiln_wgsl_assemble(source, program, &a, err)) return false;
    bool ok = renderer_check_program_layouts(NULL, program, a.text, a.length, err);
    kiln_assembled_wgsl_free(&a);
    return ok;
}

/* Each program once, in the order the features first name it. */
static bool named_before(const char *program, uint32_t feature, uint32_t block) {
    for (uint32_t f = 0; f <= feature; f++) {
        const render_feature *x = render_features[f];
        if (f < feature && x->scene_program && !strcmp(x->scene_program, program)) return true;
        for (uint32_t i = 0; i < (f < feature ? x->block_count : block); i++)
            if (!strcmp(x->blocks[i].program, program)) return true;
    }
    return false;
}

bool renderer_check_layouts(const kiln_wgsl_source *source, kiln_error *err) {
    for (uint32_t f = 0; f < render_feature_count; f++) {
        const render_feature *feature = render_features[f];
        for (uint32_t i = 0; i < feature->block_count; i++) {
            const char *program = feature->blocks[i].program;
            if (!named_before(program, f, i) && !check_program(source, program, err)) return false;
        }
        const char *scene = feature->scene_program;
        if (scene && !named_before(scene, f, feature->block_count) && !check_program(source, scene, err)) return false;
    }
    return true;
}
