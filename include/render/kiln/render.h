/* kiln/render: the clustered forward+ renderer.
 *
 * A kiln_renderer turns a kiln_render_scene (camera, lights, instances, environment) into
 * one submitted command buffer per frame. It owns its pipelines, layouts, persistent buffers, the
 * mesh and material registries, the frame graph, the shader library and the frame scratch; the
 * kiln_gfx and kiln_resources it was created with must outlive it. Nothing it does in a frame
 * waits on the GPU, and after warm-up a frame allocates nothing.
 *
 * Guide: docs/guides/render.md. */
#ifndef KILN_RENDER_H
#define KILN_RENDER_H

#include <kiln/gfx.h>
#include <kiln/geometry.h>
#include <kiln/render/lights.h>
#include <kiln/render/frame_timings.h>
#include <kiln/assets/material.h>
#include <kiln/render/scene.h>
#include <kiln/render/settings_table.h>
#include <kiln/render/tonemap.h>
#include <kiln/textures.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The renderer: pipelines, registries, frame graph and per-frame state. Opaque; see above for
 * what it owns. */
typedef struct kiln_renderer kiln_renderer;

/* Registry indices are stable: an index stays the same object until removed. */
#define KILN_INVALID_INDEX UINT32_MAX

/* Where a frame is drawn: a texture (RenderAttachment usage, the renderer's output format) and a
 * view of its first mip level, such as a swapchain frame's. The frame is the texture's size. */
typedef struct kiln_render_target {
    WGPUTexture texture;          /* the texture drawn into; borrowed for the call */
    WGPUTextureView view;         /* a view of its mip level 0; borrowed for the call */
    /* Data outputs for synthetic data and picking, each optional (texture and view both NULL:
     * not drawn). Each is one single-sample 2D layer of the target's size with RenderAttachment
     * usage. Their own pass draws the camera's opaque and masked surfaces (masked ones cut by
     * their alpha cutoff; blended ones not at all) at pixel centres: no MSAA, FXAA or tone map
     * touches them. Where no surface is, both hold 0. */
    WGPUTexture linear_depth;     /* R32Float: the nearest surface's depth in metres along the
                                   * camera's view direction (view space -z), for perspective
                                   * and orthographic cameras alike */
    WGPUTextureView linear_depth_view; /* a view of linear_depth's mip level 0 */
    WGPUTexture object_ids;       /* R32Uint: the nearest surface's kiln_render_instance.object_id */
    WGPUTextureView object_ids_view;   /* a view of object_ids' mip level 0 */
} kiln_render_target;

/* ---- ABI of the public structs (docs/ARCHITECTURE.md, "ABI of the public structs") -------------
 * The structs a caller hands the renderer grow between releases at their end only, and every
 * field's zero means its default. Each entry point that takes or returns one is exported as a
 * stable `_sized` (or `_into`) function taking the caller's sizeof of the structs involved, and
 * the documented name is an inline wrapper passing the sizes of the header the caller compiled
 * with: a caller built against an older header hands over shorter structs, which the library
 * reads only as far as they go (the rest taking the defaults) and writes no further. A size
 * larger than the library's (a header newer than the library) or smaller than the first
 * release's is refused: "renderer: the caller's kiln_render_settings is 160 bytes, this
 * library's 144: built against a newer kiln". Bindings (the Python package) call the `_sized`
 * functions with their own sizes. */
typedef struct kiln_render_abi {
    uint32_t settings;  /* sizeof(kiln_render_settings) */
    uint32_t material;  /* sizeof(kiln_material) */
    uint32_t instance;  /* sizeof(kiln_render_instance): the stride of scene.instances */
    uint32_t light;     /* sizeof(kiln_light): the stride of scene.lights */
    uint32_t scene;     /* sizeof(kiln_render_scene) */
    uint32_t target;    /* sizeof(kiln_render_target) */
} kiln_render_abi;

/* The sizes of the structs as the including translation unit sees them. */
#define KILN_RENDER_ABI                                                                                     \
    ((kiln_render_abi){sizeof(kiln_render_settings), sizeof(kiln_material), sizeof(kiln_render_instance), \
                       sizeof(kiln_light), sizeof(kiln_render_scene), sizeof(kiln_render_target)})

/* output_format is the format of the targets passed to kiln_renderer_render (the swapchain's, or
 * an offscreen texture's). sRGB formats encode in hardware; for 8-bit unorm formats the tone map
 * pass encodes sRGB itself; float formats receive linear display values. */
