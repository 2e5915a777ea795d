/* The C side of the WGSL blocks the renderer's programs share, each packed by its owner:
 *
 *   View      group 0 binding 0  the camera the frame is shaded from, and the debug view (frame.c)
 *   Lighting  group 0 binding 1  the sun and the environment (frame.c)
 *   Post      group 3 binding 1  exposure, tone curve, output encoding, bloom strength
 *                                (features/tonemap.c)
 *   Bloom     group 0 binding 2  of the bloom passes: the soft threshold (features/bloom.c)
 *   AmbientOcclusion  group 1 binding 1  of the GTAO and AO blur passes: the radius, falloff,
 *                                power and the blur's depth tolerance (features/ao.c)
 *   PassView  group 3 binding 4  one 256-byte slot per view a pass renders from (frame.c)
 *   Shadows   group 3 binding 5  the sun's cascades the shading passes sample (shadows.c)
 *   AtlasViews group 3 binding 13 the spot and point lights' views of the shadow atlas (shadows.c)
 *   Instance  group 1 binding 0  the instance records of every view (views.c)
 *   MorphWeights group 1 binding 3  one morphed instance's weights and its mesh's target count,
 *                                one 256-byte slot per morphed instance (deform.c)
 *   Bake      group 0 binding 0  of the environment bake, one slot per dispatch (ibl.c)
 *
 * Each block's layout is written once, as a block_layout (block_layout.h) its packer writes
 * through; renderer_check_layouts compares every layout, member by member (name, offset, size),
 * with the structs of the WGSL the renderer is created with, through kiln's WGSL reflector, so a
 * member added, moved or renamed on one side only fails renderer creation naming it. */
#ifndef KILN_RENDER_UNIFORMS_H
#define KILN_RENDER_UNIFORMS_H

#include <kiln/render/scene.h>
#include <kiln/shader/library.h>

#include "block_layout.h"
#include "cascades.h"
#include "shadow_atlas.h"

#define KILN_VIEW_UNIFORM_SIZE 368
#define KILN_LIGHTING_UNIFORM_SIZE 80
#define KILN_POST_UNIFORM_SIZE 48
#define KILN_BLOOM_UNIFORM_SIZE 16
#define KILN_AO_UNIFORM_SIZE 16
#define KILN_INSTANCE_RECORD_SIZE 160
#define KILN_MORPH_WEIGHTS_SIZE 48
#define KILN_SHADOWS_UNIFORM_SIZE 304
#define KILN_BAKE_UNIFORM_SIZE 80
#define KILN_ATLAS_VIEW_SIZE 96
#define KILN_ATLAS_VIEWS_UNIFORM_SIZE (KILN_ATLAS_VIEW_SIZE * KILN_ATLAS_MAX_VIEWS)

/* The share of each cascade's depth range, at its far end, over which it fades into the next
 * (the last fades to unshadowed), so no seam shows where the texel size changes. */
#define KILN_SHADOW_BLEND_BAND 0.1f
/* How far a receiver is pushed along its normal before the lookup, in shadow texels of its
 * cascade: enough to clear the texel a lit surface shares with its own depth, the acne. */
#define KILN_SHADOW_NORMAL_OFFSET 1.5f

/* GTAO's fixed parameters, after XeGTAO's defaults (features/ao.c). A sample's occlusion fades
 * out linearly from this fraction of the radius to the radius, so an occluder does not pop in at
 * the radius's edge. */
#define KILN_AO_FALLOFF_START 0.4f
/* The visibility is raised to this power: slightly stronger contact shadows than the cosine-
 * weighted integral gives, as XeGTAO's final value power does (its default is 2.2). */
#define KILN_AO_POWER 1.5f
/* The blur averages a neighbour only where its view depth is within this fraction of the
 * centre's, so AO does not bleed across silhouettes. */
#define KILN_AO_BLUR_DEPTH_TOLERANCE 0.05f

/* Pass uniforms: one 256-byte slot per view (the dynamic-offset alignment), selected with a
 * dynamic offset on group 3; the slot is the view's index. A slot holds `PassView`: the
 * view-projection, 64 bytes. */
#define KILN_PASS_SLOT_SIZE 256
#define KILN_PASS_VIEW_SIZE 64
#define KILN_MAX_PASS_VIEWS 128

typedef struct kiln_view_uniform_inputs {
    kiln_mat4 view, projection;
    kiln_vec3 camera_position;
    float near;
    uint32_t width, height;
    kiln_debug_mode debug;
} kiln_view_uniform_inputs;

typedef struct kiln_lighting_uniform_inputs {
    bool has_sun;
    kiln_vec3 sun_direction, sun_color;
    float sun_intensity;
    kiln_environment environment;      /* defaults already applied */
    float ibl_intensity;
} kiln_lighting_uniform_inputs;

/* One dispatch of the environment bake: what the environment is, and for cs_prefilter the
 * roughness of the mip it writes. */
