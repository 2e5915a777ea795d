/* Internal to src/program: a registered program as the runtime keeps it (its copied declaration,
 * the plan register derived from it, its GPU objects and caches), the dispatch queue, and the
 * calls the runtime's files make of each other.
 *
 *   programs.c           create/destroy, the id sequence, destroy_program, log, stats, timings
 *   program_register.c   register: compile, reflect, validate, plan, layouts, pipelines
 *   program_dispatch.c   the drop checks and the queue
 *   program_replace.c    device replacement: every program rebuilt on a new device under its id
 *   program_graph.c      a dispatch as frame graph passes, and the record function each runs
 *   program_executor.c   kiln_programs_record: uniforms, compile, execution in segments, GPU timing,
 *                        and the record call's steps (program_record)
 *   program_scopes.c     error scopes around setup and each pass, and the messages naming them
 *   program_geometry.c   geometry resources: CPU copies, GPU buffers, the upload queue
 *   program_instances.c  instance buffers: records, GPU buffers, the dirty run, the upload queue
 *   program_draw_sets.c  draw sets: draws, the holds they take on geometry and instance buffers
 *   program_id_table.c   the ids, holds and retirement of programs and those three
 *   program_layout.c     the vertex-format table and the layout and geometry checks (pure CPU) */
#ifndef KILN_PROGRAM_INTERNAL_H
#define KILN_PROGRAM_INTERNAL_H

#include <kiln/graph.h>
#include <kiln/program.h>
#include <kiln/shader/library.h>
#include <kiln/shader/wgsl_reflect.h>

#include "program_id_table.h"

#define PROGRAM_NONE UINT32_MAX
/* Uniform bind groups the runtime keeps: one per distinct group 0 layout in use. */
#define PROGRAM_UNIFORM_GROUPS 64
/* Bind groups of one pass's inputs kept at once (one per distinct set of views it was dispatched
 * with); the least recently used one is released when a new set needs room. */
#define PROGRAM_BIND_CACHE 16
/* Uniform windows are copied into slots of this alignment: WebGPU's largest allowed
 * minUniformBufferOffsetAlignment, so a dynamic offset is valid on every device. */
#define PROGRAM_UNIFORM_ALIGN 256u
/* Record calls with work a pooled transient may sit unused through before it is released (the
 * graph keeps it through one fewer compiles without use, kiln_frame_graph_set_keep_idle). */
#define PROGRAM_POOL_IDLE_RECORDS 8u
/* Render passes recorded into one encoder before it is submitted and a fresh one continues. */
#define PROGRAM_PASSES_PER_SUBMIT 1024u
#define PROGRAM_LOG_CAPACITY 256
/* Record calls before the current one whose uniform windows the ring keeps intact (see
 * kiln_programs.uniforms). */
#define PROGRAM_UNIFORM_INTACT_CALLS 3u
/* Geometries the upload queue realizes per record call; a dispatch drawing one realizes it then. */
#define PROGRAM_GEOMETRY_UPLOADS_PER_RECORD 4u
/* The depth every depth slot clears to: the far plane of a LessEqual test. */
#define PROGRAM_DEPTH_CLEAR 1.0f

/* A slot a pass reads or writes: a binding, a transient, or (inputs only) a depth transient. */
typedef enum program_slot_kind { PROGRAM_SLOT_BINDING, PROGRAM_SLOT_TRANSIENT, PROGRAM_SLOT_DEPTH } program_slot_kind;

/* A slot a pass reads or writes, with PassOutput already resolved to the slot that pass wrote. */
typedef struct program_slot {
    program_slot_kind kind;
    uint32_t index;
} program_slot;

/* How one input binds. */
typedef struct program_input {
    program_slot slot;
    bool texel;               /* no sampler (a Texel binding, a Texel depth read) */
    bool compare;             /* a Compare depth read: the fixed comparison sampler */
    kiln_wrap wrap;
    kiln_mips mips;
} program_input;