kiln_renderer *kiln_renderer_create_sized(kiln_gfx *gfx, kiln_resources *res, const kiln_render_settings *settings,
                                          WGPUTextureFormat output_format, kiln_render_abi abi, kiln_error *err);
/* The documented form: the stable entry point above with this header's sizes. */
static inline kiln_renderer *kiln_renderer_create(kiln_gfx *gfx, kiln_resources *res,
                                                  const kiln_render_settings *settings,
                                                  WGPUTextureFormat output_format, kiln_error *err) {
    return kiln_renderer_create_sized(gfx, res, settings, output_format, KILN_RENDER_ABI, err);
}
/* Destroys the renderer and everything it owns (registries, pipelines, pooled textures); NULL is a
 * no-op. A texture registry set with kiln_renderer_set_texture_registry stays the caller's. */
void kiln_renderer_destroy(kiln_renderer *r);

/* After device loss (render fails with KILN_ERR_DEVICE_LOST; gfx->lost): a renderer on a new
 * device, made from the old one's CPU state, so the application keeps its indices. Create the new
 * kiln_gfx and kiln_resources, call this, then destroy the old resources and gfx (the old
 * renderer releases its objects through them). The new renderer has the old one's settings and
 * output format; its meshes and textures are the old registries, moved (kiln_geometry_registry_
 * move_to, kiln_texture_registry_move_to: uploaded again from their CPU copies at the next
 * frame); every material slot keeps its index, live ones uploaded from their descriptions and
 * removed ones still holes; the environment is baked again at the first frame. A texture registry
 * shared through kiln_renderer_set_texture_registry is the caller's to move first (refused
 * otherwise). Returns the new renderer and destroys `old`; on failure returns NULL with err and
 * leaves `old` as it was. What lived only on the lost GPU is gone: a Writable texture comes back
 * cleared until a program paints it again. */
kiln_renderer *kiln_renderer_recreate(kiln_renderer *old, kiln_gfx *gfx, kiln_resources *res, kiln_error *err);

/* The settings as requested, resolved and checked at the start of every render: change them
 * between frames (zero means the default again). shader_dir is read at creation only. A caller
 * of an older header reaches its own fields, the first abi.settings bytes; the later ones keep
 * what creation gave them. NULL, with err, for a settings size the library does not know. */
kiln_render_settings *kiln_renderer_settings_sized(kiln_renderer *r, kiln_render_abi abi, kiln_error *err);
/* The documented form: the stable entry point above with this header's sizes. */
static inline kiln_render_settings *kiln_renderer_settings(kiln_renderer *r) {
    return kiln_renderer_settings_sized(r, KILN_RENDER_ABI, NULL);
}
/* The threads sharing the per-instance work of a frame, the calling thread included:
 * settings.worker_threads as resolved at creation (0 chose by the machine's cores). */
uint32_t kiln_renderer_worker_threads(const kiln_renderer *r);

/* Meshes live in the renderer's geometry registry (created and destroyed with it), under index
 * i = geometry id - 1, with the spec's mesh registry rules:
 *  - add validates and copies the mesh (the caller keeps `data`) and uploads it at the next
 *    record (kiln_geometry_registry_sync); a refused add fails naming the label;
 *  - replace swaps the mesh under the same index, for hot reload: the new version is validated
 *    and, when the old one is on the GPU, uploaded before the old one is freed, so a refused
 *    replace leaves the slot exactly as it was; instances keep drawing it by the same index;
 *  - remove frees the mesh, and the next add reuses the lowest removed index (removing an index
 *    already removed does nothing); render fails naming an instance that uses a removed mesh;
 *  - mesh_count is the number of indices handed out, removed ones included.
 * Unlike a material slot, which add never reuses, a mesh slot is reused: meshes come and go with
 * streamed assets and the spec keeps mesh indices dense, so an instance still naming a reused
 * index draws the newcomer (docs/guides/render.md, Registries, says why the rules differ).
 * kiln_renderer_geometry_registry(r) reaches the registry for info and bounds. */
/* With `lods`, a mesh of more than 64 triangles gets levels of detail at add
 * (kiln_mesh_data_build_lods: up to 4, each half the triangles of the one before within 2% of
 * error), and each instance draws the level its projected size picks (docs/guides/render.md);
 * without, it keeps the one level it was given. */
