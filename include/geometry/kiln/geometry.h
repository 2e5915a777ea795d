/* kiln/geometry: everything of the geometry layer in one include.
 *   kiln/geometry/mesh_data.h  CPU meshes, bounds, tangents, primitives, vertex stream packing
 *                              (includes only core: for code that must not see the GPU)
 *   kiln/geometry/gpu_mesh.h   kiln_gpu_mesh, its upload, the vertex layouts for pipelines
 *   kiln/geometry/registry.h   the geometry registry: ids, CPU copies, lazy GPU meshes, sync */
#ifndef KILN_GEOMETRY_H
#define KILN_GEOMETRY_H

#include <kiln/geometry/gpu_mesh.h>
#include <kiln/geometry/mesh_data.h>
#include <kiln/geometry/registry.h>

#endif
