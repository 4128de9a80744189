/*
 * ctf_debuginfo.h - instruction pointers of an LTTng-UST trace turned into
 * function names and source lines, as babeltrace2's
 * flt.lttng-utils.debug-info does: the statedump events
 * (lttng_ust_statedump:bin_info, build_id, debug_link, and
 * lttng_ust_dl:dlopen) say which binary each process has mapped where; an
 * address inside a mapping is looked up in that binary's ELF symbol table
 * and DWARF line table with elfutils (libdwfl). The file at the statedump's
 * path is used when its build id is the statedump's (or there is none);
 * else the debug file under /usr/lib/debug/.build-id/ with that id; a
 * separate debug file named by the binary's .gnu_debuglink is found
 * through libdwfl's standard search (next to the binary, in .debug/, under
 * /usr/lib/debug).
 *
 * A binary is opened once, the first time an address needs it; results
 * are cached per address. Not thread-safe: one per import.
 */
#ifndef TT_CTF_DEBUGINFO_H
#define TT_CTF_DEBUGINFO_H

#include <stddef.h>
#include <stdint.h>

typedef struct ctf_debuginfo ctf_debuginfo;

ctf_debuginfo *tt_ctf_di_new(void);
void tt_ctf_di_free(ctf_debuginfo *di);

/* statedump: process pid has path (len bytes) mapped at [baddr, baddr +
 * memsz); is_pic: addresses in it are relative to baddr. */
void tt_ctf_di_bin(ctf_debuginfo *di, int64_t pid, uint64_t baddr, uint64_t memsz,
		   const char *path, size_t len, int is_pic);
/* The build id of the mapping at baddr. */
void tt_ctf_di_build_id(ctf_debuginfo *di, int64_t pid, uint64_t baddr, const uint8_t *id, size_t n);

typedef struct ctf_sym {
	const char *func;   /* function name, NULL when unknown */
	uint64_t func_off;  /* addr - the symbol's address */
	const char *bin;    /* the binary's base name */
	uint64_t bin_off;   /* addr - baddr (PIC) or addr */
	const char *file;   /* source file, NULL when no DWARF line */
	int line;
} ctf_sym;

/* Looks addr of process pid up. 1: *out filled (strings valid until
 * tt_ctf_di_free); 0: not found, *why (when not NULL) set once per
 * binary that could not be used ("PATH: not found on this machine", ...)
 * and NULL afterwards, so the caller can count it once. */
int tt_ctf_di_lookup(ctf_debuginfo *di, int64_t pid, uint64_t addr, ctf_sym *out, const char **why);

#endif
