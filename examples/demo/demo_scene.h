/* The built-in demo scene: a ground plane, a row of spheres sweeping roughness and a row
 * sweeping metallic, a few cubes, a sun, eight coloured point lights and two spot lights. Used by
 * `kiln-render --demo`, the golden test and the zero-allocation test.
 *
 * Ownership: demo_scene_build registers meshes and materials with the renderer and fills
 * the scene arrays it owns; demo_scene_free releases those arrays (the renderer keeps its
 * registries until it is destroyed). */
#ifndef KILN_EXAMPLES_DEMO_SCENE_H
#define KILN_EXAMPLES_DEMO_SCENE_H

#include <kiln/render.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct demo_scene {
    kiln_render_scene scene;
    kiln_render_instance *instances;
    kiln_light *lights;
} demo_scene;

bool demo_scene_build(kiln_renderer *r, float aspect, demo_scene *out, kiln_error *err);
void demo_scene_free(demo_scene *d);

#ifdef __cplusplus
}
#endif

#endif