uint32_t kiln_renderer_add_mesh(kiln_renderer *r, const char *label, const kiln_mesh_data *data, bool lods,
                                kiln_error *err);
/* Fails, changing nothing, for an index out of range or removed ("renderer: replace_mesh: mesh 3
 * was removed ..."), data that does not validate (naming the index and label) or a failed upload.
 * `lods` as for add. */
bool kiln_renderer_replace_mesh(kiln_renderer *r, uint32_t index, const kiln_mesh_data *data, bool lods,
                                kiln_error *err);
/* Frees mesh `index` (the next add reuses it); removing a removed index does nothing. */
bool kiln_renderer_remove_mesh(kiln_renderer *r, uint32_t index, kiln_error *err);
/* The indices handed out, removed ones included. */
uint32_t kiln_renderer_mesh_count(const kiln_renderer *r);
/* The levels of detail of mesh `index` (1 to KILN_MESH_MAX_LODS); 0 for an unknown or removed one. */
uint32_t kiln_renderer_mesh_lod_count(const kiln_renderer *r, uint32_t index);
kiln_geometry_registry *kiln_renderer_geometry_registry(kiln_renderer *r);

/* Materials, with the registry rules of the spec:
 *  - add uploads and always appends a new index;
 *  - replace uploads the new version first (a failed upload leaves the slot untouched), then frees
 *    the old one; instances keep their index;
 *  - remove frees the slot and leaves a hole that add never reuses (replace revives it);
 *  - render fails naming the instance and the removed material a visible instance still uses
 *    (an instance culled this frame may keep naming it).
 * A material's texture ids name textures of the renderer's texture registry (below); its sampler
 * state becomes a sampler the renderer creates once per distinct state and keeps until destroyed.
 * A refused material (an unknown or unfilterable texture id, a sampler field out of range) changes
 * nothing, and the message names the slot or field and the value. */
uint32_t kiln_renderer_add_material_sized(kiln_renderer *r, const kiln_material *material, kiln_render_abi abi,
                                          kiln_error *err);
/* Replaces material `index` (the stable entry point; the rules above). */
bool kiln_renderer_replace_material_sized(kiln_renderer *r, uint32_t index, const kiln_material *material,
                                          kiln_render_abi abi, kiln_error *err);
/* The documented form: the stable entry point above with this header's sizes. */
static inline uint32_t kiln_renderer_add_material(kiln_renderer *r, const kiln_material *material, kiln_error *err) {
    return kiln_renderer_add_material_sized(r, material, KILN_RENDER_ABI, err);
}
/* The documented form: the stable entry point above with this header's sizes. */
static inline bool kiln_renderer_replace_material(kiln_renderer *r, uint32_t index, const kiln_material *material,
                                                  kiln_error *err) {
    return kiln_renderer_replace_material_sized(r, index, material, KILN_RENDER_ABI, err);
}
/* Frees material `index`, leaving a hole (the rules above). */
bool kiln_renderer_remove_material(kiln_renderer *r, uint32_t index, kiln_error *err);
/* Whether material `index` was added and not removed. */
bool kiln_renderer_material_is_live(const kiln_renderer *r, uint32_t index);
/* The texture registry materials' texture ids name. A renderer starts with its own (created and
 * destroyed with it), so an application with no program runtime adds images to
 * kiln_renderer_texture_registry(r). To share one registry with the program runtime, set it
 * before adding textured materials: it must outlive the renderer (NULL returns to the renderer's
 * own). Refused, changing nothing, while a live material names textures of the current one. The
 * renderer syncs the registry (kiln_texture_registry_sync) at the start of every record. */
bool kiln_renderer_set_texture_registry(kiln_renderer *r, kiln_texture_registry *registry, kiln_error *err);
kiln_texture_registry *kiln_renderer_texture_registry(kiln_renderer *r);
/* The number of material indices handed out, removed ones included. */
uint32_t kiln_renderer_material_count(const kiln_renderer *r);

/* Records the frame into one encoder and submits it. Fails on device loss (recreate the renderer
 * and its resources), on a scene naming an unknown or removed mesh or material, on settings out
 * of range, and on a target without texture or view, of another format than output_format or
 * not usable as a render attachment. The stable entry point takes the target by pointer, so that
 * it too may grow; scene.instances and scene.lights are arrays of abi.instance and abi.light
 * bytes per element, read in place when those are the library's sizes and otherwise copied once
 * per call into renderer-owned scratch (an older caller pays that copy). */
