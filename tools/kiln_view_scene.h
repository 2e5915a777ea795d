/* What kiln-view draws: a glTF model imported into the renderer the way kiln-render imports it
 * (the same framing, the same default sun), or the built-in demo, with an optional environment
 * map; the animation clip it plays; and how each is reloaded while the viewer runs.
 *
 * Reloads never leave the viewer without a scene. A model file rewritten with the same
 * structure (meshes and their primitives, materials, nodes, skins, lights: view_scene_reload_model
 * lists what is compared) is swapped in under the same registry slots: its meshes and materials
 * replace the old ones in place (kiln_renderer_replace_mesh / _material), so the instances keep
 * their indices. Otherwise the new model is imported next to the old one, and only once that
 * succeeded are the old one's meshes, materials and textures removed from the renderer's
 * registries (a removed mesh slot is reused by the next add). A failure keeps the old scene and
 * says why. */
#ifndef KILN_VIEW_SCENE_H
#define KILN_VIEW_SCENE_H

#include <kiln/import.h>
#include <kiln/render.h>

#include "demo_scene.h"


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
    float time;                      /* seconds the model is to be posed at */
    float posed_time;                /* what the instances show now */
    int32_t clip;                    /* the animation played: its index, or VIEW_SCENE_ALL_CLIPS */
    bool playing;                    /* time runs with the clock, looping over the clip's span */
    float animation_end;             /* the clip's latest keyframe (of any, for all); 0: nothing animates */
    uint32_t *material_ids;          /* per document material, its renderer index; NULL: not known */
    bool *hidden_nodes;              /* per document node: hidden, with everything below it */
    kiln_render_instance *shown;     /* the instances left when some node is hidden; scene.instances then */
} view_scene;

/* The clip that plays every animation of the file at once, as kiln-render poses them. */
#define VIEW_SCENE_ALL_CLIPS (-1)

/* How view_scene_reload_model swapped the rewritten file in. */
typedef enum view_reload_path {
    VIEW_RELOAD_IN_PLACE, /* the same structure: meshes and materials replaced under their slots */
    VIEW_RELOAD_FULL,     /* imported anew, the old model's entries removed; why_full says why */
} view_reload_path;

typedef struct view_reload_report {
    view_reload_path path;
    char why_full[256];   /* VIEW_RELOAD_FULL: "2 meshes, was 1", "the lights changed", ... */
} view_reload_report;

/* The animation `text` names in `doc`: an animation's name (the first of that name), else a
 * decimal index. False when it names none, with `why` saying so and listing the file's clips
 * ("'jump' names no animation of clips.gltf; its clips: 0 'spin', 1 'stretch'"; an unnamed
 * one shows as "2 (unnamed)"; "... it has none"). */
bool view_scene_find_clip(const kiln_gltf *doc, const char *name, const char *text, int32_t *clip, char *why, size_t why_size);
/* The clip's label as the UI lists it: "0 'spin'", "2 (unnamed)", "all 3 at once". */
void view_scene_clip_label(const kiln_gltf *doc, int32_t clip, char *out, size_t size);

/* Loads and imports `path` (a model) posed at `time` seconds by animation `clip` (or every
 * animation, VIEW_SCENE_ALL_CLIPS, as kiln-render --time poses it), or, with path NULL, builds
 * the demo, framed for `aspect`; for a model the renderer's shadow distance is then
 * kiln-render's, fitted to the model. A clip out of range fails. `vs` is overwritten. */
bool view_scene_open(view_scene *vs, kiln_renderer *r, const char *path, float aspect, float time, int32_t clip,
                     kiln_error *err);
/* Plays animation `clip` (or VIEW_SCENE_ALL_CLIPS) from now on, the model posed by it at once at
 * the current time; false for a clip out of range or no model. */
bool view_scene_set_clip(view_scene *vs, int32_t clip, kiln_error *err);
/* Moves time on by `seconds` while playing (wrapping at animation_end) and poses the model when
 * its time changed (kiln_imported_scene_pose, in place); false with err when posing fails. */
bool view_scene_advance(view_scene *vs, double seconds, kiln_error *err);
/* Loads the model file again and swaps it in, the camera, the clip (while the file still has it)
 * and the hidden nodes left as they are; on failure the previous model stays, whole.
 *
 * In place when the new file has the structure of the old: the same mesh count and primitives
 * per mesh, each primitive with the same material index, the same material count, the same
 * nodes (parent, mesh, skin, in the scene or not), skins of the same joint counts, and the same
 * lights where they were. Its images become new textures (the old ones removed after), each
 * material and drawn mesh replaces the old one under the old index, and the instances are posed
 * from the new document (its transforms and animations); the bounds `F` frames stay those of
 * the first load. Anything else, or a replace the renderer refuses, takes the full path, and
 * `report` (may be NULL) says which path was taken and why. */
bool view_scene_reload_model(view_scene *vs, kiln_renderer *r, view_reload_report *report, kiln_error *err);
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
