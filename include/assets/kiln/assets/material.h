/* Materials: glTF 2.0 metallic-roughness with KHR_texture_transform and emissive_strength, as a
 * CPU description a loader fills without touching the GPU.
 *
 * A kiln_material names its textures by id in the shared texture registry (kiln/textures.h) and
 * describes its sampler by value; the renderer turns both into GPU bindings when the material is
 * added (src/render/material_gpu.h). It lives in the assets layer, below the renderer, so a loader
 * fills it without knowing the renderer or calling gfx. Ownership: a kiln_material owns nothing. */
#ifndef KILN_ASSETS_MATERIAL_H
#define KILN_ASSETS_MATERIAL_H

#include <string.h>

#include <kiln/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a material's alpha is used (glTF alphaMode). */
typedef enum kiln_alpha_mode {
    KILN_ALPHA_OPAQUE,  /* alpha ignored: fully opaque */
    KILN_ALPHA_MASK,    /* discard below alpha_cutoff */
    KILN_ALPHA_BLEND,   /* drawn after opaque geometry, sorted back to front */
} kiln_alpha_mode;

/* A material's texture slots: indices into kiln_material.textures and .texcoords. */
enum {
    KILN_TEX_BASE_COLOR,
    KILN_TEX_METALLIC_ROUGHNESS, /* glTF: roughness in G, metallic in B */
    KILN_TEX_NORMAL,
    KILN_TEX_OCCLUSION,          /* R */
    KILN_TEX_EMISSIVE,
    KILN_TEX_COUNT
};

/* glTF's sampler fields as plain values. Zero: linear filtering everywhere, mipmapped, repeat on
 * both axes (with 8x anisotropy, which WebGPU allows only when every filter is linear). */
typedef enum kiln_sampler_wrap {
    KILN_SAMPLER_WRAP_REPEAT,
    KILN_SAMPLER_WRAP_CLAMP_TO_EDGE,
    KILN_SAMPLER_WRAP_MIRRORED_REPEAT,
    KILN_SAMPLER_WRAP_COUNT
} kiln_sampler_wrap;

/* A sampler's filter, for magnification, minification or between mip levels. */
typedef enum kiln_sampler_filter {
    KILN_SAMPLER_FILTER_LINEAR,
    KILN_SAMPLER_FILTER_NEAREST,
    KILN_SAMPLER_FILTER_COUNT
} kiln_sampler_filter;

/* A material's sampler, shared by all its texture slots. Zero is the default described above. */
typedef struct kiln_sampler_state {
    /*@{*/
    kiln_sampler_wrap wrap_u, wrap_v;     /* glTF wrapS, wrapT */
    /*@}*/
    kiln_sampler_filter mag_filter;       /* glTF magFilter */
    kiln_sampler_filter min_filter;       /* glTF minFilter, its filter part ... */
    kiln_sampler_filter mip_filter;       /* ... and its mipmap part */
} kiln_sampler_state;

/* Zero-initialised is not a useful material: start from kiln_material_default(). A field added in
 * a later release goes at the end and its zero keeps the material as it was before the field. */
typedef struct kiln_material {
    const char *label;            /* for messages and debugging; borrowed, may be NULL */
    kiln_vec4 base_color;         /* linear RGBA */
    /*@{*/
    float metallic, roughness;    /* factors 0..1, multiplying the metallic-roughness map */
    /*@}*/
    kiln_vec3 emissive;           /* linear RGB */
    float emissive_strength;      /* KHR_materials_emissive_strength */
    float normal_scale;           /* scales the normal map's X and Y (glTF normalTexture.scale) */
    float occlusion_strength;     /* 0: no occlusion .. 1: the full map (glTF occlusionTexture.strength) */
    float alpha_cutoff;           /* KILN_ALPHA_MASK only */
    kiln_alpha_mode alpha_mode;   /* opaque, mask or blend */
    bool double_sided;            /* no back-face culling; back faces are lit with the flipped normal */
    /*@{*/
    /* KHR_texture_transform, applied to every map: uv' = R(rotation) * (uv * scale) + offset. */
    kiln_vec2 uv_offset, uv_scale;
    /*@}*/
    float uv_rotation;            /* radians, counter-clockwise (KHR_texture_transform rotation) */
    /* Per slot, the id of a plain texture in the renderer's texture registry; 0: the slot's
     * default (white, or a flat normal for KILN_TEX_NORMAL). Colour maps (base colour, emissive)
     * want Rgba8Srgb, data maps Rgba8; R32Float cannot be filtered and is refused. The registry
     * keeps one view per texture for its whole life and the renderer syncs updates every frame,
     * so the material needs no change when a texture's pixels do (a program painting it, an
     * update_texture). */
    uint32_t textures[KILN_TEX_COUNT];
    uint8_t texcoords[KILN_TEX_COUNT];          /* 0: uv0, 1: uv1 */
    kiln_sampler_state sampler;                 /* one for every slot */
} kiln_material;

/* glTF's defaults: white base colour, metallic and roughness 1, no emission (strength 1), normal
 * scale, occlusion strength and uv scale 1, alpha cutoff 0.5, opaque, single-sided, no textures,
 * the default sampler. `label` is stored as given.
 *
 * The stable entry point (docs/ARCHITECTURE.md, "ABI of the public structs") writes the defaults
 * into the caller's material of `size` bytes (its sizeof), no further; a size this library does
 * not know (a header newer than the library, or smaller than the first release's) is refused,
 * writing nothing. kiln_material_default passes the sizeof of the header it was compiled with. */
bool kiln_material_default_into(kiln_material *out, size_t size, const char *label, kiln_error *err);
static inline kiln_material kiln_material_default(const char *label) {
    kiln_material material;
    memset(&material, 0, sizeof material); /* what a refused size leaves */
    kiln_material_default_into(&material, sizeof material, label, NULL);
    return material;
}
/* Whether texture slot `slot` (KILN_TEX_*) samples sRGB-encoded colour (base colour, emissive)
 * rather than data sampled as stored: the one place a texture's encoding follows from its role,
 * which the loader and the importer both ask. */
bool kiln_material_slot_is_srgb(int slot);

#ifdef __cplusplus
}
#endif

#endif
