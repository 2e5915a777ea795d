/* kiln/import: a loaded glTF document (kiln/assets/gltf.h) put into a renderer.
 *
 * kiln_gltf_import adds the document's images to the renderer's texture registry, its materials
 * and meshes to the renderer's registries, and fills a kiln_imported_scene: one instance per node
 * and primitive of the loaded scene at the node's world transform, the document's punctual lights
 * at their nodes, the scene's world bounds, and a camera (the file's camera N, or one framed from
 * the bounds by kiln_import_frame). The scene's render scene points into arrays the imported
 * scene owns; kiln_imported_scene_free releases them (the renderer keeps what was added to its
 * registries until it is destroyed).
 *
 * Animation: the scene is posed at options.time (kiln_imported_scene_pose says how), with every
 * animation of the file at once or the one options.animation picks; skinned instances get their
 * joint palettes in one shared scene.joints array, morphed ones their weights. The same
 * imported scene is re-posed at another time, in place and allocating nothing, by
 * kiln_imported_scene_pose.
 *
 * What is not drawn: COLOR_0 (the renderer has no vertex colour stream; each primitive that has
 * one adds a warning).
 *
 * Guide: docs/guides/assets.md, section "Importing into the renderer". */
#ifndef KILN_IMPORT_H
#define KILN_IMPORT_H

#include <kiln/assets/color_lut.h>
#include <kiln/assets/gltf.h>
#include <kiln/render.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The framing rule's constants (kiln_import_frame). The camera looks at the bounds' centre from
 * KILN_IMPORT_FRAME_AZIMUTH radians round from +Z towards +X and KILN_IMPORT_FRAME_ELEVATION
 * radians above the horizon, at the distance where the bounding sphere, grown by
 * KILN_IMPORT_FRAME_MARGIN, touches the narrower of the vertical and horizontal fields of view. */
#define KILN_IMPORT_FRAME_AZIMUTH 0.4363323f
/* 20 degrees: see KILN_IMPORT_FRAME_AZIMUTH (25 degrees). */
#define KILN_IMPORT_FRAME_ELEVATION 0.3490659f
/* The bounding sphere's radius is grown by this before it is fitted to the field of view. */
#define KILN_IMPORT_FRAME_MARGIN 1.1f
/* The vertical field of view a framed camera gets when none is asked for: 45 degrees, as the
 * glTF Sample Viewer. */
#define KILN_IMPORT_DEFAULT_FOV_Y 0.7853982f

/* Zero-initialised: messages name the model "model", the camera is framed from the bounds with
 * KILN_IMPORT_DEFAULT_FOV_Y for a square target, and the scene is posed at time 0 by every
 * animation of the file. */
typedef struct kiln_gltf_import_options {
    const char *name;     /* the model in messages (its file name, say); NULL: "model" */
    bool use_camera;      /* the file's camera `camera` instead of a framed one */
    uint32_t camera;      /* index into the document's cameras; read only with use_camera */
    float fov_y;          /* framed camera: radians; 0: KILN_IMPORT_DEFAULT_FOV_Y */
    float aspect;         /* framed camera: width / height of the target; 0: 1 */
    float time;           /* seconds the scene is posed at: finite and >= 0 */
    bool pick_animation;  /* pose by animation `animation` alone, not by all of them together */
    uint32_t animation;   /* index into the document's animations; read only with pick_animation */
} kiln_gltf_import_options;

/* The state re-posing needs (node poses, world matrices, the joint palette); import.c owns it. */
typedef struct kiln_imported_pose kiln_imported_pose;

/* The registry ids one image got: a colour (Rgba8Srgb) texture when some material samples it as
 * colour, a data (Rgba8) texture when some material samples it as data; 0: not made. */
typedef struct kiln_imported_image {
    /*@{*/
    uint32_t srgb, linear;  /* the Rgba8Srgb and the Rgba8 texture's ids in the registry; 0: none */
    /*@}*/
} kiln_imported_image;

/* What kiln_gltf_import made. `scene` points at `instances`, `lights` and the joint palette;
 * its environment is the default procedural sky. */
