/* kiln/shader/library: WGSL programs assembled from files with #include, compile errors that
 * name the file really at fault, and hot reload of whole programs with their pipelines. This is
 * kiln's one hot-reload library; gfx only compiles text (kiln_gfx_compile_shader).
 *
 * WGSL has no preprocessor. kiln_wgsl_assemble splices every `#include "file.wgsl"` line of a
 * program into one text and keeps a chunk map from assembled lines back to each file's own lines,
 * so a compile error Dawn reports in the assembled text can be reported as
 * `lights.wgsl:12:5: error: ...`.
 *
 * Objects and ownership:
 *   kiln_assembled_wgsl   filled by kiln_wgsl_assemble, owned by the caller, released by
 *                         kiln_assembled_wgsl_free. Pure CPU: no GPU involved.
 *   kiln_wgsl_source      a description, owned by the caller. An embedded set it points at is
 *                         borrowed by whatever it is given to and must outlive it (kiln's own
 *                         sets are static data).
 *   kiln_shader_library   created by kiln_shader_library_create, destroyed by _destroy. Borrows
 *                         the kiln_gfx and kiln_resources it was given (they must outlive it);
 *                         copies the source's directory name. Owns the shader modules of the programs it loaded: _destroy
 *                         destroys them in kiln_resources. Watched pipelines stay the caller's;
 *                         the library keeps its own copy of each watched descriptor.
 *
 * Main-thread only, like the rest of gfx. Loading and reloading allocate; checking for changes
 * when nothing changed does not (it only stats files). */
#ifndef KILN_SHADER_LIBRARY_H
#define KILN_SHADER_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/gfx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Includes nest at most this deep: the entry is depth 0, what it includes depth 1, and so on. */
#define KILN_WGSL_MAX_INCLUDE_DEPTH 16

/* One file of an embedded set: the name #include writes and the NUL-terminated text. */
typedef struct kiln_wgsl_embedded_file {
    const char *name;        /* the name #include writes ("lights.wgsl", "inc/brdf.wgsl") */
    const char *text;        /* the file's WGSL, NUL-terminated */
} kiln_wgsl_embedded_file;

/* The largest WGSL file kiln reads from disk (a program's source, an #include, a kiln-run
 * wgsl_path): 4 MiB, far above any real shader; a larger one is refused before it is read. */
#define KILN_WGSL_MAX_FILE_BYTES ((size_t)4 << 20)

/* Where a program's files come from: a directory on disk (read at load, stat'ed for hot reload)
 * or, when `directory` is NULL, an embedded set of named texts (nothing is read from disk and
 * nothing ever reloads). Not both. Zero-initialised it is an empty set.
 *
 * A name is resolved in the source's generated files, then in the source, then in kiln's
 * built-in set (the files of src/shader/shaders, embedded: "fullscreen.wgsl", "srgb.wgsl"). So a directory overriding
 * kiln's shaders need not carry copies of the built-ins, and a file of a built-in's name in the
 * directory (or the set) replaces it. Built-ins are never watched. Names in an embedded set match exactly; names in
 * a directory are paths relative to it. */
typedef struct kiln_wgsl_source {
    const char *directory;                  /* "" is the current directory */
    const kiln_wgsl_embedded_file *files;   /* used when directory is NULL; borrowed */
    uint32_t file_count;                    /* entries of files */
    /* Texts the source's user builds at run time from its own tables (the renderer's
     * "kiln_enums.wgsl"), beside a directory or a set alike. Resolved before either, so a stale
     * copy on disk cannot shadow what C says; never watched; borrowed like an embedded set. */
    const kiln_wgsl_embedded_file *generated;
    uint32_t generated_count;               /* entries of generated */
} kiln_wgsl_source;

/* One file of an assembled program, with what its stat said just before it was read. */
typedef struct kiln_wgsl_file {
    char *name;              /* as written in #include (the entry's as given) */
    char *path;              /* directory/name: what hot reload stats; NULL for an embedded file */
    int64_t mtime_ns;        /* modification time, nanoseconds since the epoch; 0 when embedded */
    uint64_t size;           /* bytes */
} kiln_wgsl_file;

