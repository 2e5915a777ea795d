/* kiln/geometry/registry: the registry of meshes the renderer draws (kiln_renderer_add_mesh goes
 * through the renderer's own, kiln_renderer_geometry_registry).
 *
 * A mesh is named by a dense id (1, 2, 3, ...; 0 is never an id). Add validates first, so a
 * rejected add takes no id. The spec's mesh registry rule holds: a removed mesh's slot is reused,
 * so add hands out the lowest removed id when there is one and the next new id otherwise; the id
 * sequence has no holes that stay holes. Replace keeps the id.
 *
 * The CPU copy taken at add / replace is the source of truth: the GPU mesh is uploaded from it
 * lazily, at the next kiln_geometry_registry_sync (which kiln_renderer_record calls right after the
 * texture sync) or the first time kiln_geometry_registry_gpu_mesh asks for it. A replace of a mesh already
 * on the GPU uploads the new version at once, so the GPU mesh never lags its CPU copy.
 *
 * Ownership: the registry owns the CPU copies and the GPU meshes (buffers in the kiln_resources it
 * was created with, which must outlive it); the caller keeps the kiln_mesh_data it passed in.
 * Pointers returned by the queries stay valid until that id is replaced or removed.
 * Main-thread only. */
#ifndef KILN_GEOMETRY_REGISTRY_H
#define KILN_GEOMETRY_REGISTRY_H

#include <kiln/geometry/gpu_mesh.h>
#include <kiln/geometry/mesh_data.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the registry knows of a mesh without the GPU: filled at add and replace. */
typedef struct kiln_geometry_info {
    const char *label;         /* copied at add ("mesh" when none was given) */
    uint32_t vertex_count;     /* of the CPU copy */
    uint32_t index_count;      /* the full-detail count, lods[0].index_count */
    uint32_t morph_target_count; /* of the CPU copy */
    bool skinned;              /* the mesh has joints and weights */
    uint32_t joint_count;      /* skinned: kiln_mesh_data_joint_count, the palette entries an
                                * instance reads from its joint_offset; 0 otherwise */
    kiln_mesh_bounds bounds;   /* kiln_mesh_data_bounds of the CPU copy */
    uint32_t lod_count;        /* 1 (the whole index array) unless added with levels of detail */
    kiln_mesh_lod lods[KILN_MESH_MAX_LODS]; /* index ranges, full detail first */
} kiln_geometry_info;

/* The registry: ids, CPU copies and lazily uploaded GPU meshes. Opaque. */
typedef struct kiln_geometry_registry kiln_geometry_registry;

/* Creates an empty registry whose GPU meshes live in `res` (borrowed), or returns NULL with err
 * filled. */
kiln_geometry_registry *kiln_geometry_registry_create(kiln_resources *res, kiln_error *err);
/* Releases every CPU copy and GPU mesh; safe on NULL. */
void kiln_geometry_registry_destroy(kiln_geometry_registry *reg);

/* Validates `data` (kiln_mesh_data_validate) and copies it; returns the id, or 0 with
 * "geometry '<label>': <reason>". Nothing reaches the GPU until the next sync. The mesh has one
 * level of detail, its whole index array. */
uint32_t kiln_geometry_registry_add(kiln_geometry_registry *reg, const char *label, const kiln_mesh_data *data, kiln_error *err);
/* The same, then builds levels of detail into the copy (kiln_mesh_data_build_lods: reordered
 * vertices, every level in its index array, one level for 64 triangles or fewer); info.lods names
 * them and the GPU mesh draws them from one index buffer. A replace of this id builds them again. */
uint32_t kiln_geometry_registry_add_lods(kiln_geometry_registry *reg, const char *label, const kiln_mesh_data *data,
                                         kiln_error *err);
/* Replaces the mesh under `id` with a copy of `data` (with levels of detail built when the id was
 * added with them), uploading it first when the old version is on the GPU. Fails, leaving the
 * id's CPU copy and GPU mesh as they were, for an unknown or removed id ("unknown geometry id
 * N"), a mesh that does not validate or an upload that fails ("geometry N '<label>': <reason>"). */
bool kiln_geometry_registry_replace(kiln_geometry_registry *reg, uint32_t id, const kiln_mesh_data *data, kiln_error *err);
/* The same, choosing afresh whether the id has levels of detail (a success keeps that choice for
 * later replaces): kiln_renderer_replace_mesh's `lods`. */
bool kiln_geometry_registry_replace_lods(kiln_geometry_registry *reg, uint32_t id, const kiln_mesh_data *data, bool lods,
                                         kiln_error *err);
/* Releases the mesh's CPU copy and GPU mesh; the next add takes the id again. Fails for an
 * unknown or already removed id. */
bool kiln_geometry_registry_remove(kiln_geometry_registry *reg, uint32_t id, kiln_error *err);

/* The mesh's info, and its bounds alone; NULL for an id that is unknown or removed. */
const kiln_geometry_info *kiln_geometry_registry_info(const kiln_geometry_registry *reg, uint32_t id);
const kiln_mesh_bounds *kiln_geometry_registry_bounds(const kiln_geometry_registry *reg, uint32_t id);
/* The CPU copy, the source of truth the GPU mesh is uploaded from. With levels of detail its
 * index array holds all of them back to back; info.lods names each one's range. */
const kiln_mesh_data *kiln_geometry_registry_data(const kiln_geometry_registry *reg, uint32_t id);
/* The highest id handed out so far: ids 1..count are live or removed, none is unknown. */
uint32_t kiln_geometry_registry_count(const kiln_geometry_registry *reg);

/* The GPU mesh, uploaded now if it is not yet. NULL with "unknown geometry id N", or with the
 * upload's reason naming the mesh. */
const kiln_gpu_mesh *kiln_geometry_registry_gpu_mesh(kiln_geometry_registry *reg, uint32_t id, kiln_error *err);

/* Moves the registry to other resources (a new device after the old one was lost): every GPU
 * mesh is released through the old resources, which must still exist, and every mesh becomes
 * pending, uploaded from its CPU copy into `res` at the next sync. Ids, CPU copies and infos are
 * unchanged. Allocates nothing and cannot fail. */
void kiln_geometry_registry_move_to(kiln_geometry_registry *reg, kiln_resources *res);
/* The resources the registry's GPU meshes live in. */
kiln_resources *kiln_geometry_registry_resources(const kiln_geometry_registry *reg);

/* The sync point: uploads every mesh not yet on the GPU. With nothing pending it does nothing and
 * allocates nothing. Fails naming the mesh ("geometry registry sync: geometry N '<label>': ...")
 * when its buffers cannot be made; that mesh and the ones after it stay pending. */
bool kiln_geometry_registry_sync(kiln_geometry_registry *reg, kiln_error *err);

/* Counters for tests and tools that check what a sync did. */
typedef struct kiln_geometry_registry_stats {
    uint64_t uploads;          /* GPU meshes made over the registry's life (sync, first use, replace) */
    uint32_t gpu_meshes;       /* GPU meshes alive now */
} kiln_geometry_registry_stats;
/* The registry's counters now. */
kiln_geometry_registry_stats kiln_geometry_registry_get_stats(const kiln_geometry_registry *reg);

#ifdef __cplusplus
}
#endif

#endif
