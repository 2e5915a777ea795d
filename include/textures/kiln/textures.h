/* kiln/textures: the registry of textures shared by authored programs and materials.
 *
 * A texture is named by a dense id from one sequence (1, 2, 3, ...; never reused; a rejected create
 * consumes none). The CPU copy given at create / update is the source of truth: the GPU texture is
 * created and uploaded lazily, at the next kiln_texture_registry_sync (which the program runtime
 * and the renderer call at the start of each record) or the first time something asks for its
 * view, and re-uploaded at the next sync after an update. A Writable texture is one a program may render into; its GPU pixels are then newer than
 * the CPU copy, and kiln_texture_registry_read reads them back from the GPU.
 *
 * Texture arrays (kiln_texture_registry_add_array, filled a layer at a time by
 * kiln_texture_registry_write_layer) and volume textures (kiln_texture_registry_add_volume, whole
 * and immutable) share the id sequence and are told apart by the kind field, so every path that
 * takes a plain 2D texture (update, read) refuses them by kind; remove releases any of the three.
 *
 * Ownership: the registry owns every texture it created (GPU objects in the kiln_resources it was
 * created with, which must outlive it). Main-thread only. */
#ifndef KILN_TEXTURES_H
#define KILN_TEXTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/gfx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Texel formats a registry texture can have. */
typedef enum kiln_texture_format {
    KILN_FORMAT_RGBA8,        /* RGBA8Unorm, 4 bytes per texel, filterable */
    KILN_FORMAT_R8,           /* R8Unorm, 1 byte, filterable */
    KILN_FORMAT_R32_FLOAT,    /* R32Float, 4 bytes, not filterable, not resolvable */
    KILN_FORMAT_R16_FLOAT,    /* R16Float, 2 bytes (IEEE half), filterable */
    KILN_FORMAT_RGBA16_FLOAT, /* RGBA16Float, 8 bytes, filterable */
    KILN_FORMAT_RGBA8_SRGB,   /* RGBA8UnormSrgb, 4 bytes, filterable: colour images (base colour, emissive) */
    KILN_FORMAT_COUNT         /* number of formats */
} kiln_texture_format;

/* What programs may do with a texture. */
typedef enum kiln_texture_usage {
    KILN_USAGE_SAMPLED,       /* read only */
    KILN_USAGE_WRITABLE,      /* a program may write it */
} kiln_texture_usage;

/* The filter of the sampler a texture is bound with. */
typedef enum kiln_texture_sampling {
    KILN_SAMPLING_LINEAR,     /* bilinear (trilinear with mips) */
    KILN_SAMPLING_NEAREST,    /* nearest texel */
} kiln_texture_sampling;

/* The shape of a registry texture (see kiln_texture_info.layers). */
typedef enum kiln_texture_kind {
    KILN_TEXTURE_PLAIN,       /* one 2D image */
    KILN_TEXTURE_ARRAY,       /* a 2D array of layers */
    KILN_TEXTURE_VOLUME,      /* a 3D texture */
} kiln_texture_kind;

/* Bytes one texel takes; WebGPU format; the name JSON spells it by ("Rgba8", "R8", "R32Float",
 * "R16Float", "Rgba16Float", "Rgba8Srgb"); whether it can be linearly filtered / multisample-resolved. */
uint32_t kiln_texture_format_bytes(kiln_texture_format f);
WGPUTextureFormat kiln_texture_format_wgpu(kiln_texture_format f);
const char *kiln_texture_format_name(kiln_texture_format f);
bool kiln_texture_format_from_name(const char *name, kiln_texture_format *out);
bool kiln_texture_format_filterable(kiln_texture_format f);
bool kiln_texture_format_resolvable(kiln_texture_format f);

/* Number of mip levels of a full chain for width x height: floor(log2(max(w, h))) + 1. */
uint32_t kiln_mip_count(uint32_t width, uint32_t height);

/* What kiln_texture_registry_add creates: a plain 2D texture. */
typedef struct kiln_texture_create_desc {
    kiln_texture_format format;     /* texel format */
    /*@{*/
    uint32_t width, height;         /* size in texels, each 1 to the device's maxTextureDimension2D */
    /*@}*/
    const void *pixels;       /* NULL: zero-filled; else exactly width * height * bytes, rows top-down */
    size_t pixels_size;             /* bytes at pixels; 0 when pixels is NULL */
    kiln_texture_usage usage;       /* Sampled or Writable */
    kiln_texture_sampling sampling; /* filter it is sampled with */
    /* A full mip chain, built on the CPU by 2x2 box filtering (in linear light for Rgba8Srgb) at
     * create and again at every update; the CPU copy, update and read stay the base level.
     * Rgba8 and Rgba8Srgb Sampled textures only (a program writes only the base level). */
    bool mips;
} kiln_texture_create_desc;