typedef struct kiln_imported_scene {
    kiln_render_scene scene;        /* camera, lights, instances and joints, ready to render */
    kiln_render_instance *instances; /* scene.instance_count entries, owned */
    kiln_light *lights;             /* scene.light_count entries, owned; may be NULL */
    kiln_mesh_bounds bounds;        /* world space, over every instance; zero when there are none */
    bool framed;                    /* the camera was framed from the bounds (not the file's) */
    /*@{*/
    /* Entries of the arrays below: image_count of images (the document's image_count),
     * warning_count of warnings. */
    uint32_t image_count, warning_count;
    /*@}*/
    kiln_imported_image *images;    /* per document image, its registry ids */
    char **warnings;                /* "meshes[0].primitives[0]: COLOR_0 is not drawn ..." */
    float time;                     /* the time the scene is posed at, seconds */
    kiln_imported_pose *pose;       /* owned; what kiln_imported_scene_pose works from */
} kiln_imported_scene;

/* Imports `doc` into `r` and fills `out` (overwritten). The first failure stops the import and
 * is returned with a message starting with the model's name and naming the input
 * ("Box.glb: cameras[2]: out of range (1 camera)", "Box.glb: materials[0]: <the renderer's
 * reason>"); `out` is then zeroed, while what was already added stays in the renderer's
 * registries. `options` may be NULL. */
bool kiln_gltf_import(const kiln_gltf *doc, kiln_renderer *r, const kiln_gltf_import_options *options,
                      kiln_imported_scene *out, kiln_error *err);
/* The document material `gm` with each textured slot naming the registry texture its image was
 * imported as (`images`, per document image): the sRGB one where the slot samples colour
 * (kiln_material_slot_is_srgb), the linear one where it samples data. kiln_gltf_import adds
 * these; a tool that re-imports images in place (kiln-view's reload) builds its materials with it
 * too. */
kiln_material kiln_gltf_material_import(const kiln_gltf_material *gm, const kiln_imported_image *images);
/* Releases the arrays the imported scene owns and zeroes it; safe on a zeroed struct. */
void kiln_imported_scene_free(kiln_imported_scene *s);

/* Poses `s` at `time` seconds, in place: the instances' transforms and morph weights and the
 * joint palette are rewritten, nothing is allocated, and the scene's arrays stay where they are.
 * `doc` must be the document `s` was imported from, still loaded.
 *
 * The pose: each node starts from its rest pose (its TRS, node.weights or else mesh.weights),
 * then every animation of the file is sampled at `time` in file order, a later one winning
 * where two drive the same property (what the glTF Sample Viewer does when it plays all), or
 * only the animation the import picked. A sampler holds its first value before its first
 * keyframe and its last after its last: `time` is clamped to each animation's range, with no
 * looping. World matrices follow the hierarchy. A skinned node's instances keep the node's world
 * transform, and its palette entry for joint j is inverse(node world) * world(joint j) *
 * inverse_bind(j), so the renderer's transform * palette is glTF's world(joint) * inverse_bind,
 * the node's own transform cancelled as glTF asks, while culling sees the bind pose's sphere
 * at the node (a singular node world instead gives the identity transform and world palettes).
 * `bounds` and the camera are not changed: they stay those of the import's time.
 *
 * Fails, changing nothing, for a `time` that is negative or not finite, or a document that is
 * not the one imported (another node count). */
bool kiln_imported_scene_pose(kiln_imported_scene *s, const kiln_gltf *doc, float time, kiln_error *err);

/* The file's camera `index`, as kiln_gltf_import places it with use_camera: at the first node of
 * the loaded scene that names it, the node's origin the eye, its -Z the view and its +Y the
 * screen's up, with the camera's yfov, aspect ratio (1 when the file gives none) and znear.
 * Fails, *out untouched, for an index out of range ("cameras[2]: out of range (1 camera)"), an
 * orthographic camera, or one no node of the scene places. */
bool kiln_import_file_camera(const kiln_gltf *doc, uint32_t index, kiln_camera *out, kiln_error *err);

/* The document node instance `instance` of `s` draws (instances are made per node and
 * primitive), for a tool that shows or hides the scene by node; UINT32_MAX for an index out of
 * range or a scene that was not imported. */
