/* The scene the renderer draws, its settings, the camera and per-frame statistics.
 *
 * Ownership: the caller owns a kiln_render_scene and everything its arrays point at; the renderer
 * only reads it during kiln_renderer_render. */
#ifndef KILN_RENDER_SCENE_H
#define KILN_RENDER_SCENE_H

#include <kiln/core.h>
#include <kiln/render/tonemap.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- camera ------------------------------------------------------------------------------- */

/* How a camera projects: perspective (the zero value) or orthographic. */
typedef enum kiln_projection_kind {
    KILN_PROJECTION_PERSPECTIVE = 0,  /* reverse-Z with an infinite far plane */
    KILN_PROJECTION_ORTHOGRAPHIC = 1, /* reverse-Z between near and far */
} kiln_projection_kind;

/* A camera: right-handed, looking down its local -Z. A zero-initialised camera is perspective,
 * so code written before orthographic cameras existed keeps its meaning. */
typedef struct kiln_camera {
    kiln_vec3 position;   /* world space, metres */
    kiln_quat rotation;   /* camera to world */
    float fov_y;          /* perspective: vertical field of view, radians, in (0, pi) */
    float aspect;         /* width / height (render sets it from the target every frame) */
    float near;           /* metres: > 0 for perspective, >= 0 for orthographic */
    kiln_projection_kind projection; /* perspective (0) or orthographic */
    float half_height;    /* orthographic: half the view's height in metres (glTF's ymag); the
                           * half width is half_height * aspect */
    float far;            /* orthographic: the far plane in metres, > near; perspective ignores it */
} kiln_camera;

/* A camera at `eye` looking at `target`, rolled so that `up` (world space) points up on screen;
 * fov_y in radians, aspect width / height, near in metres. */
kiln_camera kiln_camera_look_at(kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up, float fov_y, float aspect, float near);
/* The orthographic camera of the same pose: `half_height` metres above and below the view axis,
 * depth from `near` to `far` metres in front of the eye. */
kiln_camera kiln_camera_orthographic_look_at(kiln_vec3 eye, kiln_vec3 target, kiln_vec3 up, float half_height,
                                             float aspect, float near, float far);
/* Whether the camera's fields make a projection render accepts; false with a reason naming the
 * field otherwise (render calls it every frame). */
bool kiln_camera_check(const kiln_camera *c, kiln_error *err);
/* Fixes the aspect ratio from a target size (render does this every frame); a zero size changes
 * nothing. */
void kiln_camera_set_viewport(kiln_camera *c, uint32_t width, uint32_t height);
/* The unit world-space direction the camera looks in (its local -Z). */
kiln_vec3 kiln_camera_forward(const kiln_camera *c);
/* World to view: the inverse of the camera's pose. */
kiln_mat4 kiln_camera_view(const kiln_camera *c);
/* View to clip, reverse-Z: depth 1 at near, 0 at infinity (perspective) or at far (orthographic). */
kiln_mat4 kiln_camera_projection(const kiln_camera *c);
/* World to clip: projection * view. */
kiln_mat4 kiln_camera_view_projection(const kiln_camera *c);
/* The world-space frustum of view_projection, for culling. */
kiln_frustum kiln_camera_frustum(const kiln_camera *c);

/* ---- settings ---------------------------------------------------------------------------------- */

/* What the frame shows: the lit image, or one of the debug views instead. */
typedef enum kiln_debug_mode {
    KILN_DEBUG_NONE,      /* the lit, tone-mapped image */
    KILN_DEBUG_NORMALS,   /* world normals, encoded n * 0.5 + 0.5 */
    KILN_DEBUG_CLUSTERS,  /* lights per cluster as a heat map */
    KILN_DEBUG_OVERDRAW,  /* additive, depth test off: each fragment adds 0.1 */
    KILN_DEBUG_ALBEDO,    /* base colour */
    KILN_DEBUG_CASCADES,  /* the sun's shadow cascade of each pixel as a tint, darkened where shadowed */
    KILN_DEBUG_AO,        /* the ambient occlusion the ambient term is multiplied by, as grey */
    KILN_DEBUG_LOD,       /* each instance's level of detail as a colour: green, blue, yellow, red
                           * for levels 0..3, shaded by how directly the surface faces the camera */
    KILN_DEBUG_COUNT
} kiln_debug_mode;

