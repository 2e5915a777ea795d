/* kiln/geometry/mesh_data: meshes on the CPU (kiln_mesh_data), their bounds, normals, tangents
 * and primitives, and the vertex streams they pack into, as plain data. This header sees only
 * core, so code that must not reach the GPU (an asset loader) builds meshes with it;
 * tests/geometry/CMakeLists.txt compiles and links it and its sources against core alone.
 * The GPU side is kiln/geometry/gpu_mesh.h, the registry kiln/geometry/registry.h.
 *
 * Conventions (docs/guides/meshes.md has the long form):
 *   - Right-handed, Y up; triangle lists, counter-clockwise seen from the side the normal faces.
 *   - uv0 and uv1 use the glTF / WebGPU texture convention: (0, 0) is the top-left texel and v
 *     grows downwards in the image.
 *   - Tangents are (xyz, w) with the bitangent B = cross(N, T.xyz) * T.w (glTF). B points "up" in
 *     the texture (towards decreasing v), which is where a tangent-space normal map's +Y (green)
 *     points. This is MikkTSpace run on (u, 1 - v).
 *
 * Vertex streams (shared with the WGSL side):
 *   slot 0, KILN_VERTEX_STRIDE = 64 bytes per vertex:
 *     @0  position f32x3 (location 0)   @12 normal f32x3 (location 1)   @24 tangent f32x4 (2)
 *     @40 uv0 f32x2 (location 3)        @48 uv1 f32x2 (location 4)      @56 color unorm16x4 (7)
 *   slot 1, KILN_SKIN_STRIDE = 24 bytes per vertex, only for skinned meshes:
 *     @0  joints u16x4 (location 5)     @8  weights f32x4 (location 6)
 *   morph deltas, a storage buffer of KILN_MORPH_DELTA_STRIDE = 48 bytes per vertex per target:
 *     element (vertex * morph_target_count + target) is three vec4<f32>:
 *     (position delta xyz, 0), (normal delta xyz, 0), then (tangent delta xyz, 0).
 *   indices: u32, triangle list.
 *
 * Ownership: a kiln_mesh_data owns every array it points to; kiln_mesh_data_free releases them
 * with free(), so arrays attached by hand must come from malloc. */
#ifndef KILN_GEOMETRY_MESH_DATA_H
#define KILN_GEOMETRY_MESH_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_MAX_MORPH_TARGETS 8    /* morph targets (blend shapes) one mesh may carry */
#define KILN_MESH_MAX_LODS 4        /* levels of detail one GPU mesh may describe */

#define KILN_VERTEX_STRIDE 64       /* bytes per vertex of stream slot 0 */
#define KILN_SKIN_STRIDE 24         /* bytes per vertex of stream slot 1 (skinned meshes) */
#define KILN_MORPH_DELTA_STRIDE 48  /* bytes per vertex per target of the morph delta buffer */

/* Byte offsets inside the two vertex streams. */
enum {
    KILN_VERTEX_OFFSET_POSITION = 0,
    KILN_VERTEX_OFFSET_NORMAL = 12,
    KILN_VERTEX_OFFSET_TANGENT = 24,
    KILN_VERTEX_OFFSET_UV0 = 40,
    KILN_VERTEX_OFFSET_UV1 = 48,
    KILN_VERTEX_OFFSET_COLOR = 56,
    KILN_SKIN_OFFSET_JOINTS = 0,
    KILN_SKIN_OFFSET_WEIGHTS = 8,
};

/* Shader locations (@location(n) in WGSL) of each attribute. */
enum {
    KILN_LOCATION_POSITION = 0,
    KILN_LOCATION_NORMAL = 1,
    KILN_LOCATION_TANGENT = 2,
    KILN_LOCATION_UV0 = 3,
    KILN_LOCATION_UV1 = 4,
    KILN_LOCATION_JOINTS = 5,
    KILN_LOCATION_WEIGHTS = 6,
    KILN_LOCATION_COLOR = 7,
};

/* Which optional streams kiln_mesh_data_init allocates. Positions, normals, uv0 and indices are
 * always allocated. */
enum {
    KILN_MESH_TANGENTS = 1u << 0,
    KILN_MESH_UV1 = 1u << 1,
    KILN_MESH_SKIN = 1u << 2, /* joints and weights, always together */
    KILN_MESH_COLORS = 1u << 3,
};

/* Four joint indices of one vertex, into the skin's joint palette. */
typedef struct kiln_joints4 { uint16_t j[4]; /* joint indices, paired with weights x, y, z, w */ } kiln_joints4;

