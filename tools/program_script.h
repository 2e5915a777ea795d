/* Program scripts: a JSON array of messages sent, in order, through the JSON surface
 * (kiln/program_json.h), with what a script adds on top of the library's kinds. kiln-run prints
 * each reply; kiln-view runs the script into its window (docs/guides/viewer.md, "Programs").
 * docs/guides/programs.md ("kiln-run") documents the additions:
 *
 *   - "wgsl_path" in place of "wgsl": the file, relative to the script's directory, which it must
 *     not leave (symbolic links followed) unless outside paths are allowed;
 *   - "as": "name" on any message, and "$name" in a later id field (a field ending in "_id", or an
 *     element of "bindings", "geometries" or "draw_sets") for the id that message's reply assigned;
 *   - a typed blob in place of a byte blob: {"f32": [numbers]}, {"u32": [integers]} or
 *     {"i32": [integers]} as any field's value, sent as the little-endian bytes of those values;
 *   - {"kind": "save_texture", "texture_id": N, "path": "name.png"}: the texture's current pixels
 *     under the output directory: a PNG for 8-bit formats; for float formats a PFM of the exact
 *     values plus a PNG preview (min..max mapped to 0..255) beside it, named like the PFM.
 *
 * An Err reply does not stop a script; a file it cannot read does (program_script_step returns
 * false with the reason in `fatal`). */
#ifndef PROGRAM_SCRIPT_H
#define PROGRAM_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <kiln/program_json.h>

/* A name "as" gave (internal to program_script.c). */
typedef struct program_script_name program_script_name;

/* One run of one script over a JSON runtime. */
typedef struct program_script {
    kiln_json_runtime *rt;        /* borrowed: the messages' runtime */
    const char *tool;             /* names the tool in messages ("kiln-run --allow-outside-paths permits it") */
    char dir[4096];               /* the script's directory: wgsl_path is relative to it */
    const char *out_dir;          /* save_texture writes under it; NULL: a save checks and records but writes nothing */
    bool allow_outside_paths;     /* wgsl_path and save paths unconfined */
    program_script_name *names;   /* what "as" bound, in first-bound order */
    size_t name_count;            /* entries of names */
    char **files;                 /* every wgsl_path file the run read or tried to read, each once */
    size_t file_count;            /* entries of files */
    char fatal[2048];             /* why the script stopped, when program_script_step returned false */
} program_script;

/* What one message was answered. */
typedef struct program_script_reply {
    char *text;                   /* the reply, compact JSON, malloc'd */
    bool ok;                      /* an Ok reply */
    json_t *sent;                 /* the message as handled: names resolved, typed blobs expanded, WGSL
                                     inlined; NULL when it was refused before that (a new reference) */
    uint32_t assigned;            /* the id an Ok reply assigned (a program's, texture's, geometry's,
                                     instance buffer's or draw set's); 0: none */
} program_script_reply;

/* Reads the script at `path`: a JSON array (a new reference), or NULL with why filled
 * ("cannot read 'x.json': ...", "x.json: malformed JSON: line L, column C: ...",
 * "x.json: expected a JSON array of messages"). */
json_t *program_script_load(const char *path, char *why, size_t why_size);

/* A run of the script at `script_path` (read by the caller) over `rt`, saving under `out_dir`
 * (NULL: saves write nothing); `tool` names the program in messages. */
void program_script_init(program_script *s, kiln_json_runtime *rt, const char *script_path, const char *tool,
                         const char *out_dir, bool allow_outside_paths);
/* Sends message `index` of the script; *reply is filled (free it with program_script_reply_free).
 * False, with `fatal` set and *reply empty, when the script must stop (a wgsl_path unreadable). */
bool program_script_step(program_script *s, const json_t *message, size_t index, program_script_reply *reply);
void program_script_reply_free(program_script_reply *reply);
/* The id "$name" stands for now; false when no Ok reply bound it. */
bool program_script_lookup(const program_script *s, const char *name, uint32_t *id);
/* Frees the names and files (the runtime is the caller's). */
void program_script_free(program_script *s);

#endif