/* What fills the frame where no geometry is: the sky (the environment, procedural or a map), a
 * solid colour, or nothing (alpha 0, for compositing). The environment lights the scene in all
 * three; only the backdrop changes. */
typedef enum kiln_background_mode {
    KILN_BACKGROUND_SKY = 0,      /* the environment, as the sky pass draws it */
    KILN_BACKGROUND_COLOR,        /* settings.background_color, a display value */
    KILN_BACKGROUND_TRANSPARENT,  /* alpha 0 where nothing is drawn, coverage at edges */
} kiln_background_mode;

/* Zero-initialised means every documented default (the field comments give it). Switches that
 * default to on are phrased as disable_* so that zero keeps them on. A setting added in a later
 * release goes at the end, its zero meaning the image as it was before the setting. The renderer resolves the
 * defaults at the start of every frame, so a field set back to zero between frames means its
 * default again. */
typedef struct kiln_render_settings {
    kiln_tonemapper tonemapper;   /* default AgX */
    float exposure;               /* 0 means 1.0 */
    float ibl_intensity;          /* 0 means 1.0: scales the ambient term and the sky */
    kiln_debug_mode debug;        /* default KILN_DEBUG_NONE */
    uint32_t msaa;                /* samples per pixel of depth, HDR colour and sky: 1 or 4; 0
                                   * means 1 */
    bool fxaa;                    /* FXAA on the tone-mapped image; off by default */
    bool disable_bloom;           /* bloom on by default; true declares none of its passes */
    float bloom_strength;         /* 0 means 0.04: how much of the bloom chain the tone map adds
                                   * to the scene colour */
    float bloom_threshold;        /* 0 means 1.0: the scene-linear value (largest channel) where
                                   * bloom starts, softened over a knee of half of it each side */
    bool wireframe;               /* off by default; set, every triangle the camera draws gets
                                   * its edges drawn over the shaded image as dark lines about a
                                   * pixel wide (one more pass, on every adapter) */
    bool disable_culling;         /* frustum culling of instances on by default */
    bool disable_shadows;         /* shadows on by default (the sun's cascades, and the atlas for
                                   * lights with cast_shadows); when set no shadow view is fitted
                                   * or allocated and no shadow pass is declared */
    bool disable_ao;              /* ground-truth ambient occlusion (GTAO) from the depth on by
                                   * default; when set neither AO pass is declared and the ambient
                                   * term is occluded by the material's occlusion texture alone */
    float ao_radius;              /* metres around a point within which geometry occludes it; 0
                                   * means 0.5 */
    kiln_background_mode background; /* default KILN_BACKGROUND_SKY. COLOR and TRANSPARENT draw no
                                   * sky pass; the tone map composites the lit image, un-premultiplied
                                   * by its coverage, over background_color or writes it with its
                                   * coverage as alpha (straight alpha). Bloom glows over the
                                   * model only; debug views ignore the setting */
    kiln_vec3 background_color;   /* KILN_BACKGROUND_COLOR: the display colour (0..1 per channel,
                                   * as written to the target: sRGB-encoded values for sRGB and
                                   * unorm targets), not tone mapped */
    float shadow_distance;        /* metres in front of the camera the last cascade ends; 0 means
                                   * 60. A camera whose near plane is at or beyond it gets no
                                   * shadows */
    uint32_t cascade_resolution;  /* texels per side of each cascade's map, 16..8192; 0 means
                                   * 2048. Read every frame: a change makes a map of the new size
                                   * the next frame */
    uint32_t atlas_size;          /* texels per side of the spot and point lights' shadow atlas,
                                   * 64..8192; 0 means 4096. Read every frame */
    uint32_t atlas_tile;          /* texels per side of one light view's tile, at least 16 and
                                   * dividing atlas_size; 0 means 512 (64 tiles; at most
                                   * KILN_ATLAS_MAX_VIEWS = 64 are used) */
    uint32_t worker_threads;      /* read at creation: threads sharing the per-instance work of a
                                   * frame (culling, sort keys, instance records) by instance range,
                                   * the calling thread included, 1..KILN_MAX_WORKER_THREADS; 0
                                   * means automatic: one per core up to 8, and 1 (no worker
                                   * thread) on a machine of 2 cores or fewer, where a second
                                   * thread was not shown to pay (docs/PERFORMANCE.md). The frame's records and draws are
                                   * the same whatever the count */
    const char *shader_dir;       /* read at creation. NULL: kiln's embedded WGSL (nothing read,
                                   * nothing to reload); a directory: the programs are read from
                                   * it and hot reloaded, a name it lacks falling back to the
                                   * shader layer's built-ins */
    /* Colour grading (docs/guides/render.md, "Colour grading"): all zero leaves the image as the
     * tone map made it, and no pass runs. White balance acts in linear light before the tone
     * map; the others on the display image after it, in this order. */
    float white_balance_temperature; /* -1 (cooler) .. 1 (warmer); 0 none */
    float white_balance_tint;     /* -1 (greener) .. 1 (more magenta); 0 none */
    float contrast;               /* -1 (flat grey) .. 1 (twice the slope about mid grey); 0 none */
    float saturation;             /* -1 (grey) .. 1 (twice the colour about the luma); 0 none */
    kiln_vec3 lift;               /* per channel, -1..1: raises the blacks, white stays; 0 none */
    kiln_vec3 gamma;              /* per channel, (0, 4]: the midtones' exponent; 0 means 1 */
    kiln_vec3 gain;               /* per channel, (0, 4]: scales the whites; 0 means 1 */
    uint32_t color_lut;           /* 0: none. Else the id of a colour table in the renderer's
                                   * texture registry (kiln_import_color_lut: an N x N x N
                                   * RGBA16Float volume from a .cube file), applied last */
} kiln_render_settings;

