/*
 * ctf_debuginfo.c - statedump binary map and symbol lookups with libdwfl.
 * See ctf_debuginfo.h.
 */
#include "ctf_debuginfo.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BUILD_ID 64

typedef struct mapping {
	int64_t pid;
	uint64_t baddr, memsz;
	char *path;
	const char *base;
	int is_pic;
	uint8_t build_id[MAX_BUILD_ID];
	size_t nbid;
	int state;          /* 0 not opened yet, 1 usable, -1 not usable */
	int told;           /* the reason was handed out */
	char *why;
	Dwfl *dwfl;
	Dwfl_Module *mod;
} mapping;

typedef struct centry {
	int64_t pid;
	uint64_t addr;
	int used, found;
	ctf_sym sym;
} centry;

struct ctf_debuginfo {
	mapping *maps;
	size_t nmaps, cmaps;
	centry *cache;
	size_t ncache, ccache;  /* ccache: a power of two */
	char *debuginfo_path;   /* libdwfl's search path: the default */
	Dwfl_Callbacks cb;
};

ctf_debuginfo *tt_ctf_di_new(void)
{
	ctf_debuginfo *di = calloc(1, sizeof(*di));

	if (!di)
		return NULL;
	di->cb.find_elf = dwfl_build_id_find_elf;
	di->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	di->cb.section_address = dwfl_offline_section_address;
	di->cb.debuginfo_path = &di->debuginfo_path;
	return di;
}

static void free_sym(ctf_sym *s)
{
	free((char *)s->func);
	free((char *)s->file);
}

void tt_ctf_di_free(ctf_debuginfo *di)
{
	if (!di)
		return;
	for (size_t i = 0; i < di->nmaps; i++) {
		if (di->maps[i].dwfl)
			dwfl_end(di->maps[i].dwfl);
		free(di->maps[i].path);
		free(di->maps[i].why);
	}
	for (size_t i = 0; i < di->ccache; i++)
		if (di->cache[i].used)
			free_sym(&di->cache[i].sym);
	free(di->maps);
	free(di->cache);
	free(di);
}

static mapping *find_map(ctf_debuginfo *di, int64_t pid, uint64_t addr, int exact)
{
	/* newest first: a later statedump (dlopen) wins */
	for (size_t i = di->nmaps; i-- > 0;) {
		mapping *m = &di->maps[i];

		if (m->pid != pid)
			continue;
		if (exact ? m->baddr == addr : addr >= m->baddr && addr - m->baddr < m->memsz)
			return m;
	}
	return NULL;
}

void tt_ctf_di_bin(ctf_debuginfo *di, int64_t pid, uint64_t baddr, uint64_t memsz,
		   const char *path, size_t len, int is_pic)
{
	mapping *m = find_map(di, pid, baddr, 1);
	char *p;

	if (m && m->memsz == memsz && strlen(m->path) == len && !memcmp(m->path, path, len))
		return; /* the same statedump again */
	if (di->nmaps == di->cmaps) {
		size_t nc = di->cmaps ? di->cmaps * 2 : 16;
		mapping *nm = realloc(di->maps, nc * sizeof(*nm));

		if (!nm)
			return;
		di->maps = nm;
		di->cmaps = nc;
	}
	p = malloc(len + 1);
	if (!p)
		return;
	memcpy(p, path, len);
	p[len] = '\0';
	m = &di->maps[di->nmaps++];
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	m->baddr = baddr;
	m->memsz = memsz;
	m->path = p;
	m->base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
	m->is_pic = is_pic;
}

void tt_ctf_di_build_id(ctf_debuginfo *di, int64_t pid, uint64_t baddr, const uint8_t *id, size_t n)
{
	mapping *m = find_map(di, pid, baddr, 1);

	if (!m || n > MAX_BUILD_ID)
		return;
	memcpy(m->build_id, id, n);
	m->nbid = n;
}

/* The build id of the ELF file at path: its length, 0 when it has none,
 * -1 when the file cannot be read as ELF. */
static ssize_t file_build_id(const char *path, uint8_t *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	const void *id = NULL;
	ssize_t n = -1;

	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF) {
		n = dwelf_elf_gnu_build_id(e, &id);
		if (n > MAX_BUILD_ID || n < 0)
			n = n < 0 ? -1 : 0;
		else if (n > 0)
			memcpy(out, id, (size_t)n);
	}
	if (e)
		elf_end(e);
	close(fd);
	return n;
}

static void set_why(mapping *m, const char *fmt, const char *a)
{
	size_t n = strlen(fmt) + strlen(m->path) + (a ? strlen(a) : 0) + 1;

	m->state = -1;
	m->why = malloc(n);
	if (m->why)
		snprintf(m->why, n, fmt, m->path, a ? a : "");
}

