/* kiln-view's inotify watches (kiln_view_watch.h). */
#include "kiln_view_watch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#define WATCHED_EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO)

bool view_watch_open(view_watch *w, kiln_error *err) {
    *w = (view_watch){.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)};
    if (w->fd < 0) return kiln_error_set(err, KILN_ERR_IO, "inotify: %s", strerror(errno));
    return true;
}

void view_watch_close(view_watch *w) {
    if (w->fd >= 0) close(w->fd);
    *w = (view_watch){.fd = -1};
}

static bool add(view_watch *w, const char *directory, const char *name, uint32_t tag, kiln_error *err) {
    if (w->count == VIEW_WATCH_MAX) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "watch: more than %d watches", VIEW_WATCH_MAX);
    int wd = inotify_add_watch(w->fd, directory, WATCHED_EVENTS);
    if (wd < 0) return kiln_error_set(err, KILN_ERR_IO, "watch %s: %s", directory, strerror(errno));
    view_watch_entry *e = &w->entries[w->count++];
    *e = (view_watch_entry){.descriptor = wd, .tag = tag};
    snprintf(e->name, sizeof e->name, "%s", name);
    return true;
}

bool view_watch_add_file(view_watch *w, const char *path, uint32_t tag, kiln_error *err) {
    char directory[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(directory, sizeof directory, ".");
    else snprintf(directory, sizeof directory, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return add(w, directory, slash ? slash + 1 : path, tag, err);
}

bool view_watch_add_wgsl_directory(view_watch *w, const char *directory, uint32_t tag, kiln_error *err) {
    return add(w, directory, "", tag, err);
}

void view_watch_remove(view_watch *w, uint32_t tag) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < w->count; i++) {
        view_watch_entry e = w->entries[i];
        if (e.tag != tag) {
            w->entries[kept++] = e;
            continue;
        }
        /* inotify gives one descriptor per directory, shared by every watch of it. */
        bool shared = false;
        for (uint32_t j = 0; j < w->count; j++) shared |= j != i && w->entries[j].tag != tag && w->entries[j].descriptor == e.descriptor;
        if (!shared) inotify_rm_watch(w->fd, e.descriptor);
    }
    w->count = kept;
}

static bool is_wgsl(const char *name) {
    size_t n = strlen(name);
    return n > 5 && !strcmp(name + n - 5, ".wgsl");
}

static uint32_t tags_of(const view_watch *w, const struct inotify_event *ev) {
    uint32_t tags = 0;
    for (uint32_t i = 0; i < w->count; i++) {
        const view_watch_entry *e = &w->entries[i];
        if (e->descriptor != ev->wd || !ev->len) continue;
        if (e->name[0] ? !strcmp(e->name, ev->name) : is_wgsl(ev->name)) tags |= e->tag;
    }
    return tags;
}

uint32_t view_watch_poll(view_watch *w) {
    uint32_t tags = 0;
    /* Aligned as inotify(7) asks: events are read straight out of the buffer. */
    char buffer[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(w->fd, buffer, sizeof buffer);
        if (n <= 0) break; /* EAGAIN: nothing more queued */
        for (char *p = buffer; p < buffer + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            tags |= tags_of(w, ev);
            p += sizeof *ev + ev->len;
        }
    }
    return tags;
}
