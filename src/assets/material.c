/* The CPU material description: glTF's defaults. (Its validation against a texture registry is
 * the renderer's, src/render/material_validate.c.) */
#include <kiln/assets/material.h>

kiln_material kiln_material_default(const char *label) {
    return (kiln_material){
        .label = label,
        .base_color = {1, 1, 1, 1},
        .metallic = 1.0f,   /* glTF's defaults: a factor of 1 scales the texture (white if absent) */
        .roughness = 1.0f,
        .emissive_strength = 1.0f,
        .normal_scale = 1.0f,
        .occlusion_strength = 1.0f,
        .alpha_cutoff = 0.5f,
        .uv_scale = {1, 1},
    };
}

bool kiln_material_slot_is_srgb(int slot) { return slot == KILN_TEX_BASE_COLOR || slot == KILN_TEX_EMISSIVE; }