typedef struct program_pass {
    kiln_pass_spec spec;      /* spec.entry_point points at entry */
    char entry[KILN_WGSL_NAME_MAX];
    uint32_t iterations;      /* max(1, repeat_count) */
    char vertex_entry[KILN_WGSL_NAME_MAX]; /* a draw pass's; spec.draw.vertex_entry_point points here */
    bool draw;                /* stage Draw, DrawIndexedIndirect or DrawSets: an authored vertex stage */
    bool sets;                /* stage DrawSets */
    bool indirect;            /* stage DrawIndexedIndirect */
    bool compute;             /* stage Compute */
    bool depth_only;          /* a draw pass with output None */
    bool colourless;          /* no colour output: depth-only or compute */
    /* Either draw stage's declaration, in one place. */
    bool depth;               /* attaches depth_slot */
    uint32_t depth_slot;
    bool depth_writes;        /* false: a TestOnly draw-sets pass */
    kiln_pass_load load;
    program_slot output;      /* unused when depth_only */
    program_input inputs[KILN_PROGRAM_MAX_INPUTS];
    /* The plan (clears, loads and resolves are the frame graph's). */
    uint32_t uniform_bind_size; /* bytes bound at group 0 (the shader's block, at least 16) */
    uint32_t uniform_slot_size; /* staging bytes per iteration, a multiple of PROGRAM_UNIFORM_ALIGN */
    /* GPU objects. */
    kiln_bind_group_layout group0_layout, group1_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
    kiln_bind_group group0;   /* the dispatch being recorded: its first iteration finds it */
    kiln_bind_group_cache *input_groups; /* group 1 by the views it binds; NULL without inputs */
    kiln_bind_group input_group; /* the dispatch being recorded: its first iteration finds it */
    kiln_bind_group_layout group2_layout; /* the pass's program buffers; id 0 without */
    kiln_bind_group_cache *buffer_groups; /* group 2 by the buffers it binds; NULL without */
    kiln_bind_group buffer_group; /* the dispatch being recorded */
    kiln_compute_pipeline compute_pipeline; /* compute passes: their own (pipeline stays id 0) */
    uint32_t workgroup[3];    /* compute passes: the entry point's @workgroup_size */
    /* Timings. */
    uint32_t width, height, divisor;
    double cpu_record_ns;
    double record_start_ns;   /* when its first iteration of the dispatch being recorded began */
    /* GPU time (program_gpu_collect): the measurement whose pieces are being summed, the sum so
     * far, and the last complete measurement (gpu_done 0: none yet). */
    uint64_t gpu_open;
    double gpu_sum_ns;
    uint64_t gpu_done;
    double gpu_ns;
} program_pass;

typedef struct program {
    uint32_t id;
    char label[KILN_PROGRAM_LABEL_MAX]; /* "" when it has none */
    kiln_shader module;
    uint32_t binding_count, transient_count, pass_count;
    uint32_t geometry_count, depth_count;
    uint32_t list_count;        /* draw-set lists a dispatch supplies (kiln_program_list_count) */
    uint32_t buffer_count;      /* program buffers each dispatch gets zeroed */
    kiln_buffer_spec *buffers;
    kiln_slot_spec *bindings;
    kiln_transient_spec *transients;
    kiln_geometry_layout *geometries; /* per geometry slot: the layout a bound geometry must have */
    kiln_depth_spec *depths;    /* per depth transient */
    bool *depth_named;          /* per depth transient: some pass attaches it */
    program_pass *passes;
    /* The graph resources of its latest declared dispatch (program_graph.c). */
    kiln_fg_resource *transient_res;  /* per transient: the texture passes attach */
    kiln_fg_resource *resolve_res;    /* per transient: a read Four one's resolve target; index 0 if none */
    kiln_fg_resource *binding_res;    /* per binding: its imported view once a pass wrote it; index 0 before */
    kiln_fg_resource *depth_res;      /* per depth transient: its texture; index 0 for one no pass attaches */
    bool *binding_written;      /* per binding: some pass writes it */
    uint32_t *binding_pass;     /* per binding: the first pass naming it (PROGRAM_NONE: none) */
    const kiln_texture_info **binding_info; /* per binding: scratch of the dispatch being checked */
    uint32_t output_binding;    /* the binding the final pass writes: the reference extent */
    char *wgsl;                 /* the authored WGSL, kept for a device replacement to compile again */
    size_t uniform_bytes;       /* staging bytes one dispatch takes: every pass's slots, every iteration */
    uint32_t graph_passes;      /* graph passes one dispatch records: the sum of its passes' iterations */
} program;

