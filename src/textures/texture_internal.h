/* Internal to src/textures: one registry entry and the calls the registry (ids, CPU copies) and the
 * GPU side (realization, uploads, readback) make of each other.
 *
 * An entry lives from create to destroy, allocated on its own so that the kiln_texture_info
 * pointer kiln_texture_registry_info hands out stays valid while the texture exists, however many
 * textures are created after it. */
#ifndef KILN_TEXTURE_INTERNAL_H
#define KILN_TEXTURE_INTERNAL_H

#include <kiln/textures.h>

typedef struct texture_entry {
    uint32_t id;
    kiln_texture_info info;
    uint8_t *pixels;          /* the CPU copy: the source of truth; tightly packed, top-down */
    size_t pixels_size;
    uint8_t *mips;            /* levels 1.. of the chain, consecutive, rebuilt from pixels; NULL without mips */
    /* The GPU side: both zero until a sync or a gpu_* call realizes the texture. */
    kiln_texture gpu;
    kiln_texture_view view;
    bool pending;             /* the GPU copy is missing or older than the CPU copy */
} texture_entry;

struct kiln_texture_registry {
    kiln_resources *res;
    /* entries[id - 1]; NULL once destroyed. Ids are never reused, so the array only grows: a
     * retired id costs one pointer. */
    texture_entry **entries;
    uint32_t count;           /* ids handed out so far; the next id is count + 1 */
    uint32_t capacity;
    /* Live entries with pending set, so a sync with nothing to do returns without a scan. */
    uint32_t pending_count;
    kiln_texture_registry_stats stats;
};

/* The live entry for `id`, or NULL with "unknown texture id N". */
texture_entry *texture_registry_lookup(const kiln_texture_registry *reg, uint32_t id, kiln_error *err);

/* CPU mip chains of RGBA8 images (mip_chain.c): the bytes of levels 1..levels-1, and those
 * levels built from `base` into `chain`, consecutive, each from the one before. */
size_t texture_mip_chain_bytes(uint32_t width, uint32_t height, uint32_t levels);
void texture_mip_chain_build(const uint8_t *base, uint32_t width, uint32_t height, uint32_t levels, bool srgb,
                             uint8_t *chain);

/* Marks the GPU copy of `e` as missing or stale (counted once however often it is marked). */
void texture_registry_mark_pending(kiln_texture_registry *reg, texture_entry *e);

/* GPU side (texture_gpu.c). Realizes the texture if it is not yet, and uploads the CPU copy if it
 * is pending; false (nothing left half-made) when the GPU objects cannot be created. */
bool texture_gpu_ensure(kiln_texture_registry *reg, texture_entry *e, kiln_error *err);
/* Reads the realized texture's pixels back into `out` (pixels_size bytes, tightly packed). */
bool texture_gpu_read(kiln_texture_registry *reg, texture_entry *e, uint8_t *out, kiln_error *err);
/* Releases the view and the texture, if realized. */
void texture_gpu_release(kiln_texture_registry *reg, texture_entry *e);

#endif
