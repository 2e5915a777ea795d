/* The renderer's side of the public structs' ABI (docs/ARCHITECTURE.md, "ABI of the public
 * structs"): each struct's size in the first release, the check of a caller's sizes, and arrays
 * read at the caller's stride. */
#ifndef KILN_RENDER_ABI_INTERNAL_H
#define KILN_RENDER_ABI_INTERNAL_H

#include "renderer_internal.h"

/* sizeof each struct in the first release, the smallest a caller may hand over (tests/render/
 * test_public_abi.c pins them). kiln_render_settings ended at shader_dir before colour grading;
 * kiln_render_instance at morph_weights before object_id, whose zero is "no object". */
#define RENDER_SETTINGS_FIRST_RELEASE_SIZE 88
#define RENDER_INSTANCE_FIRST_RELEASE_SIZE 112
#define RENDER_LIGHT_FIRST_RELEASE_SIZE 60
#define RENDER_SCENE_FIRST_RELEASE_SIZE 136
#define RENDER_TARGET_FIRST_RELEASE_SIZE 48
#define RENDER_MATERIAL_FIRST_RELEASE_SIZE 136

/* The caller's kiln_render_settings size, checked. */
bool renderer_abi_check_settings(size_t size, kiln_error *err);
/* The caller's kiln_material size, checked. */
bool renderer_abi_check_material(kiln_render_abi abi, kiln_error *err);
/* The caller's scene, instance, light and target sizes, checked. */
bool renderer_abi_check_scene(kiln_render_abi abi, kiln_error *err);

/* Where the caller's `count` elements of `caller` bytes each at `src` are read as the library's
 * elements of `library` bytes: `src` itself when the sizes match (the usual case, no copy) or
 * there is nothing to read, else a copy into `copy`, each element the caller's bytes and then
 * zeros, `copy` grown only when too small. NULL when `copy` could not grow. */
const void *renderer_abi_array(const void *src, uint32_t count, size_t caller, size_t library, scratch *copy);

#endif