/* Finds the file to read for m (build id first, as babeltrace2) and
 * reports it to a libdwfl session at m's load address. */
static void open_map(ctf_debuginfo *di, mapping *m)
{
	char dbg[4096], hex[2 * MAX_BUILD_ID + 1] = "";
	const char *file = m->path;
	uint8_t fid[MAX_BUILD_ID];
	ssize_t fn;

	elf_version(EV_CURRENT);
	for (size_t i = 0; i < m->nbid; i++)
		snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
	fn = file_build_id(m->path, fid);
	if (m->nbid && (fn != (ssize_t)m->nbid || memcmp(fid, m->build_id, m->nbid))) {
		/* not the binary that ran: its debug file by build id */
		snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		if (file_build_id(dbg, fid) == (ssize_t)m->nbid && !memcmp(fid, m->build_id, m->nbid))
			file = dbg;
		else if (fn < 0)
			set_why(m, "%s: not found on this machine (build id %s)", hex);
		else
			set_why(m, "%s: its build id differs from the trace's (%s)", hex);
	} else if (fn < 0) {
		set_why(m, "%s: not found on this machine%s", NULL);
	}
	if (m->state < 0)
		return;
	m->dwfl = dwfl_begin(&di->cb);
	if (!m->dwfl) {
		set_why(m, "%s: cannot start libdwfl%s", NULL);
		return;
	}
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_elf(m->dwfl, m->base, file, -1, m->is_pic ? m->baddr : 0, false);
	dwfl_report_end(m->dwfl, NULL, NULL);
	if (!m->mod) {
		set_why(m, "%s: not an ELF file libdwfl can read (%s)", dwfl_errmsg(-1));
		return;
	}
	m->state = 1;
}

static char *dup_str(const char *s)
{
	return s ? strdup(s) : NULL;
}

static centry *cache_slot(ctf_debuginfo *di, int64_t pid, uint64_t addr)
{
	uint64_t h = (addr ^ (uint64_t)pid * 0x9E3779B97F4A7C15u) * 0xff51afd7ed558ccdu;
	size_t i = (size_t)(h >> 20) & (di->ccache - 1);

	while (di->cache[i].used && (di->cache[i].addr != addr || di->cache[i].pid != pid))
		i = (i + 1) & (di->ccache - 1);
	return &di->cache[i];
}

static int cache_grow(ctf_debuginfo *di)
{
	centry *old = di->cache;
	size_t oc = di->ccache, nc = oc ? oc * 2 : 1024;

	di->cache = calloc(nc, sizeof(*di->cache));
	if (!di->cache) {
		di->cache = old;
		return -1;
	}
	di->ccache = nc;
	for (size_t i = 0; i < oc; i++)
		if (old[i].used)
			*cache_slot(di, old[i].pid, old[i].addr) = old[i];
	free(old);
	return 0;
}

int tt_ctf_di_lookup(ctf_debuginfo *di, int64_t pid, uint64_t addr, ctf_sym *out, const char **why)
{
	mapping *m;
	centry *c;

	if (why)
		*why = NULL;
	if (di->ncache * 2 >= di->ccache && cache_grow(di))
		return 0;
	c = cache_slot(di, pid, addr);
	if (c->used) {
		*out = c->sym;
		return c->found;
	}
	m = find_map(di, pid, addr, 0);
	if (!m)
		return 0; /* not cached: a statedump may come later */
	if (!m->state)
		open_map(di, m);
	if (m->state < 0) {
		if (why && !m->told && m->why) {
			*why = m->why;
			m->told = 1;
		}
		return 0;
	}
	c->used = 1;
	c->pid = pid;
	c->addr = addr;
	di->ncache++;
	c->sym.bin = m->base;
	c->sym.bin_off = m->is_pic ? addr - m->baddr : addr;
	{
		GElf_Off off = 0;
		GElf_Sym sym;
		const char *name = dwfl_module_addrinfo(m->mod, addr, &off, &sym, NULL, NULL, NULL);
		Dwfl_Line *ln = dwfl_module_getsrc(m->mod, addr);

		c->sym.func = dup_str(name);
		c->sym.func_off = off;
		if (ln) {
			int line = 0;
			const char *f = dwfl_lineinfo(ln, NULL, &line, NULL, NULL, NULL);

			c->sym.file = dup_str(f);
			c->sym.line = line;
		}
	}
	c->found = c->sym.func != NULL;
	*out = c->sym;
	return c->found;
}
