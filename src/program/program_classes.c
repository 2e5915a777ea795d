/* The stable identifiers of the program register and dispatch failure classes (program.h). They
 * are part of the JSON surface and of log lines a caller may match on, so they never change once
 * shipped; tables indexed by the enum keep each name next to nothing but its class. */
#include <kiln/program.h>

static const char *const program_class_names[KILN_PROGRAM_CLASS_COUNT] = {
    [KILN_PROGRAM_OK] = "ok",
    [KILN_PROGRAM_INVALID_WGSL] = "invalid_wgsl",
    [KILN_PROGRAM_EMPTY_GRAPH] = "empty_graph",
    [KILN_PROGRAM_UNSUPPORTED_STAGE] = "unsupported_stage",
    [KILN_PROGRAM_BAD_GEOMETRY_SLOT] = "bad_geometry_slot",
    [KILN_PROGRAM_BAD_DRAW_SETS_LAYOUT] = "bad_draw_sets_layout",
    [KILN_PROGRAM_ZERO_DIVISOR] = "zero_divisor",
    [KILN_PROGRAM_BAD_DEPTH_SIDE] = "bad_depth_side",
    [KILN_PROGRAM_UNRESOLVABLE_SAMPLES] = "unresolvable_samples",
    [KILN_PROGRAM_BAD_BUFFER] = "bad_buffer",
    [KILN_PROGRAM_BAD_BUFFER_USE] = "bad_buffer_use",
    [KILN_PROGRAM_COMPUTE_OUTPUT] = "compute_output",
    [KILN_PROGRAM_BAD_WORKGROUPS] = "bad_workgroups",
    [KILN_PROGRAM_BAD_INDIRECT] = "bad_indirect",
    [KILN_PROGRAM_BAD_OUTPUT] = "bad_output",
    [KILN_PROGRAM_MISSING_OUTPUT] = "missing_output",
    [KILN_PROGRAM_BAD_GEOMETRY] = "bad_geometry",
    [KILN_PROGRAM_BAD_DEPTH] = "bad_depth",
    [KILN_PROGRAM_FIXED_DEPTH] = "fixed_depth_with_output",
    [KILN_PROGRAM_DEPTH_EXTENT] = "depth_extent_mismatch",
    [KILN_PROGRAM_DEPTH_SAMPLES] = "depth_samples_mismatch",
    [KILN_PROGRAM_BAD_DEPTH_ONLY] = "bad_depth_only",
    [KILN_PROGRAM_BAD_LIST] = "bad_list",
    [KILN_PROGRAM_BAD_INPUT] = "bad_input",
    [KILN_PROGRAM_BAD_DEPTH_INPUT] = "bad_depth_input",
    [KILN_PROGRAM_READ_BEFORE_WRITE] = "read_before_write",
    [KILN_PROGRAM_READS_OWN_OUTPUT] = "reads_own_output",
    [KILN_PROGRAM_FINAL_PASS_NOT_BINDING] = "final_pass_not_binding",
    [KILN_PROGRAM_REFERENCE_NOT_FULL] = "reference_not_full",
    [KILN_PROGRAM_BAD_REPEAT] = "bad_repeat",
    [KILN_PROGRAM_MISSING_ENTRY_POINT] = "missing_entry_point",
    [KILN_PROGRAM_MISSING_VERTEX_ENTRY] = "missing_vertex_entry_point",
    [KILN_PROGRAM_VERTEX_LAYOUT_MISMATCH] = "vertex_layout_mismatch",
    [KILN_PROGRAM_UNIFORM_WINDOW_SHORT] = "uniform_window_short",
    [KILN_PROGRAM_INPUT_MISMATCH] = "input_mismatch",
    [KILN_PROGRAM_BUFFER_MISMATCH] = "buffer_mismatch",
    [KILN_PROGRAM_DEPTH_ONLY_COLOR] = "depth_only_returns_color",
    [KILN_PROGRAM_UNDECLARED_DEPTH] = "frag_depth_without_slot",
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
    [KILN_DISPATCH_UNKNOWN_GEOMETRY] = "unknown_geometry",
    [KILN_DISPATCH_GEOMETRY_LAYOUT] = "geometry_layout_mismatch",
    [KILN_DISPATCH_DRAW_SET_COUNT] = "draw_set_count",
    [KILN_DISPATCH_UNKNOWN_DRAW_SET] = "unknown_draw_set",
    [KILN_DISPATCH_DRAW_SET_LAYOUT] = "draw_set_layout_mismatch",
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

static const char *const geometry_class_names[KILN_GEOMETRY_CLASS_COUNT] = {
    [KILN_GEOMETRY_OK] = "ok",
    [KILN_GEOMETRY_EMPTY_LAYOUT] = "empty_layout",
    [KILN_GEOMETRY_LAYOUT_TOO_LONG] = "layout_too_long",
    [KILN_GEOMETRY_UNKNOWN_FORMAT] = "unknown_vertex_format",
    [KILN_GEOMETRY_BAD_LOCATION] = "bad_location",
    [KILN_GEOMETRY_DUPLICATE_LOCATION] = "duplicate_location",
    [KILN_GEOMETRY_TOO_LARGE] = "geometry_too_large",
    [KILN_GEOMETRY_VERTEX_BYTES] = "vertex_bytes",
    [KILN_GEOMETRY_INDEX_BYTES] = "index_bytes",
    [KILN_GEOMETRY_INDEX_COUNT] = "index_count",
    [KILN_GEOMETRY_INDEX_RANGE] = "index_out_of_range",
    [KILN_GEOMETRY_UNKNOWN_ID] = "unknown_geometry",
    [KILN_GEOMETRY_HELD] = "geometry_held",
};

const char *kiln_geometry_class_name(kiln_geometry_class c) {
    if ((unsigned)c >= KILN_GEOMETRY_CLASS_COUNT) return "invalid_class";
    return geometry_class_names[c];
}

static const char *const instances_class_names[KILN_INSTANCES_CLASS_COUNT] = {
    [KILN_INSTANCES_OK] = "ok",
    [KILN_INSTANCES_BAD_LAYOUT] = "bad_instance_layout",
    [KILN_INSTANCES_ZERO_CAPACITY] = "zero_capacity",
    [KILN_INSTANCES_TOO_LARGE] = "instances_too_large",
    [KILN_INSTANCES_RECORD_BYTES] = "record_bytes",
    [KILN_INSTANCES_PAST_CAPACITY] = "records_past_capacity",
    [KILN_INSTANCES_UNKNOWN_ID] = "unknown_instances",
};

const char *kiln_instances_class_name(kiln_instances_class c) {
    if ((unsigned)c >= KILN_INSTANCES_CLASS_COUNT) return "invalid_class";
    return instances_class_names[c];
}

static const char *const draw_set_class_names[KILN_DRAW_SET_CLASS_COUNT] = {
    [KILN_DRAW_SET_OK] = "ok",
    [KILN_DRAW_SET_BAD_LAYOUT] = "bad_draw_set_layout",
    [KILN_DRAW_SET_UNKNOWN_ID] = "unknown_draw_set",
    [KILN_DRAW_SET_BAD_FIRST] = "patch_past_end",
    [KILN_DRAW_SET_UNKNOWN_GEOMETRY] = "unknown_geometry",
    [KILN_DRAW_SET_GEOMETRY_LAYOUT] = "geometry_layout_mismatch",
    [KILN_DRAW_SET_INDEX_RANGE] = "index_range",
    [KILN_DRAW_SET_UNKNOWN_INSTANCES] = "unknown_instances",
    [KILN_DRAW_SET_INSTANCES_LAYOUT] = "instances_layout_mismatch",
    [KILN_DRAW_SET_INSTANCE_RANGE] = "instance_range",
};

const char *kiln_draw_set_class_name(kiln_draw_set_class c) {
    if ((unsigned)c >= KILN_DRAW_SET_CLASS_COUNT) return "invalid_class";
    return draw_set_class_names[c];
}