/* GPU time per pass from timestamp queries. One measurement covers one pass of one dispatch, all
 * its iterations; the 1024-pass submit split may cut it into pieces, one per encoder segment,
 * each a begin and an end query (pieces of one segment use queries 2k and 2k + 1) and summed when
 * the readbacks arrive, so the time between the split's submits is not counted. */
typedef struct program_gpu_piece {
    uint32_t program_id, pass_index;
    uint64_t measurement;       /* 0: dropped (its pass failed to record) */
    bool first, last;           /* the measurement's first and last pieces */
} program_gpu_piece;

/* The pieces of one encoder segment, known by the token its readback was resolved with. */
typedef struct program_gpu_segment {
    uint64_t token;
    uint32_t count;
    program_gpu_piece pieces[PROGRAM_PASSES_PER_SUBMIT];
} program_gpu_segment;

/* The segments whose readbacks may be in flight plus the one being recorded: a segment's record
 * is reused only after KILN_TIMESTAMP_READBACKS newer ones, so a live one is never overwritten
 * while the readbacks arrive in order (and a late one is recognised by its token). */
#define PROGRAM_GPU_SEGMENTS (KILN_TIMESTAMP_READBACKS + 1)

typedef struct program_gpu_timing {
    kiln_timestamps *timestamps;      /* 2 * PROGRAM_PASSES_PER_SUBMIT queries */
    program_gpu_segment segments[PROGRAM_GPU_SEGMENTS];
    uint64_t next_token;              /* the segment being recorded; tokens start at 1 */
    uint64_t next_measurement;
    uint64_t values[2 * PROGRAM_PASSES_PER_SUBMIT];
} program_gpu_timing;

/* An outgrown uniform buffer, released once no call within PROGRAM_UNIFORM_INTACT_CALLS used it. */
typedef struct program_retired_buffer {
    kiln_buffer buffer;
    uint64_t retired_at;        /* kiln_programs.record_calls when it was outgrown */
} program_retired_buffer;

/* The uniform ring (program_executor.c): each record call stages its windows and uploads them with
 * one queue write into the next free stretch of a ring at least PROGRAM_UNIFORM_INTACT_CALLS + 2
 * times the largest call (the calls before it, the call, and the tail a wrap may skip), so the
 * stretches of the PROGRAM_UNIFORM_INTACT_CALLS calls before it stay intact: a few record calls
 * into one encoder before its submit do not overwrite each other's windows. */
typedef struct program_uniform_ring {
    uint8_t *staging;
    size_t staging_capacity;
    kiln_buffer buffer;                     /* id 0 until the first record call with work */
    uint64_t size;
    uint64_t cursor;
} program_uniform_ring;

/* The failed dispatches of the last record (program_executor.c): one entry per texture a failed
 * dispatch writes, with that dispatch's error (the first failure wins for a texture). */
typedef struct program_write_failure {
    uint32_t texture_id;
    kiln_error error;
} program_write_failure;

typedef struct program_write_failures {
    program_write_failure *items;
    uint32_t count, capacity;
    uint32_t dispatches;                    /* dispatches of the last record that failed */
} program_write_failures;

/* A geometry resource: the layout it was created with, its CPU copy (the source of truth) and its
 * GPU buffers once realized on the current device. */