/* The most threads settings.worker_threads may ask for. */
#define KILN_MAX_WORKER_THREADS 64

/* The settings with every zero field replaced by its default, in one place. Fails, naming the
 * field, for a value outside its range (a negative exposure, bloom strength or threshold, an
 * unknown tone mapper or debug mode, a sample count other than 1 or 4, an AO radius that is not a
 * positive finite number of metres); *out is then untouched. */
bool kiln_render_settings_resolve_sized(const kiln_render_settings *in, kiln_render_settings *out, size_t size,
                                       kiln_error *err);
/* The stable entry point above takes the caller's sizeof(kiln_render_settings), which `in` and
 * `out` both have: `in` is read that far (the fields past it take their defaults) and `out`
 * written no further (docs/ARCHITECTURE.md, "ABI of the public structs"). */
static inline bool kiln_render_settings_resolve(const kiln_render_settings *in, kiln_render_settings *out,
                                                kiln_error *err) {
    return kiln_render_settings_resolve_sized(in, out, sizeof *out, err);
}

/* ---- scene ---------------------------------------------------------------------------------------- */

/* Morph weights one instance carries: one per morph target a mesh may have. */
#define KILN_MAX_MORPH_WEIGHTS 8

/* One drawn object: a mesh with a material at a transform. */
typedef struct kiln_render_instance {
    uint32_t mesh;                    /* index into the renderer's mesh registry */
    uint32_t material;                /* index into the renderer's material registry */
    kiln_mat4 transform;              /* model to world */
    bool disable_shadow_casting;      /* casts shadows by default (zero); set, it is left out of
                                       * the shadow maps but still receives shadows. Blended
                                       * instances never cast */
    int32_t joint_offset;             /* read only when the mesh is skinned: the index in
                                       * scene.joints of the matrix for the mesh's joint 0;
                                       * -1 draws the bind pose, unskinned. Below -1, or with
                                       * the mesh's joints running past joint_count, render
                                       * fails naming the instance */
    float morph_weights[KILN_MAX_MORPH_WEIGHTS]; /* read only when the mesh has morph targets:
                                       * the weight of each of its targets (zero: the base
                                       * shape); a non-finite one fails render */
    uint32_t object_id;               /* what the target's object-id output holds where this
                                       * instance is the nearest surface (kiln_render_target);
                                       * 0, the default, reads the same as no surface. The glTF
                                       * importer sets node index + 1 */
} kiln_render_instance;

/* What lights the scene indirectly and fills the background: the procedural sky (zenith,
 * ground, the sun's glow and disc) or an equirectangular HDR map. The renderer bakes it into
 * image-based lighting (irradiance, prefiltered radiance) whenever it changes; zero fields mean
 * the defaults. */