/* A run of consecutive assembled lines that are consecutive lines of one file. */
typedef struct kiln_wgsl_chunk {
    uint32_t first_line;     /* 1-based line of the assembled text where the run starts */
    uint32_t line_count;     /* lines in the run, at least 1 */
    uint32_t file_index;     /* into kiln_assembled_wgsl.files */
    uint32_t file_line;      /* 1-based line of that file that first_line came from */
} kiln_wgsl_chunk;

/* A program's files spliced into one WGSL text, with the map from its lines back to the files'.
 * Filled by kiln_wgsl_assemble; every pointer is owned by it and released by
 * kiln_assembled_wgsl_free. */
typedef struct kiln_assembled_wgsl {
    char *text;              /* NUL-terminated; every line ends with '\n' */
    size_t length;           /* bytes of text, without the NUL */
    uint32_t line_count;     /* lines of text */
    kiln_wgsl_file *files;   /* files[0] is the entry, then includes in the order first reached */
    uint32_t file_count;     /* entries of files, at least 1 */
    kiln_wgsl_chunk *chunks; /* in assembled-line order, covering lines 1..line_count */
    uint32_t chunk_count;    /* entries of chunks */
} kiln_assembled_wgsl;

/* Resolves `entry` in `source` (NULL: the built-ins alone) and replaces every line of the form
 * `#include "name"` (leading and trailing blanks allowed) by the text `name` resolves to,
 * recursively. The include line itself is removed, so the including file's later lines keep
 * mapping to their own numbers. A file already part of the program (the same file on disk,
 * however it was named, or the same embedded file) is dropped the second time; that also breaks
 * include cycles. Fails, with *out left empty, when a file cannot be found or read ("lit.wgsl:4:
 * cannot include \"missing.wgsl\": No such file or directory", for a directory and an embedded set
 * alike), an #include line is malformed, includes nest deeper than KILN_WGSL_MAX_INCLUDE_DEPTH,
 * or the source names both a directory and an embedded set. */
bool kiln_wgsl_assemble(const kiln_wgsl_source *source, const char *entry, kiln_assembled_wgsl *out,
                        kiln_error *err);
/* Releases what assemble allocated and zeroes *a; safe on a zeroed or already freed value. */
void kiln_assembled_wgsl_free(kiln_assembled_wgsl *a);
/* Maps a 1-based line of the assembled text to the file it came from and that file's own 1-based
 * line. False (outputs untouched) when the line is outside the text. */
bool kiln_assembled_wgsl_locate(const kiln_assembled_wgsl *a, uint32_t assembled_line, uint32_t *file_index,
                                uint32_t *file_line);
/* Formats message i of a report made by compiling a->text as "<file>:<line>:<col>: error: text",
 * naming the file that holds the line and its own line number. A message without a location is
 * given the entry's name ("<entry>: error: text"). */
void kiln_assembled_wgsl_format_message(const kiln_assembled_wgsl *a, const kiln_shader_report *report, uint32_t i,
                                        char *out, size_t out_size);

/* Assembles `entry` from `source` (NULL: the built-ins alone) and compiles it once, for a program
 * that never reloads (a tool's own embedded shader including "fullscreen.wgsl" or "srgb.wgsl").
 * The module is the caller's. Fails as kiln_wgsl_assemble does, or with KILN_ERR_SHADER and every
 * compile message mapped to its own file, one per line, errors first, as
 * kiln_shader_library_load reports them. */
WGPUShaderModule kiln_wgsl_compile(kiln_gfx *gfx, const kiln_wgsl_source *source, const char *entry, kiln_error *err);

/* Loads WGSL programs through kiln_wgsl_assemble, owns their shader modules and hot-reloads them
 * with their watched pipelines. Opaque; see the ownership notes at the top of this file. */
typedef struct kiln_shader_library kiln_shader_library;

/* `source` (NULL: the built-ins alone) holds the programs and their includes. */
kiln_shader_library *kiln_shader_library_create(kiln_gfx *gfx, kiln_resources *res, const kiln_wgsl_source *source,
                                                kiln_error *err);
/* Destroys the program modules this library loaded and forgets every watch. */
void kiln_shader_library_destroy(kiln_shader_library *lib);

/* Assembles and compiles `entry` from the library's source, adopts the module and registers the program for hot
 * reload. Loading an entry already loaded returns the same handle without recompiling. A compile
 * failure returns id 0 with KILN_ERR_SHADER and every Dawn message mapped back to its file, one per
 * line, errors first ("inc/light.wgsl:3:13: error: unresolved value 'x'"). */