uint32_t kiln_imported_scene_instance_node(const kiln_imported_scene *s, uint32_t instance);

/* The camera the framing rule above gives for `bounds`: at the distance d = margin * radius /
 * sin(half), where half is the smaller of fov_y / 2 and the horizontal half-angle
 * atan(tan(fov_y / 2) * aspect), looking at bounds->center with +Y up, its near plane from
 * kiln_import_look_at. A zero radius is taken as 1 metre. */
kiln_camera kiln_import_frame(const kiln_mesh_bounds *bounds, float fov_y, float aspect);
/* kiln_camera_look_at with the near plane put where the bounds need it: half the distance from
 * `eye` to the bounding sphere, but at least radius / 1000, so nothing of the model is clipped
 * and depth precision follows the model's size. The framed camera is this
 * call, so passing its eye, target and fov_y again gives the same camera bit for bit. */
kiln_camera kiln_import_look_at(const kiln_mesh_bounds *bounds, kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up,
                                float fov_y, float aspect);
/* The shadow distance (kiln_render_settings.shadow_distance) that ends the sun's last cascade
 * just behind the model as `camera` sees it: the view depth of the bounds' centre plus the radius
 * (at least near + radius). A 60 m default spends most of the cascades' texels on empty space
 * around a model a few centimetres or metres across; this spends them on the model. */
float kiln_import_shadow_distance(const kiln_mesh_bounds *bounds, const kiln_camera *camera);

/* ---- default lighting: what kiln-render, its batch and the viewer light a model with ---------- */

/* The sun a model gets when it brings no light of its own (the golden images' set-up): white,
 * KILN_IMPORT_DEFAULT_SUN_LUX lux, shining along KILN_IMPORT_DEFAULT_SUN_DIRECTION. */
#define KILN_IMPORT_DEFAULT_SUN_LUX 3.0f
/* The default sun's direction, the way its light travels (see KILN_IMPORT_DEFAULT_SUN_LUX). */
#define KILN_IMPORT_DEFAULT_SUN_DIRECTION ((kiln_vec3){-0.5f, -1.0f, -0.4f})

/* Zero-initialised: the default sun for a scene without lights, none for a scene with its own. */
typedef struct kiln_import_sun {
    bool none;             /* no sun, even for a scene without lights */
    bool direction_given;  /* shine along `direction`, and add the sun to a scene with lights too */
    kiln_vec3 direction;   /* with direction_given: the way the sun's light travels */
    float lux;             /* above 0: this illuminance, and add the sun to a scene with lights too */
} kiln_import_sun;

/* The lights `scene` is drawn with: its own, behind a sun where it wants one (a scene without
 * lights unless sun->none; any scene when sun gives a direction or lux). The sun goes first,
 * where the renderer takes a scene's sun from. The lights are copied into *storage, grown with
 * realloc to *capacity entries (the caller frees it), and scene->lights points at them; a scene
 * that wants no sun is left as it is. scene->lights must not point into *storage. Fails only
 * out of memory, changing nothing. */
bool kiln_import_add_sun(kiln_render_scene *scene, const kiln_import_sun *sun, kiln_light **storage, uint32_t *capacity,
                         kiln_error *err);

/* An equirectangular HDR image (kiln_image_load_hdr) added to r's texture registry as the
 * RGBA16F texture a scene's environment.equirect names: its id, or 0 with err "NAME: <the
 * registry's reason>" (`name`: the image's file, say). */
uint32_t kiln_import_environment(kiln_renderer *r, const kiln_image *equirect, const char *name, kiln_error *err);

/* A .cube colour table (kiln_color_lut_load) added to r's texture registry as the N x N x N
 * RGBA16Float volume settings.color_lut names (red along x, green along y, blue along the
 * slices, alpha 1): its id, or 0 with err "NAME: <reason>" (`name`: the table's file, say). A
 * table whose domain is not 0..1 is refused: the renderer applies a table to display values in
 * 0..1. */
uint32_t kiln_import_color_lut(kiln_renderer *r, const kiln_color_lut *lut, const char *name, kiln_error *err);

#ifdef __cplusplus
}
#endif

#endif