typedef struct kiln_environment {
    kiln_vec3 zenith;                 /* zero means (0.25, 0.45, 0.9) */
    kiln_vec3 ground;                 /* zero means (0.28, 0.25, 0.22) */
    float sun_intensity;              /* 0 means 1.0: scales the sun disc in the sky */
    uint32_t equirect;                /* 0: the procedural sky. Else the id, in the renderer's
                                       * texture registry, of a plain Rgba16Float texture holding
                                       * an equirectangular map (kiln_image_load_hdr), which
                                       * replaces the sky; zenith, ground and sun_intensity are
                                       * then unused. At rotation 0 the image centre faces +X,
                                       * three quarters across faces +Z and the top row +Y, as in
                                       * the glTF Sample Renderer */
    float rotation;                   /* radians about +Y the map is turned by, counter-clockwise
                                       * seen from above: a direction d sees the map at
                                       * rotate_y(-rotation) d */
} kiln_environment;

typedef struct kiln_light kiln_light;

/* What one frame draws. Read during the render call only; the arrays stay the caller's. */
typedef struct kiln_render_scene {
    kiln_camera camera;           /* its aspect is set from the target every frame */
    const kiln_light *lights;     /* light_count lights; point and spot beyond KILN_MAX_LIGHTS are dropped */
    uint32_t light_count;         /* entries of lights */
    const kiln_render_instance *instances; /* instance_count instances */
    uint32_t instance_count;      /* entries of instances */
    const kiln_mat4 *joints;      /* joint_count skinning matrices (a joint's pose times its
                                   * inverse bind matrix, in the space the instance's transform
                                   * takes to the world: with an identity transform, glTF's joint
                                   * world matrix times inverse bind), which skinned instances
                                   * index from their joint_offset; copied verbatim each frame */
    uint32_t joint_count;         /* entries of joints */
    kiln_environment environment; /* sky and ambient */
} kiln_render_scene;

/* ---- statistics --------------------------------------------------------------------------------- */

/* Counts of the last frame (kiln_renderer_stats). */
typedef struct kiln_frame_stats {
    uint32_t instances_submitted;     /* instances in the scene */
    uint32_t instances_drawn;         /* instances left after frustum culling */
    uint32_t draw_calls;              /* forward opaque and blend */
    uint32_t prepass_draw_calls;      /* draws of the depth prepass */
    uint32_t shadow_draw_calls;       /* draws into the shadow maps, every cascade */
    uint32_t shadow_views;            /* shadow views rendered: the 4 cascades (or 0) and the
                                       * atlas views of spot (1 each) and point (6) lights */
    uint32_t shadowed_lights;         /* spot and point lights given atlas views this frame */
    uint32_t environment_bakes;       /* 1 when this frame re-baked the image-based lighting (the
                                       * environment or the sun changed, shaders were reloaded,
                                       * or kiln_renderer_invalidate_environment), else 0 */
    uint32_t wireframe_draw_calls;    /* draws of the wireframe pass: one per camera batch, or 0 */
    uint32_t data_draw_calls;         /* draws of the data outputs pass: one per opaque camera
                                       * batch when the target has data outputs, else 0 */
    uint32_t lights;                  /* point and spot lights packed this frame */
    uint32_t cluster_light_bound;     /* the CPU's upper bound of this frame's cluster light
                                       * references (light x cluster pairs the cull may list) */
    uint32_t cluster_list_capacity;   /* references the cluster index list holds: 110,592 (32 per
                                       * cluster) at first, doubled whenever the bound exceeds it */
    uint32_t cluster_light_references; /* the light references the cull wrote in frame
                                       * cluster_counts_frame (read back without waiting) */
    uint32_t cluster_dropped_references; /* references that frame's cull had no room for: 0
                                       * unless the bound is wrong */
    uint64_t cluster_counts_frame;    /* the frame those two counts are from, 1 being the
                                       * renderer's first, usually 1 to 3 frames before this one;
                                       * 0 until the first comes back */
    uint32_t passes;                  /* executed frame-graph passes */
    uint32_t transient_textures;      /* pooled physical textures */
} kiln_frame_stats;

#ifdef __cplusplus
}
#endif

#endif
