/* Register-time validation of a program's declared graph against its shader (internal to
 * src/program). Pure CPU: the declarations come from the WGSL scanner (wgsl_reflect.h). */
#ifndef KILN_PROGRAM_VALIDATE_H
#define KILN_PROGRAM_VALIDATE_H

#include <kiln/program.h>
#include <kiln/shader/wgsl_reflect.h>

/* Runs every check after "invalid_wgsl" in the documented class order (program.h), stopping at
 * the first failure: fills err->cls and err->message (naming the pass and slot) and returns false.
 * float32_blendable says whether the device can blend R32Float targets. */
bool kiln_program_validate(const kiln_program_desc *desc, const kiln_wgsl_module *module, bool float32_blendable,
                           kiln_program_error *err);

#endif