kiln_shader kiln_shader_library_load(kiln_shader_library *lib, const char *entry, kiln_error *err);

/* A check a library's user makes of every program it loads or reloads, on the assembled text,
 * once it has compiled (the renderer checks its shared blocks' layouts; a syntax error is thus
 * the compiler's to report, at the line of the file that holds it). A refusal fails the load,
 * or fails the reload like a compile error (the last good module is kept, the reason logged). */
typedef bool (*kiln_shader_validator)(void *user, const char *entry, const char *text, size_t length,
                                      kiln_error *err);
/* Sets (or with NULL clears) the validator; programs loaded before are not checked again until
 * they reload. */
void kiln_shader_library_set_validator(kiln_shader_library *lib, kiln_shader_validator validator, void *user);

/* Stats every file on disk of every program (embedded files never change, so a library over an
 * embedded set never reloads). A program with any changed file (modification time or size)
 * is re-assembled and recompiled as a whole. Success swaps the module behind the same handle, logs
 * "reloaded <entry>" (info, "render.shaders"), rebuilds the program's watched pipelines and
 * writes the handle into `reloaded` (up to max). Failure keeps the last good module, counts a
 * reload failure and logs the mapped message (error); the program is retried when a file changes
 * again. Returns how many programs reloaded successfully (even past max). A program whose module
 * was destroyed behind the library's back is forgotten, with its watches. */
uint32_t kiln_shader_library_check_for_changes(kiln_shader_library *lib, kiln_shader *reloaded, uint32_t max);
/* How many reloads have failed (compile error or validator refusal) since the library was created. */
uint32_t kiln_shader_library_reload_failures(const kiln_shader_library *lib);

/* Rebuild `pipeline` from a copy of `desc` (its label and entry-point strings included) whenever
 * `program` reloads, swapping it under the same handle; a rebuild Dawn rejects keeps the old
 * pipeline and logs an error ("render.shaders"). desc->shader must be `program` or 0 (meaning
 * `program`). Watching a pipeline again replaces its descriptor. Refused when `program` was not
 * loaded by this library or `pipeline` is not alive. A watched pipeline destroyed without
 * unwatching is dropped at the next reload of its program. */
bool kiln_shader_library_watch_render_pipeline(kiln_shader_library *lib, kiln_shader program,
                                               kiln_render_pipeline pipeline, const kiln_render_pipeline_desc *desc,
                                               kiln_error *err);
/* The same for a compute pipeline: rebuilt from a copy of `desc` whenever `program` reloads. */
bool kiln_shader_library_watch_compute_pipeline(kiln_shader_library *lib, kiln_shader program,
                                                kiln_compute_pipeline pipeline,
                                                const kiln_compute_pipeline_desc *desc, kiln_error *err);
/* Stop rebuilding a pipeline (call before destroying it). False when it was not watched. */
bool kiln_shader_library_unwatch_render_pipeline(kiln_shader_library *lib, kiln_render_pipeline pipeline,
                                                 kiln_error *err);
/* The same for a compute pipeline. False when it was not watched. */
bool kiln_shader_library_unwatch_compute_pipeline(kiln_shader_library *lib, kiln_compute_pipeline pipeline,
                                                  kiln_error *err);

/* Creates a pipeline from `desc` in the library's resources and watches it (desc->shader: a
 * program this library loaded), so a reload rebuilds it in place; id 0 with err filled, and
 * nothing left behind, when either step fails. */
kiln_render_pipeline kiln_shader_library_create_watched_render_pipeline(kiln_shader_library *lib,
                                                               const kiln_render_pipeline_desc *desc, kiln_error *err);
/* The same for a compute pipeline. */
kiln_compute_pipeline kiln_shader_library_create_watched_compute_pipeline(kiln_shader_library *lib,
                                                                 const kiln_compute_pipeline_desc *desc,
                                                                 kiln_error *err);
/* Unwatches and destroys a pipeline built above; id 0 is ignored. */
void kiln_shader_library_destroy_watched_render_pipeline(kiln_shader_library *lib, kiln_render_pipeline pipeline);
/* The same for a compute pipeline. */
void kiln_shader_library_destroy_watched_compute_pipeline(kiln_shader_library *lib, kiln_compute_pipeline pipeline);

#ifdef __cplusplus
}
#endif

#endif