/* What the registry knows of a texture (kiln_texture_registry_info). */
typedef struct kiln_texture_info {
    kiln_texture_kind kind;         /* plain, array or volume */
    kiln_texture_format format;     /* texel format */
    /*@{*/
    uint32_t width, height;         /* size of the base level in texels */
    /*@}*/
    uint32_t layers;          /* arrays: layer count; volumes: depth; plain: 1 */
    uint32_t mip_levels;      /* 1, or the full chain when created with mips */
    kiln_texture_usage usage;       /* Sampled or Writable; arrays and volumes are Sampled */
    /* Filter it is sampled with; an array or volume has no setting of its own and is Linear when
     * its format filters, Nearest when it does not (R32Float). */
    kiln_texture_sampling sampling;
} kiln_texture_info;

/* The registry (opaque); see the top of this file. */
typedef struct kiln_texture_registry kiln_texture_registry;

/* An empty registry whose GPU objects live in res; NULL with err filled when memory is short. */
kiln_texture_registry *kiln_texture_registry_create(kiln_resources *res, kiln_error *err);
/* Releases every texture and the registry; NULL is ignored. */
void kiln_texture_registry_destroy(kiln_texture_registry *reg);

/* Returns the new id, or 0 with the reason (a zero or too large size, an unknown format, pixels of
 * the wrong length, mips on a format or usage that cannot have them: each names the value at fault). Validation runs before an id is assigned. */
uint32_t kiln_texture_registry_add(kiln_texture_registry *reg, const kiln_texture_create_desc *desc, kiln_error *err);
/* Replaces the pixels of a plain texture (same size and format); the GPU copy is refreshed at its
 * next use. Fails, changing nothing, for an unknown id, an array or volume, or a wrong length. */
bool kiln_texture_registry_update(kiln_texture_registry *reg, uint32_t id, const void *pixels, size_t size, kiln_error *err);
/* Releases the texture, array or volume; the id is never handed out again. Fails for an unknown id. */
bool kiln_texture_registry_remove(kiln_texture_registry *reg, uint32_t id, kiln_error *err);
/* NULL for an unknown (or destroyed) id. */
const kiln_texture_info *kiln_texture_registry_info(const kiln_texture_registry *reg, uint32_t id);
/* Copies the current pixels of a plain texture (tightly packed rows, top-down, the texture's own
 * format) into a new malloc'd buffer the caller frees: the GPU's for a Writable texture that has
 * been realized, else the CPU copy. Fails for an array or volume, as for an unknown id. Blocks on
 * the GPU; for tests and tools. */
bool kiln_texture_registry_read(kiln_texture_registry *reg, uint32_t id, void **pixels, size_t *size, kiln_error *err);

/* ---- texture arrays and volumes ---------------------------------------------------------------- */

/* How many array layers one kiln_texture_registry_sync uploads or clears, over every array
 * together: the upload queue's fixed step, so a large array reaches the GPU over several frames
 * instead of stalling one (a dispatch binding the array uploads its written layers at once). */
#define KILN_TEXTURE_LAYERS_PER_SYNC 4
/* The largest width, height and depth of a volume: max_texture_dimension_3d at its WebGPU default,
 * the limit every device offers, so the check reads no device. */
#define KILN_TEXTURE_VOLUME_MAX_DIMENSION 2048

/* What kiln_texture_registry_add_array creates: `layers` square layers of `side` texels, Sampled,
 * created with no pixels (a layer never written reads zero in every channel). */
typedef struct kiln_texture_array_desc {
    kiln_texture_format format;     /* any of the formats */
    uint32_t side;                  /* 1 to the device's maxTextureDimension2D */
    uint32_t layers;                /* 1 to the device's maxTextureArrayLayers */
    /* false: Mips::Base, the base level alone. true: Mips::Chain, kiln_mip_count(side, side)
     * levels, level n of side max(1, side >> n); the registry builds none, every write supplies
     * them all. */
    bool mips;
} kiln_texture_array_desc;

/* What kiln_texture_registry_add_volume creates: width x height x depth texels, Sampled, one level,
 * immutable (new contents are a new volume). */
typedef struct kiln_texture_volume_desc {
    kiln_texture_format format;     /* any of the formats */
    /*@{*/
    uint32_t width, height, depth;  /* each 1 to KILN_TEXTURE_VOLUME_MAX_DIMENSION */
    /*@}*/
    /* The whole contents: depth slices, slice 0 first, each row-major and top-down, nothing between
     * slices; exactly width * height * depth * bytes. Slice k is centred at w = (k + 0.5) / depth. */
    const void *pixels;
    size_t pixels_size;             /* bytes at pixels */
} kiln_texture_volume_desc;

/* Returns the new array's id (the sequence plain textures draw from), or 0 with the reason: a side
 * or layer count outside its range, an unknown format (docs/guides/textures.md lists each message).
 * Validation runs before an id is assigned. Every layer starts unwritten, on the upload queue. */