bool kiln_renderer_render_sized(kiln_renderer *r, const kiln_render_scene *scene, const kiln_render_target *target,
                                kiln_render_abi abi, kiln_error *err);
/* The documented form: the stable entry point above with this header's sizes. */
static inline bool kiln_renderer_render(kiln_renderer *r, const kiln_render_scene *scene, kiln_render_target target,
                                        kiln_error *err) {
    return kiln_renderer_render_sized(r, scene, &target, KILN_RENDER_ABI, err);
}

/* The same frame recorded into the caller's encoder, which the caller submits: this is how one
 * command buffer carries a frame's authored program passes (kiln_programs_record) followed by the
 * scene passes. */
bool kiln_renderer_record_sized(kiln_renderer *r, const kiln_render_scene *scene, const kiln_render_target *target,
                                kiln_encoder *enc, kiln_render_abi abi, kiln_error *err);
/* The documented form: the stable entry point above with this header's sizes. */
static inline bool kiln_renderer_record(kiln_renderer *r, const kiln_render_scene *scene, kiln_render_target target,
                                        kiln_encoder *enc, kiln_error *err) {
    return kiln_renderer_record_sized(r, scene, &target, enc, KILN_RENDER_ABI, err);
}

/* Statistics of the last frame rendered or recorded; owned by the renderer, overwritten by the
 * next frame. */
const kiln_frame_stats *kiln_renderer_stats(const kiln_renderer *r);

/* Bakes the image-based lighting again at the next frame, whatever changed: for an equirect
 * texture whose pixels were updated under the same id, which the renderer does not watch. */
void kiln_renderer_invalidate_environment(kiln_renderer *r);
/* The GPU time of each pass of the most recent frame whose timestamps came back
 * (kiln/render/frame_timings.h): status READY with one entry per executed pass, in execution
 * order, named as the frame graph names it; PENDING before any frame came back (they arrive a
 * frame or more after the frame's submit, through kiln_gfx_pump, which every render and record
 * calls first); UNAVAILABLE, with no entries, where the device has no timestamp queries. Takes
 * the readbacks that came back since the last call and never waits. `passes` is the renderer's
 * and borrowed: overwritten by the next render, record or pass_timings call, freed with r. */
kiln_frame_timings kiln_renderer_pass_timings(kiln_renderer *r);

/* The frame graph of the last frame as Graphviz DOT (see kiln_frame_graph_to_graphviz). */
size_t kiln_renderer_graph_dot(const kiln_renderer *r, char *out, size_t size);

/* Checks the renderer's WGSL files (includes too) and rebuilds every pipeline that uses a changed
 * program, compute and post pipelines included. Returns the programs reloaded; failures keep
 * the last good modules and are logged to gfx->diagnostics. */
uint32_t kiln_renderer_reload_shaders(kiln_renderer *r);

/* Checks what kiln_renderer_add_material would refuse, changing nothing: each slot names a plain, filterable
 * texture the registry knows, and every sampler field is in range. The message names the
 * material, the slot or field, and the value ("material 'rock': normal slot names unknown
 * texture id 9"). */
bool kiln_material_validate_sized(const kiln_material *m, const kiln_texture_registry *registry, kiln_render_abi abi,
                                  kiln_error *err);
/* The documented form: the stable entry point above with this header's sizes. */
static inline bool kiln_material_validate(const kiln_material *m, const kiln_texture_registry *registry,
                                          kiln_error *err) {
    return kiln_material_validate_sized(m, registry, KILN_RENDER_ABI, err);
}

/* Names of the enums, as kiln-render's flags spell them ("agx", "aces", "none"; "none", "normals",
 * "clusters", "overdraw", "albedo"): NULL for a value outside the enum; from_name returns false,
 * leaving *out alone, for an unknown name. */
const char *kiln_tonemapper_name(kiln_tonemapper t);
bool kiln_tonemapper_from_name(const char *name, kiln_tonemapper *out);
const char *kiln_debug_mode_name(kiln_debug_mode m);
bool kiln_debug_mode_from_name(const char *name, kiln_debug_mode *out);

/* Opt-in allocation report: with a probe set (a function returning a running count of heap
 * allocations, e.g. from a malloc-counting test shim), every render logs the allocations each
 * phase made, under "render.alloc", to gfx->diagnostics. NULL turns it off. */
void kiln_renderer_set_alloc_probe(kiln_renderer *r, uint64_t (*probe)(void));

#ifdef __cplusplus
}
#endif

#endif