typedef struct kiln_bake_uniform_inputs {
    kiln_environment environment;      /* defaults already applied */
    bool has_sun;
    kiln_vec3 sun_direction, sun_color;
    float roughness;
    uint32_t source_size, source_mips; /* the environment cube's */
} kiln_bake_uniform_inputs;

extern const block_layout kiln_view_block, kiln_lighting_block, kiln_post_block, kiln_bloom_block, kiln_ao_block,
    kiln_pass_view_block, kiln_instance_block, kiln_morph_weights_block, kiln_shadows_block, kiln_bake_block, kiln_atlas_view_block,
    kiln_atlas_views_block;

/* Each writes its whole block: every member, zero in the padding. */
void kiln_view_uniform_pack(const kiln_view_uniform_inputs *in, uint8_t out[KILN_VIEW_UNIFORM_SIZE]);
void kiln_lighting_uniform_pack(const kiln_lighting_uniform_inputs *in, uint8_t out[KILN_LIGHTING_UNIFORM_SIZE]);
void kiln_bake_uniform_pack(const kiln_bake_uniform_inputs *in, uint8_t out[KILN_BAKE_UNIFORM_SIZE]);
void kiln_post_uniform_pack(float exposure, kiln_tonemapper tonemapper, bool output_srgb_encode, float bloom_strength,
                            kiln_background_mode background, kiln_vec3 background_color, bool filter_follows,
                            uint8_t out[KILN_POST_UNIFORM_SIZE]);
void kiln_bloom_uniform_pack(float threshold, float knee, uint8_t out[KILN_BLOOM_UNIFORM_SIZE]);
/* The AmbientOcclusion block: `radius` metres and the fixed KILN_AO_* parameters. */
void kiln_ao_uniform_pack(float radius, uint8_t out[KILN_AO_UNIFORM_SIZE]);

/* The Shadows block: `count` cascades (0: the shading passes sample no shadow), their
 * world-to-shadow matrices, far splits and texel sizes, for a `resolution`-texel map. */
void kiln_shadows_uniform_pack(const kiln_cascade *cascades, uint32_t count, uint32_t resolution,
                               uint8_t out[KILN_SHADOWS_UNIFORM_SIZE]);
/* One AtlasView of the AtlasViews block: the view's world-to-clip matrix, its tile's place in
 * an atlas of `atlas_size` texels, and its texel size for the normal offset. */
void kiln_atlas_view_pack(const kiln_shadow_view *v, uint32_t atlas_size, uint32_t tile_size,
                          uint8_t out[KILN_ATLAS_VIEW_SIZE]);
void kiln_pass_view_pack(kiln_mat4 view_projection, uint8_t out[KILN_PASS_VIEW_SIZE]);
/* The MorphWeights block: the first `target_count` of `weights` (the rest written as zero) and
 * the count, which tells the shader how the mesh's deltas are laid out. */
void kiln_morph_weights_pack(const float weights[KILN_MAX_MORPH_WEIGHTS], uint32_t target_count,
                             uint8_t out[KILN_MORPH_WEIGHTS_SIZE]);

/* The instance record's flags (params.y, below the LOD in bits 8..15): what the vertex stage
 * does to the instance's mesh. Skinned only with a joint palette (joint_offset >= 0); morphed
 * whenever the mesh has morph targets. */
enum { KILN_INSTANCE_SKINNED = 1u << 0, KILN_INSTANCE_MORPHED = 1u << 1 };

/* Morph weight slots: one per morphed instance, KILN_MORPH_SLOT_SIZE bytes apart (the dynamic
 * offset alignment), each holding a MorphWeights block. */
#define KILN_MORPH_SLOT_SIZE 256

/* Writes one instance record: model, normal matrix, params (material, flags | lod << 8, joint
 * offset, morph slot), object (the object id the data outputs write, then three zeros). */
void kiln_instance_record_pack(kiln_mat4 model, uint32_t material, uint32_t flags, uint32_t lod, int32_t joint_offset,
                               uint32_t morph_slot, uint32_t object_id, uint8_t out[KILN_INSTANCE_RECORD_SIZE]);

/* Environment with zero fields replaced by the documented defaults. */
kiln_environment kiln_environment_resolve(const kiln_environment *in);

/* Assembles and reflects each renderer program from `source` and compares every shared block it
 * declares with its C layout: the size ("renderer: struct View in forward.wgsl is 384 bytes in
 * WGSL but 368 in C (src/render/uniforms.c)"), then each member by name, offset and size. */
bool renderer_check_layouts(const kiln_wgsl_source *source, kiln_error *err);
/* The same check of one assembled program, as the renderer's shader library validator: every
 * program the renderer loads or hot reloads passes it before it compiles, so a reload whose
 * blocks drifted keeps the last good module. Programs that share no block pass. */
bool renderer_check_program_layouts(void *user, const char *program, const char *text, size_t length,
                                    kiln_error *err);

#endif