typedef struct program_geometry {
    kiln_geometry_layout layout;
    uint32_t stride, index_count;
    uint8_t *vertices, *indices;
    size_t vertices_size, indices_size;
    kiln_buffer vertex_buffer, index_buffer; /* id 0 until realized */
} program_geometry;

/* An instance buffer: its layout, its records (the source of truth), its GPU buffer once realized
 * and the run of records written since the last upload. */
typedef struct program_instances {
    kiln_geometry_layout layout;
    uint32_t stride, capacity;
    uint8_t *records;           /* capacity * stride bytes */
    kiln_buffer buffer;         /* id 0 until realized */
    uint32_t dirty_first, dirty_end; /* records to upload; equal: none */
} program_instances;

/* How many draws of one set name one buffer: the set holds the buffer while this is above 0. */
typedef struct program_hold {
    uint32_t id;
    uint32_t draws;
} program_hold;

typedef struct program_draw_set {
    kiln_geometry_layout vertex_layout, instance_layout;
    kiln_draw *draws;
    uint32_t count, capacity;
    program_hold *geometry_holds, *instance_holds;
    uint32_t geometry_hold_count, instance_hold_count;
    uint32_t geometry_hold_capacity, instance_hold_capacity;
} program_draw_set;

/* One graph pass: one iteration of one pass of one queued dispatch. Graph pass k is steps[k]. */
typedef struct program_step {
    program *prog;
    uint32_t pass, iteration;
    uint32_t dispatch;          /* index into the queue */
    uint32_t uniform_offset;    /* its uniform slot in the ring */
} program_step;

/* A queued dispatch's graph passes: steps [first, first + count), and the failure that cut them
 * short while declaring (a registry texture that cannot be viewed), if any. */
typedef struct program_span {
    uint32_t first, count;
    bool failed;
    kiln_error error;
    uint32_t buffers_at;        /* the dispatch's program buffers: dispatch_buffers[buffers_at ..] */
} program_span;

/* What one record call runs (program_executor.c owns it: kiln_programs_record begins it, and it
 * is freed with the executor). program_graph.c declares the steps, spans and dispatch buffers
 * into it; the record function (program_graph.c) and the scopes (program_scopes.c) note in it how
 * far the recording got, which step failed and which step's error scope is open. Nothing in it
 * outlives the record call but the arrays' capacity. */
typedef struct program_record {
    kiln_fg_resource order;     /* the buffer every step writes: keeps passes in sequence */
    program_step *steps;        /* graph pass k is steps[k] */
    uint32_t step_count, step_capacity;
    program_span *spans;        /* per queued dispatch */
    uint32_t span_capacity;
    kiln_buffer *dispatch_buffers; /* per queued dispatch, its buffers (program_span.buffers_at) */
    uint32_t dispatch_buffer_count, dispatch_buffer_capacity;
    /* The first failure of a step's recording, named by its graph pass (PROGRAM_NONE: none). */
    uint32_t failed_step;
    kiln_error step_error;
    uint32_t next_step;         /* the graph pass after the last one that began recording */
    uint32_t scope_step;        /* the first step of the pass whose error scope is open (PROGRAM_NONE: none) */
} program_record;

/* A pooled program buffer; a dispatch takes one per buffer slot for itself, zeroed. */
typedef struct program_pooled_buffer {
    kiln_buffer buffer;
    uint32_t size;
    uint64_t used_at;           /* kiln_programs.record_calls when last taken */
} program_pooled_buffer;

/* The pool of program buffers (program_buffers.c), and the zeros a taken buffer is cleared with. */
typedef struct program_buffer_pool {
    program_pooled_buffer *items;
    uint32_t count, capacity;
    uint8_t *zeros;
    size_t zeros_size;
} program_buffer_pool;

