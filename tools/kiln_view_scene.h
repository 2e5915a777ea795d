/* What kiln-view draws: a glTF model imported into the renderer the way kiln-render imports it
 * (the same framing, the same default sun), or the built-in demo, with an optional environment
 * map; and how each is reloaded while the viewer runs.
 *
 * Reloads never leave the viewer without a scene: the new model (or map) is loaded and imported
 * next to the old one, and only once that succeeded are the old one's meshes, materials and
 * textures removed from the renderer's registries (a removed mesh slot is reused by the next
 * add, so reloading again and again does not grow the registry). A failure keeps the old scene
 * and says why. */
#ifndef KILN_VIEW_SCENE_H
#define KILN_VIEW_SCENE_H

#include <kiln/import.h>
#include <kiln/render.h>

#include "demo_scene.h"

/* kiln-render's default sun for a model without lights: white, 3 lux, along (-0.5, -1, -0.4). */
#define VIEW_SCENE_SUN_LUX 3.0f

typedef struct view_scene {
    char *model_path;                /* owned copy; NULL: the demo */
    kiln_gltf *doc;                  /* the model's document, kept for its cameras and re-posing */
    kiln_imported_scene model;       /* what the import made */
    kiln_light *lights;              /* the default sun then the model's lights; NULL: the model's own */
    demo_scene demo;                 /* the demo, when model_path is NULL */
    kiln_render_scene scene;         /* what the frame draws; its camera is the viewer's to set */
    kiln_mesh_bounds bounds;         /* world space: what framing and the near plane follow */
    kiln_camera *file_cameras;       /* the file's perspective cameras placed by the scene */
    uint32_t file_camera_count;      /* entries of file_cameras */
    uint32_t environment;            /* the map's id in the renderer's texture registry; 0: the sky */
    float aspect;                    /* width / height the framing was made for */
    float time;                      /* seconds the model is to be posed at (every animation at once) */
    float posed_time;                /* what the instances show now */
    bool playing;                    /* time runs with the clock, looping over the animations' span */
    float animation_end;             /* the latest keyframe of any animation; 0: nothing animates */
    bool *hidden_nodes;              /* per document node: hidden, with everything below it */
    kiln_render_instance *shown;     /* the instances left when some node is hidden; scene.instances then */
} view_scene;

/* Loads and imports `path` (a model) posed at `time` seconds, as kiln-render --time poses it, or,
 * with path NULL, builds the demo, framed for `aspect`; for a model the renderer's shadow
 * distance is then kiln-render's, fitted to the model. `vs` is overwritten. */
bool view_scene_open(view_scene *vs, kiln_renderer *r, const char *path, float aspect, float time, kiln_error *err);
/* Moves time on by `seconds` while playing (wrapping at animation_end) and poses the model when
 * its time changed (kiln_imported_scene_pose, in place); false with err when posing fails. */
bool view_scene_advance(view_scene *vs, double seconds, kiln_error *err);
/* Loads the model file again and swaps it in, the camera left as it is; on failure the previous
 * model stays, whole. */
bool view_scene_reload_model(view_scene *vs, kiln_renderer *r, kiln_error *err);
/* Opens another model (a file dropped on the window) in place of the current model or the demo,
 * framed for `aspect` (scene.camera is the new framing, the shadow distance fitted to it); on
 * failure the current scene stays. The
 * demo's meshes and materials stay in the renderer's registries, unused. */
bool view_scene_replace_model(view_scene *vs, kiln_renderer *r, const char *path, float aspect, kiln_error *err);
/* Hides or shows document node `node` and the nodes below it (false for an index out of range
 * or no model); the scene then draws the other instances. */
bool view_scene_set_node_hidden(view_scene *vs, uint32_t node, bool hidden);
/* Whether `node` draws: neither it nor a node above it is hidden. */
bool view_scene_node_shown(const view_scene *vs, uint32_t node);
/* Loads an equirectangular .hdr and makes it the environment (the one it replaces removed); on
 * failure the current environment stays. */
bool view_scene_set_environment(view_scene *vs, kiln_renderer *r, const char *hdr_path, kiln_error *err);
/* Releases what the scene owns and removes nothing from the renderer (destroy the renderer after). */
void view_scene_close(view_scene *vs);

#endif
