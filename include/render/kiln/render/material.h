/* Materials: glTF 2.0 metallic-roughness with KHR_texture_transform and emissive_strength, their
 * 96-byte GPU uniform, default textures, image upload with a CPU mip chain.
 *
 * Ownership: a kiln_material only names textures (views) and a sampler; they stay the caller's.
 * kiln_gpu_material owns its uniform buffer and bind group (in kiln_resources). */
#ifndef KILN_RENDER_MATERIAL_H
#define KILN_RENDER_MATERIAL_H

#include <kiln/gfx.h>
#include <kiln/textures.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kiln_alpha_mode {
    KILN_ALPHA_OPAQUE,
    KILN_ALPHA_MASK,    /* discard below alpha_cutoff */
    KILN_ALPHA_BLEND,   /* drawn after opaque geometry, sorted back to front */
} kiln_alpha_mode;

enum {
    KILN_TEX_BASE_COLOR,
    KILN_TEX_METALLIC_ROUGHNESS, /* glTF: roughness in G, metallic in B */
    KILN_TEX_NORMAL,
    KILN_TEX_OCCLUSION,          /* R */
    KILN_TEX_EMISSIVE,
    KILN_TEX_COUNT
};

/* Zero-initialised is not a useful material: start from kiln_material_default(). */
typedef struct kiln_material {
    const char *label;
    kiln_vec4 base_color;         /* linear RGBA */
    float metallic, roughness;
    kiln_vec3 emissive;           /* linear RGB */
    float emissive_strength;      /* KHR_materials_emissive_strength */
    float normal_scale;
    float occlusion_strength;
    float alpha_cutoff;           /* KILN_ALPHA_MASK only */
    kiln_alpha_mode alpha_mode;
    bool double_sided;
    /* KHR_texture_transform, applied to every map: uv' = R(rotation) * (uv * scale) + offset. */
    kiln_vec2 uv_offset, uv_scale;
    float uv_rotation;
    kiln_texture_view textures[KILN_TEX_COUNT]; /* id 0: the default texture for that slot */
    /* A texture of the shared registry (include/kiln/textures.h) in place of textures[i]: a
     * non-zero id wins over textures[i]. This is how a material samples what an authored program
     * wrote. The registry keeps one view per texture for its whole life (updates re-upload into
     * it), so the material needs no change when the texture's pixels do. */
    uint32_t registry_textures[KILN_TEX_COUNT];
    uint8_t texcoords[KILN_TEX_COUNT];          /* 0: uv0, 1: uv1 */
    kiln_sampler sampler;                       /* id 0: linear, repeat, mipmapped */
} kiln_material;

kiln_material kiln_material_default(const char *label);

#define KILN_MATERIAL_UNIFORM_SIZE 96

/* Packs the 96-byte uniform that material.wgsl's `MaterialParams` reads (layout documented in
 * src/render/material.c and asserted there). */
void kiln_material_pack_uniform(const kiln_material *m, uint8_t out[KILN_MATERIAL_UNIFORM_SIZE]);

/* 1x1 fallbacks: white (base colour, metallic-roughness, occlusion), flat normal (0.5, 0.5, 1),
 * black (emissive); and the default sampler. */
typedef struct kiln_default_textures {
    kiln_texture white, flat_normal, black;
    kiln_texture_view white_view, flat_normal_view, black_view;
    kiln_sampler linear_repeat;
    kiln_sampler linear_clamp;
} kiln_default_textures;

bool kiln_default_textures_create(kiln_resources *res, kiln_default_textures *out, kiln_error *err);
void kiln_default_textures_destroy(kiln_resources *res, kiln_default_textures *d);

/* Number of mip levels of a full chain for width x height. */
uint32_t kiln_mip_count(uint32_t width, uint32_t height);

/* Uploads an RGBA8 image (as RGBA8UnormSrgb when srgb, else RGBA8Unorm), with a full mip chain
 * built on the CPU by 2x2 box filtering (in linear space for sRGB images) when mips is true. */
typedef struct kiln_gpu_texture {
    kiln_texture texture;
    kiln_texture_view view;
    uint32_t width, height, mip_levels;
} kiln_gpu_texture;

bool kiln_upload_image(kiln_resources *res, const char *label, const kiln_image *img, bool srgb, bool mips,
                       kiln_gpu_texture *out, kiln_error *err);
void kiln_gpu_texture_destroy(kiln_resources *res, kiln_gpu_texture *t);

/* The bind group layout every material group uses (group 2): binding 0 the uniform, 1..5 the five
 * textures (float 2D), 6 the sampler. */
kiln_bind_group_layout kiln_material_layout_create(kiln_resources *res, kiln_error *err);

typedef struct kiln_gpu_material {
    kiln_buffer uniform;
    kiln_bind_group group;
    kiln_alpha_mode alpha_mode;
    bool double_sided;
} kiln_gpu_material;

/* registry may be NULL when no slot names a registry texture; a slot naming an unknown id fails
 * the upload, naming the slot and the id. */
bool kiln_gpu_material_upload(kiln_resources *res, kiln_bind_group_layout layout, const kiln_default_textures *d,
                              kiln_texture_registry *registry, const kiln_material *m, kiln_gpu_material *out,
                              kiln_error *err);
void kiln_gpu_material_destroy(kiln_resources *res, kiln_gpu_material *g);

#ifdef __cplusplus
}
#endif

#endif
