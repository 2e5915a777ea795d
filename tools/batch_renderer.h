/* The warm renderer of kiln-render --batch: one device and one kiln_renderer for a whole shard,
 * the current model and environment kept while consecutive items share them.
 *
 * Pipelines are built once, with the renderer. A model stays imported while the next item names
 * the same file (and, for a model with animations, the same time; for a file camera, the same
 * camera), since the framing follows the bounds the import posed. Any other model replaces it:
 * every mesh, material and texture it added is removed, so the renderer holds one model at a
 * time, and mesh indices come back as a fresh renderer would hand them out. The environment map
 * stays in the texture registry while items name the same file, and the renderer bakes its
 * lighting again only when the map, its rotation or the sun changed. Each item's pixels depend
 * on its line alone, never on the items before it (docs/guides/batch.md, Determinism). */
#ifndef KILN_BATCH_RENDERER_H
#define KILN_BATCH_RENDERER_H

#include <stdbool.h>
#include <stdint.h>

#include "batch_manifest.h"

typedef struct batch_renderer batch_renderer;

/* Counts of the work done, for the summary line and the tests of warmth. */
typedef struct batch_renderer_counts {
    uint32_t model_reads;       /* model files read (kiln_gltf_load) */
    uint32_t model_imports;     /* imports into the renderer: a file read once is imported again
                                 * for another time of its animations or another file camera */
    uint32_t environment_loads; /* .hdr files read */
    uint32_t environment_bakes; /* frames that baked the image-based lighting */
    uint32_t recoveries;        /* devices made anew after a loss */
} batch_renderer_counts;

/* The device, its resources and the renderer; NULL with err filled. */
batch_renderer *batch_renderer_create(kiln_error *err);
void batch_renderer_destroy(batch_renderer *b);

/* Renders the item's outputs and writes each to its path through a temporary file
 * (PATH.partial, renamed over PATH once written and closed), so no PATH is ever half written.
 * False with err naming the input at fault: the model, the environment, the output file, or the
 * frame. */
bool batch_renderer_render(batch_renderer *b, const batch_item *item, kiln_error *err);

/* Whether the device is gone (nothing more can be rendered on it). */
bool batch_renderer_lost(const batch_renderer *b);
/* After a loss: a new device and resources, the renderer recreated on them from its CPU state
 * (kiln_renderer_recreate), so the imported model and the environment map carry on under the same
 * indices; the old device is then released. False with err when no new device can be made (the
 * batch cannot go on). */
bool batch_renderer_recover(batch_renderer *b, kiln_error *err);
/* Loses the device as a driver reset would (wgpuDeviceForceLoss): for testing the recovery. */
void batch_renderer_force_loss(batch_renderer *b);
batch_renderer_counts batch_renderer_counts_of(const batch_renderer *b);
/* The adapter's name, for the summary line. */
const char *batch_renderer_adapter(const batch_renderer *b);
/* Prints the device's warnings and errors logged since the last call, as kiln-render does. */
void batch_renderer_print_diagnostics(batch_renderer *b);

#endif
