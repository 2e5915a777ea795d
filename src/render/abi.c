/* The renderer's side of the public structs' ABI: a caller's sizes checked against the first
 * release's and the library's, and arrays read at the caller's stride. */
#include "abi.h"

bool renderer_abi_check_settings(size_t size, kiln_error *err) {
    return kiln_struct_size_check("renderer", "kiln_render_settings", size, RENDER_SETTINGS_FIRST_RELEASE_SIZE,
                                  sizeof(kiln_render_settings), err);
}

bool renderer_abi_check_material(kiln_render_abi abi, kiln_error *err) {
    return kiln_struct_size_check("renderer", "kiln_material", abi.material, RENDER_MATERIAL_FIRST_RELEASE_SIZE,
                                  sizeof(kiln_material), err);
}

bool renderer_abi_check_scene(kiln_render_abi abi, kiln_error *err) {
    return kiln_struct_size_check("renderer", "kiln_render_scene", abi.scene, RENDER_SCENE_FIRST_RELEASE_SIZE,
                                  sizeof(kiln_render_scene), err) &&
           kiln_struct_size_check("renderer", "kiln_render_instance", abi.instance, RENDER_INSTANCE_FIRST_RELEASE_SIZE,
                                  sizeof(kiln_render_instance), err) &&
           kiln_struct_size_check("renderer", "kiln_light", abi.light, RENDER_LIGHT_FIRST_RELEASE_SIZE,
                                  sizeof(kiln_light), err) &&
           kiln_struct_size_check("renderer", "kiln_render_target", abi.target, RENDER_TARGET_FIRST_RELEASE_SIZE,
                                  sizeof(kiln_render_target), err);
}

const void *renderer_abi_array(const void *src, uint32_t count, size_t caller, size_t library, scratch *copy) {
    if (caller == library || count == 0 || !src) return src;
    if (!scratch_reserve(copy, (size_t)count * library)) return NULL;
    for (uint32_t i = 0; i < count; i++)
        kiln_struct_read((char *)copy->data + (size_t)i * library, library, (const char *)src + (size_t)i * caller,
                         caller);
    return copy->data;
}
