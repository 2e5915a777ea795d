/* Register-time validation of a program's declared graph against its shader (internal to
 * src/program). Pure CPU: the declarations come from the WGSL scanner (wgsl_reflect.h). */
#ifndef KILN_PROGRAM_VALIDATE_H
#define KILN_PROGRAM_VALIDATE_H

#include <kiln/program.h>
#include <kiln/shader/wgsl_reflect.h>

/* What validation reads of the device: whether it can blend R32Float targets, and the largest 2D
 * texture side (a Fixed depth slot's ceiling; 0 reads as WebGPU's default, 8192). */
typedef struct kiln_program_caps {
    bool float32_blendable;
    uint32_t max_texture_dimension_2d;
    uint64_t max_storage_buffer_binding_size;   /* 0 reads as WebGPU's default, 128 MiB */
    uint32_t max_compute_workgroups_per_dimension; /* 0 reads as WebGPU's default, 65535 */
} kiln_program_caps;

/* Runs every check after "invalid_wgsl" in the documented class order (program.h), stopping at
 * the first failure: fills err->cls and err->message (naming the pass and slot) and returns false. */
bool kiln_program_validate(const kiln_program_desc *desc, const kiln_wgsl_module *module,
                           const kiln_program_caps *caps, kiln_program_error *err);
/* The draw-set lists a dispatch of the program supplies: one more than the highest list any
 * draw-sets pass names (0 without such passes). */
uint32_t kiln_program_list_count(const kiln_program_desc *desc);
/* The first integer @location varying (a vertex output or fragment input) of the module that lacks
 * @interpolate(flat), which WGSL requires: false with err naming `source:line:col`, entry and io. */
bool kiln_program_check_flat(const kiln_wgsl_module *module, kiln_program_error *err);

#endif
