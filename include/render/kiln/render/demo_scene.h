/* The built-in demo scene: a ground plane, a row of spheres sweeping roughness and a row
 * sweeping metallic, a few cubes, a sun, eight coloured point lights and two spot lights. Used by
 * `kiln-render --demo`, the golden test and the zero-allocation test.
 *
 * Ownership: kiln_demo_scene_build registers meshes and materials with the renderer and fills
 * the scene arrays it owns; kiln_demo_scene_free releases those arrays (the renderer keeps its
 * registries until it is destroyed). */
#ifndef KILN_RENDER_DEMO_SCENE_H
#define KILN_RENDER_DEMO_SCENE_H

#include <kiln/render.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_demo_scene {
    kiln_render_scene scene;
    kiln_render_instance *instances;
    kiln_light *lights;
} kiln_demo_scene;

bool kiln_demo_scene_build(kiln_renderer *r, float aspect, kiln_demo_scene *out, kiln_error *err);
void kiln_demo_scene_free(kiln_demo_scene *d);

#ifdef __cplusplus
}
#endif

#endif