/* Displacements of one blend shape, one per vertex. Either array may be NULL: zero deltas. */
typedef struct kiln_morph_target {
    kiln_vec3 *position_deltas;  /* vertex_count entries, model units, added at weight 1 */
    kiln_vec3 *normal_deltas;    /* vertex_count entries, added to the normal at weight 1 */
    kiln_vec3 *tangent_deltas;   /* vertex_count entries added to the tangent's direction at weight
                                  * 1 (glTF's TANGENT target: xyz, the handedness never moves);
                                  * optional: NULL packs zeros, and add_morph_target leaves it so */
} kiln_morph_target;

/* A triangle mesh on the CPU: parallel per-vertex arrays of vertex_count entries each.
 * Required: positions, normals, uv0, indices. Optional (NULL when absent; the upload packs the
 * default): tangents (1, 0, 0, 1), uv1 (a copy of uv0), colors (white). joints and weights are a pair: both NULL
 * or both present; with them the mesh is skinned. */
typedef struct kiln_mesh_data {
    uint32_t vertex_count;    /* entries of every per-vertex array */
    kiln_vec3 *positions;     /* model space; required */
    kiln_vec3 *normals;       /* unit length; required */
    kiln_vec4 *tangents;      /* xyz unit and perpendicular to the normal, w = +1 or -1 */
    kiln_vec2 *uv0;           /* texture coordinates set 0; required */
    kiln_vec2 *uv1;           /* texture coordinates set 1; optional */
    kiln_vec4 *colors;        /* vertex colours (glTF's COLOR_0), linear RGBA in [0, 1] multiplying
                               * the base colour; optional; packed as unorm16 */
    kiln_joints4 *joints;     /* skin joint indices; optional, paired with weights */
    kiln_vec4 *weights;       /* packed as given: glTF requires them to sum to 1 */
    uint32_t index_count;     /* a multiple of 3 */
    uint32_t *indices;        /* index_count entries, each below vertex_count; triangle list */
    uint32_t morph_target_count; /* targets in use, at most KILN_MAX_MORPH_TARGETS */
    kiln_morph_target morph_targets[KILN_MAX_MORPH_TARGETS]; /* the first morph_target_count are used */
} kiln_mesh_data;

/* Axis-aligned box and the bounding sphere centred on the box centre (radius: the farthest
 * vertex). Morph targets widen both as if every weight could be anywhere in [0, 1]. */
typedef struct kiln_mesh_bounds {
    /*@{*/
    kiln_vec3 min, max, center; /* model space: the box's corners and its centre */
    /*@}*/
    float radius;             /* the sphere's, around center, in model units */
} kiln_mesh_bounds;

/* Allocates zeroed arrays for vertex_count vertices and index_count indices, plus the optional
 * streams named by `flags` (KILN_MESH_*). `md` is overwritten: pass a zeroed or freed struct.
 * Fails (md zeroed) on zero counts, unknown flags or when memory runs out. */
bool kiln_mesh_data_init(kiln_mesh_data *md, uint32_t vertex_count, uint32_t index_count, uint32_t flags,
                         kiln_error *err);
/* Releases every array and morph target and zeroes the struct; safe on a zeroed struct. */
void kiln_mesh_data_free(kiln_mesh_data *md);
/* Deep-copies `src` into `dst` (overwritten: pass a zeroed or freed struct): every array present,
 * every morph target. `src` must validate (kiln_mesh_data_validate), so the counts it carries are
 * the lengths of its arrays. Fails (dst zeroed) when it does not, or when memory runs out. */
bool kiln_mesh_data_copy(kiln_mesh_data *dst, const kiln_mesh_data *src, kiln_error *err);
/* Appends a morph target with zeroed position and normal deltas; NULL when there are already
 * KILN_MAX_MORPH_TARGETS, the mesh has no vertices, or memory runs out. */
kiln_morph_target *kiln_mesh_data_add_morph_target(kiln_mesh_data *md, kiln_error *err);

/* Checks, in this order, and fails with a message naming the rule and the vertex or index:
 * vertices present, required streams present, joints/weights pairing, morph target count,
 * indices present and a multiple of 3, every index below vertex_count, finite positions. */
bool kiln_mesh_data_validate(const kiln_mesh_data *md, kiln_error *err);
/* True when the mesh has both joints and weights. */
bool kiln_mesh_data_has_skin(const kiln_mesh_data *md);
/* The joints a skinned mesh reads: its largest joint index + 1 (every index of every vertex,
 * whatever its weight); 0 without a skin. */
uint32_t kiln_mesh_data_joint_count(const kiln_mesh_data *md);

/* Area-weighted vertex normals: each triangle adds its unnormalised face cross product to its
 * three vertices. Vertices that no triangle with area touches get +Y. Allocates `normals` when
 * NULL. Fails (nothing changed) when the mesh does not validate. */
