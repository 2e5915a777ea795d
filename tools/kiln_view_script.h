/* kiln-view --script FILE: timed actions, so tests drive the viewer the way a person would,
 * through the same handlers the window's events reach.
 *
 * One action a line, `at TICK ACTION [ARGS]`, where TICK counts the frame loop's iterations
 * from 1 (a minimised iteration counts, though it renders nothing); blank lines and lines
 * starting with '#' are skipped. Actions of a tick run in file order after the window's events
 * and before the file watches are polled, so an edit made by `run` is seen by that same tick's
 * frame:
 *
 *   at 3 resize 320x200        the window's new size (glfwSetWindowSize)
 *   at 5 minimise              the window iconified, as its iconify callback reports it
 *   at 7 restore               and restored
 *   at 4 key F                 a key press: F, C, H, P, V or SPACE, as the key callback gets it
 *   at 2 screenshot OUT.png    that tick's frame (without the UI) written as a PNG
 *   at 3 ui-screenshot OUT.png that tick's frame with the UI, as presented
 *   at 3 run COMMAND...        a shell command (sh -c), waited for; a failure stops the viewer
 *   at 6 drop PATH             a file dropped on the window, as the drop callback gets it
 *   at 4 lose-device           the device lost (wgpuDeviceForceLoss), as a driver reset loses it
 *   at 3 hide 2                document node 2 hidden with the nodes below it, as the scene
 *                              tree's checkbox hides it (`show 2` shows it again)
 *
 * Minimise and restore go to the viewer's iconify handler as well as to GLFW, because under
 * Xvfb no window manager iconifies the window or tells GLFW about it. */
#ifndef KILN_VIEW_SCRIPT_H
#define KILN_VIEW_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/core.h>

typedef enum view_action_kind {
    VIEW_ACTION_RESIZE,
    VIEW_ACTION_MINIMISE,
    VIEW_ACTION_RESTORE,
    VIEW_ACTION_KEY,
    VIEW_ACTION_SCREENSHOT,
    VIEW_ACTION_UI_SCREENSHOT,
    VIEW_ACTION_RUN,
    VIEW_ACTION_DROP,
    VIEW_ACTION_LOSE_DEVICE,
    VIEW_ACTION_HIDE,
    VIEW_ACTION_SHOW,
} view_action_kind;

typedef struct view_action {
    uint32_t tick;            /* the loop iteration it runs in, from 1 */
    uint32_t line;            /* its line in the script, for messages */
    view_action_kind kind;
    uint32_t width, height;   /* resize */
    uint32_t node;            /* hide, show: the document node */
    char key;                 /* key: 'F', 'C', 'H', 'P', 'V' or ' ' (SPACE) */
    char *text;               /* screenshot, drop: the path; run: the command */
} view_action;

typedef struct view_script {
    view_action *actions;     /* in file order */
    uint32_t count;           /* entries of actions */
    uint32_t next;            /* the first not yet run */
    uint32_t last_tick;       /* the largest tick named */
} view_script;

/* Reads and checks the whole file; errors name it and the line ("s.txt:3: unknown action 'jump'"). */
bool view_script_load(view_script *s, const char *path, kiln_error *err);
void view_script_free(view_script *s);
/* The next action due at `tick`, in order, or NULL when none is left for it. */
const view_action *view_script_next(view_script *s, uint32_t tick);

#endif