uint32_t kiln_texture_registry_add_array(kiln_texture_registry *reg, const kiln_texture_array_desc *desc,
                                         kiln_error *err);
/* Replaces layer `layer` of array `id` with `pixels`: every level the array has, base level first,
 * each row-major and top-down, nothing between levels (kiln_texture_registry_layer_bytes long). All
 * of a layer's levels or none: fails, changing nothing, for an unknown id, an id naming a plain
 * texture or a volume, a layer at or past the layer count, or any other length. The layer goes back
 * on the upload queue; the id and the view do not change. */
bool kiln_texture_registry_write_layer(kiln_texture_registry *reg, uint32_t id, uint32_t layer, const void *pixels,
                                       size_t size, kiln_error *err);
/* The bytes one write_layer of array `id` carries; 0 when id names no array. */
size_t kiln_texture_registry_layer_bytes(const kiln_texture_registry *reg, uint32_t id);
/* Returns the new volume's id (the same sequence), or 0 with the reason: a dimension outside
 * 1..KILN_TEXTURE_VOLUME_MAX_DIMENSION, an unknown format, pixels of the wrong length. Validation
 * runs before an id is assigned; the registry keeps a copy of the pixels, uploaded at the volume's
 * first use. */
uint32_t kiln_texture_registry_add_volume(kiln_texture_registry *reg, const kiln_texture_volume_desc *desc,
                                          kiln_error *err);

/* The GPU side of any kind, creating and uploading on first use (and after an update). The texture
 * carries TextureBinding | CopyDst | CopySrc, plus RenderAttachment when Writable. An array's view
 * is a 2D-array view of every layer and level (a layer count of 1 included), realized with every
 * written layer uploaded (the unwritten ones are left to the sync's queue, and read zero); a
 * volume's is a 3D view, realized and uploaded whole at its first call. */
WGPUTexture kiln_texture_registry_gpu_texture(kiln_texture_registry *reg, uint32_t id, kiln_error *err);
WGPUTextureView kiln_texture_registry_gpu_view(kiln_texture_registry *reg, uint32_t id, kiln_error *err);
/* The view's handle in kiln_resources, for caching bind groups by (index, generation). */
kiln_texture_view kiln_texture_registry_view_handle(kiln_texture_registry *reg, uint32_t id, kiln_error *err);

/* Moves the registry to other resources (a new device after the old one was lost): every GPU
 * texture and view is released through the old resources, which must still exist, and every
 * texture is realized again in `res` from its CPU copy at the next sync. Ids and infos are
 * unchanged. A Writable texture comes back cleared (zeros): what a program painted lived only on
 * the lost GPU, and its CPU copy is older than that; the next dispatch paints it again. An array
 * goes back on the upload queue whole (every written layer from its blob, the others cleared); a
 * volume is realized again from its blob at its next use. Cannot fail. */
void kiln_texture_registry_move_to(kiln_texture_registry *reg, kiln_resources *res);
/* The resources the registry's GPU textures live in. */
kiln_resources *kiln_texture_registry_resources(const kiln_texture_registry *reg);

/* The sync point: realizes every plain texture not yet on the GPU and uploads every plain texture
 * whose CPU copy changed since its last upload, so whoever holds a view (a material's bind group, a
 * cached program bind group) sees the new pixels without asking again; then runs the array upload
 * queue for at most KILN_TEXTURE_LAYERS_PER_SYNC layers (written layers first, in id and layer
 * order, then clears of layers never written). Volumes are left to their first use.
 * kiln_programs_record and kiln_renderer_record call it first; an application recording its own
 * passes that sample registry textures calls it before them. With nothing pending it does nothing
 * and allocates nothing. Fails naming the texture when its GPU objects cannot be made; the rest
 * stay pending. */
bool kiln_texture_registry_sync(kiln_texture_registry *reg, kiln_error *err);

/* Counters over the registry's life, for tests and tools that check what a sync did. */
typedef struct kiln_texture_registry_stats {
    uint64_t realizations;    /* GPU textures created */
    /* CPU copies written to the GPU (a texture's whole mip chain counts once, a volume's slices
     * too); array layers are counted by the two below */
    uint64_t uploads;
    uint64_t layer_uploads;   /* written array layers uploaded (every level of the layer counts once) */
    uint64_t layer_clears;    /* never-written array layers cleared to zeros by the upload queue */
} kiln_texture_registry_stats;
/* The registry's counters so far. */
kiln_texture_registry_stats kiln_texture_registry_get_stats(const kiln_texture_registry *reg);

/* The next id create would assign (for tests of "a rejected create consumes no id"). */
uint32_t kiln_texture_registry_next_id(const kiln_texture_registry *reg);

#ifdef __cplusplus
}
#endif

#endif