bool kiln_mesh_data_compute_normals(kiln_mesh_data *md, kiln_error *err);
/* MikkTSpace-equivalent tangents from positions, normals and uv0 (mesh_tangents.c says how).
 * Allocates `tangents` when NULL. Fails (nothing changed) when the mesh does not validate. */
bool kiln_mesh_data_compute_tangents(kiln_mesh_data *md, kiln_error *err);
/* The mesh's bounds, as kiln_mesh_bounds describes them. */
kiln_mesh_bounds kiln_mesh_data_bounds(const kiln_mesh_data *md);

/* Primitives, with normals, uv0 and computed tangents. `md` is overwritten (pass a zeroed or
 * freed struct); the caller frees it.
 *   cube: 24 vertices (4 per face, per-face normals), each face's uv spans [0, 1].
 *   uv_sphere: `rings` latitude bands (>= 2) and `segments` longitude slices (>= 3):
 *     2 * segments + (rings - 1) * (segments + 1) vertices (each pole has one per segment, the
 *     seam column is duplicated); u = 0.5 faces +Z and grows towards +X there, v = 0 at +Y.
 *   plane: on XZ facing +Y, `subdivisions` (>= 1) quads per side, u along +X, v along +Z. */
bool kiln_mesh_cube(kiln_mesh_data *md, float half_extent, kiln_error *err);
bool kiln_mesh_uv_sphere(kiln_mesh_data *md, float radius, uint32_t rings, uint32_t segments, kiln_error *err);
bool kiln_mesh_plane(kiln_mesh_data *md, float half_extent, uint32_t subdivisions, kiln_error *err);

/* Pack the streams into caller memory. Each returns the bytes written, or 0 (nothing written)
 * when out_size is too small or the mesh has nothing to pack (no vertices, no skin, no morph
 * targets). Sizes: vertex_count * KILN_VERTEX_STRIDE, vertex_count * KILN_SKIN_STRIDE and
 * vertex_count * morph_target_count * KILN_MORPH_DELTA_STRIDE. Defaults for absent optional
 * streams are written as documented at kiln_mesh_data. */
size_t kiln_mesh_pack_vertices(const kiln_mesh_data *md, void *out, size_t out_size);
size_t kiln_mesh_pack_skin(const kiln_mesh_data *md, void *out, size_t out_size);
size_t kiln_mesh_pack_morph_deltas(const kiln_mesh_data *md, void *out, size_t out_size);

/* A contiguous range of the index buffer drawn for one level of detail. */
typedef struct kiln_mesh_lod {
    uint32_t first_index;     /* offset into the index buffer, in indices */
    uint32_t index_count;     /* indices drawn, a multiple of 3 */
    float error;              /* how far this level strays from full detail, relative to the
                               * mesh's extent (meshoptimizer's measure); 0 for full detail */
} kiln_mesh_lod;

/* Levels of detail (mesh_lods.c, with meshoptimizer). */
#define KILN_MESH_LOD_MIN_TRIANGLES 64 /* a mesh of this many triangles or fewer keeps one level */
#define KILN_MESH_LOD_MAX_ERROR 0.02f  /* the error bound of every level, relative to the extent */

/* Builds levels of detail into `md` itself, for a mesh of more than KILN_MESH_LOD_MIN_TRIANGLES:
 *   - level 0 is the mesh's own triangles reordered for the vertex cache, and the vertices are
 *     reordered for fetch locality (every per-vertex stream, the morph target deltas included,
 *     moves together; vertices no triangle uses are dropped, so vertex_count may shrink);
 *   - level k targets half the triangles of level k - 1, simplified from level 0 with borders
 *     locked and at most KILN_MESH_LOD_MAX_ERROR of error, then reordered for the cache too;
 *   - at most KILN_MESH_MAX_LODS levels; the build stops early when a level would keep more than
 *     3/4 of the triangles of the one before (the error bound or the topology stalled it).
 * md's index array becomes every level back to back (index_count their sum); lods[k] names
 * level k's range. Simplification only picks among existing vertices, so each level draws from
 * the one vertex array. A mesh at or below the triangle threshold is left as it is, with one
 * level spanning its indices. Returns the level count (1..KILN_MESH_MAX_LODS), or 0 with the
 * reason when the mesh does not validate or memory runs out; md is then unchanged. */
uint32_t kiln_mesh_data_build_lods(kiln_mesh_data *md, kiln_mesh_lod lods[KILN_MESH_MAX_LODS], kiln_error *err);

#ifdef __cplusplus
}
#endif

#endif
