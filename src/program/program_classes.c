/* The stable identifiers of the program register and dispatch failure classes (program.h). They
 * are part of the JSON surface and of log lines a caller may match on, so they never change once
 * shipped; tables indexed by the enum keep each name next to nothing but its class. */
#include <kiln/program.h>

static const char *const program_class_names[KILN_PROGRAM_CLASS_COUNT] = {
    [KILN_PROGRAM_OK] = "ok",
    [KILN_PROGRAM_INVALID_WGSL] = "invalid_wgsl",
    [KILN_PROGRAM_EMPTY_GRAPH] = "empty_graph",
    [KILN_PROGRAM_UNSUPPORTED_STAGE] = "unsupported_stage",
    [KILN_PROGRAM_ZERO_DIVISOR] = "zero_divisor",
    [KILN_PROGRAM_UNRESOLVABLE_SAMPLES] = "unresolvable_samples",
    [KILN_PROGRAM_BAD_OUTPUT] = "bad_output",
    [KILN_PROGRAM_MISSING_OUTPUT] = "missing_output",
    [KILN_PROGRAM_BAD_INPUT] = "bad_input",
    [KILN_PROGRAM_READ_BEFORE_WRITE] = "read_before_write",
    [KILN_PROGRAM_READS_OWN_OUTPUT] = "reads_own_output",
    [KILN_PROGRAM_FINAL_PASS_NOT_BINDING] = "final_pass_not_binding",
    [KILN_PROGRAM_REFERENCE_NOT_FULL] = "reference_not_full",
    [KILN_PROGRAM_BAD_REPEAT] = "bad_repeat",
    [KILN_PROGRAM_MISSING_ENTRY_POINT] = "missing_entry_point",
    [KILN_PROGRAM_UNIFORM_WINDOW_SHORT] = "uniform_window_short",
    [KILN_PROGRAM_INPUT_MISMATCH] = "input_mismatch",
    [KILN_PROGRAM_PIPELINE_FAILED] = "pipeline_creation_failed",
    [KILN_PROGRAM_DEVICE_LIMIT] = "device_limit",
};

static const char *const dispatch_class_names[KILN_DISPATCH_CLASS_COUNT] = {
    [KILN_DISPATCH_OK] = "ok",
    [KILN_DISPATCH_UNKNOWN_PROGRAM] = "unknown_program",
    [KILN_DISPATCH_BINDING_COUNT] = "binding_count",
    [KILN_DISPATCH_GEOMETRY_COUNT] = "geometry_count",
    [KILN_DISPATCH_UNKNOWN_TEXTURE] = "unknown_texture",
    [KILN_DISPATCH_FORMAT_MISMATCH] = "format_mismatch",
    [KILN_DISPATCH_TARGET_SIZE] = "target_size_mismatch",
    [KILN_DISPATCH_WRONG_KIND] = "wrong_texture_kind",
    [KILN_DISPATCH_NOT_WRITABLE] = "not_writable",
    [KILN_DISPATCH_UNIFORMS_SHORT] = "uniforms_short",
    [KILN_DISPATCH_INPUT_IS_OUTPUT] = "input_is_output",
    [KILN_DISPATCH_FRAME_PASS_LIMIT] = "frame_pass_limit",
    [KILN_DISPATCH_DEVICE_LIMIT] = "device_limit",
};

/* A value outside the enum (a cast integer) still gets a printable name, so a caller can put the
 * result straight into a message. */
const char *kiln_program_class_name(kiln_program_class c) {
    if ((unsigned)c >= KILN_PROGRAM_CLASS_COUNT) return "invalid_class";
    return program_class_names[c];
}

const char *kiln_dispatch_class_name(kiln_dispatch_class c) {
    if ((unsigned)c >= KILN_DISPATCH_CLASS_COUNT) return "invalid_class";
    return dispatch_class_names[c];
}
