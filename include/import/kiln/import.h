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
 * What is not drawn: COLOR_0 (the renderer has no vertex colour stream; each primitive that has
 * one adds a warning), skins and morph targets (the loader keeps the bind pose and base shape).
 *
 * Guide: docs/guides/assets.md, section "Importing into the renderer". */
#ifndef KILN_IMPORT_H
#define KILN_IMPORT_H

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
 * KILN_IMPORT_DEFAULT_FOV_Y for a square target. */
typedef struct kiln_gltf_import_options {
    const char *name;     /* the model in messages (its file name, say); NULL: "model" */
    bool use_camera;      /* the file's camera `camera` instead of a framed one */
    uint32_t camera;      /* index into the document's cameras; read only with use_camera */
    float fov_y;          /* framed camera: radians; 0: KILN_IMPORT_DEFAULT_FOV_Y */
    float aspect;         /* framed camera: width / height of the target; 0: 1 */
} kiln_gltf_import_options;

/* The registry ids one image got: a colour (Rgba8Srgb) texture when some material samples it as
 * colour, a data (Rgba8) texture when some material samples it as data; 0: not made. */
typedef struct kiln_imported_image {
    /*@{*/
    uint32_t srgb, linear;  /* the Rgba8Srgb and the Rgba8 texture's ids in the registry; 0: none */
    /*@}*/
} kiln_imported_image;

/* What kiln_gltf_import made. `scene` points at `instances` and `lights`; its environment is the
 * default procedural sky. */
typedef struct kiln_imported_scene {
    kiln_render_scene scene;        /* camera, lights and instances, ready to render */
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
} kiln_imported_scene;

/* Imports `doc` into `r` and fills `out` (overwritten). The first failure stops the import and
 * is returned with a message starting with the model's name and naming the input
 * ("Box.glb: cameras[2]: out of range (1 camera)", "Box.glb: materials[0]: <the renderer's
 * reason>"); `out` is then zeroed, while what was already added stays in the renderer's
 * registries. `options` may be NULL. */
bool kiln_gltf_import(const kiln_gltf *doc, kiln_renderer *r, const kiln_gltf_import_options *options,
                      kiln_imported_scene *out, kiln_error *err);
/* Releases the arrays the imported scene owns and zeroes it; safe on a zeroed struct. */
void kiln_imported_scene_free(kiln_imported_scene *s);

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

#ifdef __cplusplus
}
#endif

#endif
