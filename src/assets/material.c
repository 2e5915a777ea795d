/* The CPU material description: glTF's defaults. (Its validation against a texture registry is
 * the renderer's, src/render/material_validate.c.) */
#include <kiln/assets/material.h>

/* sizeof(kiln_material) in the first release (tests/render/test_public_abi.c pins it). */
#define MATERIAL_FIRST_RELEASE_SIZE 136

bool kiln_material_default_into(kiln_material *out, size_t size, const char *label, kiln_error *err) {
    if (!kiln_struct_size_check("material", "kiln_material", size, MATERIAL_FIRST_RELEASE_SIZE, sizeof *out, err))
        return false;
    kiln_material defaults = {
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
    kiln_struct_write(out, size, &defaults, sizeof defaults);
    return true;
}

bool kiln_material_slot_is_srgb(int slot) { return slot == KILN_TEX_BASE_COLOR || slot == KILN_TEX_EMISSIVE; }
