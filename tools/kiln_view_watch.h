/* kiln-view's file watching: inotify, polled once per frame, no thread.
 *
 * A watch names a file or a directory and a tag bit; view_watch_poll returns the tags of every
 * watch whose files changed since the last poll, reading inotify without blocking. Files are
 * watched through their directory, for the close of a write (IN_CLOSE_WRITE) or a file moved in
 * under the name (IN_MOVED_TO): editors that save by writing a temporary file and renaming it
 * over the original are seen as well as those that write in place, and a half-written file is
 * never reported (the writer has closed it first). */
#ifndef KILN_VIEW_WATCH_H
#define KILN_VIEW_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/core.h>

#define VIEW_WATCH_MAX 32

typedef struct view_watch_entry {
    int descriptor;          /* inotify's watch descriptor for the directory */
    char name[256];          /* the file watched in it; empty: any .wgsl file of the directory */
    uint32_t tag;            /* the bit view_watch_poll returns */
} view_watch_entry;

typedef struct view_watch {
    int fd;                  /* the inotify instance, non-blocking; -1 when closed */
    view_watch_entry entries[VIEW_WATCH_MAX];
    uint32_t count;          /* entries in use */
} view_watch;

bool view_watch_open(view_watch *w, kiln_error *err);
void view_watch_close(view_watch *w);
/* Watches the file `path` (through its directory) under `tag`. */
bool view_watch_add_file(view_watch *w, const char *path, uint32_t tag, kiln_error *err);
/* Watches every .wgsl file directly in `directory` under `tag`. */
bool view_watch_add_wgsl_directory(view_watch *w, const char *directory, uint32_t tag, kiln_error *err);
/* Stops the watches of `tag` (a directory stays watched while another watch uses it). */
void view_watch_remove(view_watch *w, uint32_t tag);
/* The tags whose files changed since the last poll (0: none); never blocks. */
uint32_t view_watch_poll(view_watch *w);

#endif