/* A queued dispatch: the ids and the blob live in the queue's shared arrays. */
typedef struct program_dispatch {
    uint32_t program_id;
    uint32_t reference_width, reference_height;
    size_t ids_at, geometries_at, lists_at, blob_at, blob_size;
} program_dispatch;

typedef struct program_queue {
    program_dispatch *items;
    uint32_t count, capacity;
    uint32_t graph_passes;      /* what the queued dispatches will record, at most KILN_PROGRAMS_MAX_FRAME_PASSES */
    uint64_t uniform_bytes;     /* the uniform staging bytes they take (queued_uniform_bytes) */
    uint32_t *ids;
    size_t ids_count, ids_capacity;
    uint32_t *geometry_ids;     /* every dispatch's geometry slots, at its geometries_at */
    size_t geometry_ids_count, geometry_ids_capacity;
    /* Draw-set lists: a dispatch's list L holds set_ids[list_starts[lists_at + L] ..
     * list_starts[lists_at + L + 1]) (each dispatch stores one start past its last list). */
    uint32_t *list_starts;
    size_t list_starts_count, list_starts_capacity;
    uint32_t *set_ids;
    size_t set_ids_count, set_ids_capacity;
    uint8_t *blob;
    size_t blob_size, blob_capacity;
} program_queue;

/* Test-only fault injection. Dispatch checks refuse every documented bad input, so nothing a
 * caller can do makes Dawn raise an error inside a dispatch's scopes; the spec leaves their
 * attribution to "test-only fault injection". A test (which includes this header) sets
 * kiln_programs.fault; the next record call that reaches the named phase makes one call Dawn
 * refuses there, and the fault is spent. The library itself never sets it. */
typedef enum program_fault_phase {
    PROGRAM_FAULT_NONE,
    PROGRAM_FAULT_SETUP, /* the record call's setup */
    PROGRAM_FAULT_PASS,  /* the first iteration of pass `pass` of program `program_id` */
} program_fault_phase;

typedef struct program_fault {
    program_fault_phase phase;
    uint32_t program_id, pass;
} program_fault;

struct kiln_programs {
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_texture_registry *textures;
    kiln_shader_library *library;           /* built-ins only: owns `fullscreen` */
    kiln_shader fullscreen;                 /* vs_fullscreen of the built-in fullscreen.wgsl */
    /* Bind group layouts, pipeline layouts and pipelines, shared by every pass of every program
     * whose descriptors are identical; each pass holds one reference to each of its own. */
    kiln_object_cache *objects;
    /* Group 0 of every pass: the uniform ring at a pass's bound size, under its (shared) layout,
     * so passes of one layout bind one group; emptied when the ring is regrown. */
    kiln_bind_group_cache *uniform_groups;
    kiln_sampler samplers[2][2][2];         /* [wrap][mips][linear] */
    kiln_sampler depth_compare;             /* every Compare depth input: LessEqual, clamp, linear */
    program_id_table geometries;            /* program_geometry items, held by draw sets */
    program_id_table instances;             /* program_instances items, held by draw sets */
    /* Program buffers: a pool by size; a buffer taken by a record call is not taken again until
     * PROGRAM_UNIFORM_INTACT_CALLS later ones (an unsubmitted encoder may still use it), and goes
     * after PROGRAM_POOL_IDLE_RECORDS record calls unused. */
    program_buffer_pool buffer_pool;        /* program_buffers.c */
    program_id_table draw_sets;             /* program_draw_set items (never held) */
    program_id_table programs;              /* program items (never held) */
    uint8_t *quarantined;                   /* quarantined[id - 1]: its pipelines did not build on the
                                             * replacement device (kiln_programs_recreate); NULL: none */
    uint32_t quarantine_count;              /* ids quarantined covers: those the runtime had then (a
                                             * program registered later is never quarantined) */
    program_queue queue;
    program_uniform_ring uniforms;          /* program_executor.c */
    uint64_t record_calls;                  /* record calls that had work */
    /* Buffers an unsubmitted encoder may still use (an outgrown uniform ring, a geometry or
     * instance buffer replaced or destroyed): destroyed PROGRAM_UNIFORM_INTACT_CALLS record calls
     * later (program_retire_buffer). */
    program_retired_buffer *retired;
    uint32_t retired_count, retired_capacity;
    /* Transients: one frame graph per runtime, declared afresh by every record call with work,
     * whose pool (over `res`) persists across record calls. */
    kiln_frame_graph *graph;
    program_record record;                  /* program_executor.c: the record call's steps */
    program_write_failures write_failures;  /* program_executor.c */
    uint32_t textures_last_dispatch;        /* pooled textures the last recorded dispatch used */
    kiln_log log;
    program_gpu_timing *gpu_timing;         /* NULL when the device has no timestamp queries */
    program_fault fault;                    /* tests only: program_fault_fire */
};

