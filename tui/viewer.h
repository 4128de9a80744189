/*
 * viewer.h - the interactive ncurses viewer. It opens the trace itself (on
 * a worker thread, with a progress bar) so that the terminal is live while
 * the import runs.
 */
#ifndef TT_VIEWER_H
#define TT_VIEWER_H

typedef struct tt_viewer_opts {
	const char *path;    /* trace file or CTF folder */
	const char *theme;   /* NULL = from config / default */
	const char *metrics; /* comma list to run at load, or NULL */
	const char *modules[8]; /* --modules folders of PerfettoSQL modules */
	int nmodules;
} tt_viewer_opts;

/* Runs until the user quits. Returns a process exit code: 0 on a normal
 * quit, 1 when the trace could not be opened (message on stderr). */
int tt_viewer_run(const tt_viewer_opts *opts);

/* Draws the timeline screen of a view (ruler, tracks, details, status and
 * message lines) into stdscr's virtual screen; the caller does the one
 * doupdate() of the frame. For the render benchmark and tests; the
 * interactive loop uses it too. */
struct tt_view;
void tt_viewer_draw_timeline(struct tt_view *v);

#endif
