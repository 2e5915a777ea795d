/* World bounds of a set of instances, from their meshes' model-space bounds. */
#ifndef KILN_IMPORT_BOUNDS_H
#define KILN_IMPORT_BOUNDS_H

#include <kiln/import.h>

/* The world box over every instance (each mesh box's eight corners transformed), centred sphere
 * around the box centre: the smaller of the box's half diagonal and the farthest transformed
 * mesh sphere (centre distance plus radius times the transform's largest axis scale), both of
 * which hold every vertex. Zero for count 0. */
kiln_mesh_bounds bounds_of_instances(const kiln_render_instance *instances, const kiln_mesh_bounds *model_bounds,
                                     uint32_t count);

#endif