/* programs.c */
program *programs_lookup(const kiln_programs *p, uint32_t id);
/* How messages name a program: `program 3 "blur"`, or `program 3` without a label. */
const char *program_name(const program *prog, char *buf, size_t size);
/* The same for an id that may be unknown: the label when the id is a live program. */
const char *programs_name(const kiln_programs *p, uint32_t id, char *buf, size_t size);
#define PROGRAM_NAME_MAX (KILN_PROGRAM_LABEL_MAX + 24)
/* Releases a program's GPU objects and memory; NULL is fine. */
void program_free(kiln_programs *p, program *prog);
/* The extent resolved against the reference size, and its divisor (1 for Full). */
void program_resolve_extent(kiln_slot_extent extent, uint32_t ref_w, uint32_t ref_h, uint32_t *w, uint32_t *h,
                            uint32_t *divisor);
/* The size and divisor of a slot against the reference. */
void program_slot_extent(const program *prog, program_slot slot, uint32_t ref_w, uint32_t ref_h, uint32_t *w,
                         uint32_t *h, uint32_t *divisor);
kiln_texture_format program_slot_format(const program *prog, program_slot slot);

/* The depth slot's size against the reference, and its timing divisor (1 for Fixed). */
void program_depth_extent(const kiln_depth_spec *depth, uint32_t ref_w, uint32_t ref_h, uint32_t *w, uint32_t *h,
                          uint32_t *divisor);

/* program_geometry.c */
/* The live geometry an id names: NULL when it is unknown or retired (destroyed, even if held). */
program_geometry *program_geometry_lookup(const kiln_programs *p, uint32_t id);
/* A geometry a draw set holds, retired or not. */
program_geometry *program_geometry_held(const kiln_programs *p, uint32_t id);
/* A draw set takes or lets go of a hold; the last let-go of a retired geometry releases it. */
void program_geometry_hold(kiln_programs *p, uint32_t id);
void program_geometry_release(kiln_programs *p, uint32_t id);
/* Makes the geometry's GPU buffers from its CPU copy if it has none; false with err naming it. */
bool program_geometry_realize(kiln_programs *p, uint32_t id, kiln_error *err);
/* The upload queue: realizes up to PROGRAM_GEOMETRY_UPLOADS_PER_RECORD pending geometries
 * (failures are logged and retried later). */
void program_geometry_upload_queue(kiln_programs *p);
/* Releases every geometry; at destroy. */
void program_geometry_free_all(kiln_programs *p);
/* Device replacement: `fresh` takes `old`'s geometries, ids and CPU copies, their buffers
 * released through old's resources; each is realized again on the new device when next needed. */
void program_geometry_move(kiln_programs *fresh, kiln_programs *old);

/* program_instances.c: the same for instance buffers (realize also uploads the dirty records). */
program_instances *program_instances_lookup(const kiln_programs *p, uint32_t id);
program_instances *program_instances_held(const kiln_programs *p, uint32_t id);
void program_instances_hold(kiln_programs *p, uint32_t id);
void program_instances_release(kiln_programs *p, uint32_t id);
bool program_instances_realize(kiln_programs *p, uint32_t id, kiln_error *err);
void program_instances_upload_queue(kiln_programs *p);
void program_instances_free_all(kiln_programs *p);
void program_instances_move(kiln_programs *fresh, kiln_programs *old);

