/* The GPU side of a material (internal to the renderer): its 96-byte uniform, the bind group layout
 * every material group uses, and the uniform buffer and bind group of one material.
 *
 * Ownership: kiln_gpu_material owns its uniform buffer and bind group (in kiln_resources); the
 * views and the sampler it binds stay the registry's and the renderer's. */
#ifndef KILN_RENDER_MATERIAL_GPU_H
#define KILN_RENDER_MATERIAL_GPU_H

#include <kiln/assets/material.h>
#include <kiln/textures.h>
#include <kiln/textures/default_textures.h>

#include "block_layout.h"

#define KILN_MATERIAL_UNIFORM_SIZE 96

/* MaterialParams' layout (material.c), which kiln_material_pack_uniform writes through. */
extern const block_layout kiln_material_block;

/* Packs the 96-byte uniform that material.wgsl's `MaterialParams` reads (layout documented in
 * src/render/material.c and asserted there). */
void kiln_material_pack_uniform(const kiln_material *m, uint8_t out[KILN_MATERIAL_UNIFORM_SIZE]);

/* The bind group layout every material group uses (group 2): binding 0 the uniform, 1..5 the five
 * textures (float 2D), 6 the sampler. */
kiln_bind_group_layout kiln_material_layout_create(kiln_resources *res, kiln_error *err);

typedef struct kiln_gpu_material {
    kiln_buffer uniform;
    kiln_bind_group group;
    kiln_alpha_mode alpha_mode;
    bool double_sided;
} kiln_gpu_material;

/* For a material kiln_material_validate accepted: creates the uniform and the group binding the slots'
 * registry views (or the defaults) and `sampler`, the GPU sampler for m->sampler. Nothing is left
 * behind on failure. */
bool kiln_gpu_material_upload(kiln_resources *res, kiln_bind_group_layout layout, const kiln_default_textures *d,
                              kiln_texture_registry *registry, kiln_sampler sampler, const kiln_material *m,
                              kiln_gpu_material *out, kiln_error *err);
void kiln_gpu_material_destroy(kiln_gpu_material *g, kiln_resources *res);

#endif