/* program_buffers.c: the pool of program buffers. */
/* Takes a zeroed buffer of `size` bytes for the record call being declared; id 0 with err. */
kiln_buffer program_buffer_take(kiln_programs *p, uint32_t size, kiln_error *err);
/* Releases pooled buffers idle for PROGRAM_POOL_IDLE_RECORDS record calls; at each record call. */
void program_buffer_pool_trim(kiln_programs *p);
void program_buffer_pool_free(kiln_programs *p);

/* program_draw_sets.c */
program_draw_set *program_draw_set_lookup(const kiln_programs *p, uint32_t id);
/* Every buffer the set holds, realized and uploaded: false with err naming the buffer. */
bool program_draw_set_realize(kiln_programs *p, const program_draw_set *set, kiln_error *err);
void program_draw_sets_free_all(kiln_programs *p);
void program_draw_sets_move(kiln_programs *fresh, kiln_programs *old);

/* program_register.c: builds the plan and the GPU objects of a validated desc. */
/* Register without the id: scan, compile, validate and build, keeping a copy of the WGSL. */
program *program_compile(kiln_programs *p, const kiln_program_desc *desc, size_t wgsl_bytes, kiln_program_error *err);
program *program_build(kiln_programs *p, const kiln_program_desc *desc, const kiln_wgsl_module *module,
                       kiln_shader shader, kiln_program_error *err);

/* program_dispatch.c */
void program_queue_free(program_queue *q);

/* program_graph.c */
/* Declares every queued dispatch into p->graph (reset first) and into p->record (begun by the
 * executor), in arrival order, from uniform slot `uniform_at` on. False only when memory for the
 * steps runs out. */
bool program_graph_declare(kiln_programs *p, size_t uniform_at, kiln_error *err);
/* Distinct pooled textures a declared dispatch's transients use; call after compile. */
uint32_t program_graph_dispatch_textures(const kiln_programs *p, const program *prog);

/* program_scopes.c: validation, internal and out-of-memory scopes around the record call's setup
 * and each pass. Every open is matched by one close. */
void program_scope_open(kiln_programs *p);
/* False, with err naming the phase, the error class and the queued programs, when the scope
 * caught an error (logged). */
bool program_scope_close_setup(kiln_programs *p, kiln_error *err);
/* Closes the open pass scope (p->record.scope_step; none open is fine). False, with err (may be NULL)
 * naming the class, the iteration, the supplied bindings and the pass's resolved slots (the
 * executor prefixes program and pass), when the scope caught an error. */
bool program_close_pass_scope(kiln_programs *p, kiln_error *err);
/* Spends p->fault when it names this phase (and, for a pass, this program and pass): makes a
 * texture view of a mip level its texture lacks, which Dawn refuses with a validation error
 * inside the open scope. Does nothing otherwise. */
void program_fault_fire(kiln_programs *p, program_fault_phase phase, uint32_t program_id, uint32_t pass);

/* program_executor.c */
void program_executor_free(kiln_programs *p);
/* Releases a buffer an unsubmitted encoder may still use once PROGRAM_UNIFORM_INTACT_CALLS record
 * calls have passed (at once when memory to keep it is short). */
void program_retire_buffer(kiln_programs *p, kiln_buffer buffer);
/* Sets up GPU timing when the device has timestamp queries; without them, or when that fails
 * (logged), passes report no GPU time. */
void program_gpu_timing_init(kiln_programs *p);
/* Folds every completed timestamp readback into its passes' GPU times. Takes a const runtime
 * because kiln_programs_timings does: what changes is what the GPU reported since, held behind
 * the runtime's pointers. */
void program_gpu_collect(const kiln_programs *p);

#endif
