/*
 * ctf_writer.h - a small CTF 1.8 writer for tests and benchmarks: writes an
 * LTTng-style trace (packet header and context as lttng-ust 2.13 on
 * x86-64, `compact` 5+27-bit or `large` 16+32-bit event headers with their
 * extended forms, vpid/vtid/procname stream event context) so that tests
 * can hit timestamp edge cases on purpose. babeltrace2 is the oracle that
 * the traces it writes are valid.
 *
 * Full-timestamp rule, as lttng-ust's ring buffer: an event gets the
 * extended header (full 64-bit timestamp) when
 *     ((ts - last_ts) >> bits) != 0
 * with bits = 27 (compact) or 32 (large) and last_ts the previous event of
 * the stream or the packet's timestamp_begin; also when its id does not fit
 * the short id.
 *
 * Event classes (ids fixed):
 *   0 tt:tick       { uint64 seq; int32 val; string msg; }
 *   1 tt:work_entry { int32 id; }
 *   2 tt:work_exit  { int32 id; }
 *   3 tt:bits       { uint3 a; int13 b; uint1 c; int27 d; uint64 e; int8 f; enum g; }
 *                    (a..d packed at bit offsets with align 1)
 *   40 tt:far_id    { uint32 v; }  (id > 30: always the extended compact header)
 *   5 sched_switch  { char prev_comm[16]; int32 prev_tid, prev_prio; int64 prev_state;
 *                     char next_comm[16]; int32 next_tid, next_prio; }  (lttng-modules)
 *   6 syscall_entry_openat { int32 dfd; string filename; }
 *   7 syscall_exit_openat  { int64 ret; }
 *   8 tt:zlen (see ctfw_zlen)
 *   10-13 statedump and cyg-profile (see ctfw_bin_info)
 * Not thread-safe; one writer per folder. Files are created in dir.
 */
#ifndef TT_CTF_WRITER_H
#define TT_CTF_WRITER_H

#include <stdint.h>

typedef struct ctfw_opts {
	int big_endian;
	int large_header;        /* 0: compact (27-bit), 1: large (32-bit) */
	int natural_align;       /* 0: align 8 for byte-sized ints (x86), 1: natural */
	uint64_t freq;           /* Hz; 0 = 1 GHz */
	int64_t offset_s;
	int64_t offset;          /* cycles */
	unsigned packet_bytes;   /* 0 = 4096 */
	int nstreams;            /* 0 = 1 */
	int packetized_metadata;
	int kernel;              /* no stream event context (lttng-modules) */
	const char *attrs;       /* TSDL statements added to the trace, clock,
				  * stream and event blocks and to the first
				  * integer of tt:zlen (unknown attributes) */
	const char *env;         /* statements added to the env block */
	const char *zlen_name;   /* TSDL literal naming event 8 ("\"tt:zlen\"") */
	int ip_context;          /* an `ip` field ends the stream event context */
	int vpid_only;           /* the stream event context has vpid (and ip),
				  * no vtid or procname: LTTng's debug-info
				  * recipe `add-context -u -t vpid -t ip` */
} ctfw_opts;

typedef struct ctfw ctfw;

ctfw *ctfw_open(const char *dir, const ctfw_opts *o);
/* Identity written in the stream event context of stream s. */
void ctfw_thread(ctfw *w, int s, int32_t vpid, int32_t vtid, const char *procname);
/* Events at clock value ts (cycles; non-decreasing per stream). 0 or -1. */
int ctfw_tick(ctfw *w, int s, uint64_t ts, uint64_t seq, int32_t val, const char *msg);
int ctfw_work(ctfw *w, int s, uint64_t ts, int entry, int32_t id);
int ctfw_bits(ctfw *w, int s, uint64_t ts, unsigned a, int b, unsigned c, int32_t d,
	      uint64_t e, int8_t f, int g);
int ctfw_far(ctfw *w, int s, uint64_t ts, uint32_t v);
int ctfw_sched_switch(ctfw *w, int s, uint64_t ts, const char *prev_comm, int32_t prev_tid,
		      int64_t prev_state, const char *next_comm, int32_t next_tid);
int ctfw_openat(ctfw *w, int s, uint64_t ts, int entry, const char *filename, int64_t ret);
/* Event 8, tt:zlen: arrays and sequences of n (0..3) elements of every
 * alignment (4, 16, 32, 64 bits and a struct aligned on 32), each
 * followed by a field the array's alignment moves: {n, c0, bit, q4[n],
 * after4, q16[n], c16, q32[n], c32, q64[n], c64, a16[0], d16, a32[0],
 * d32, a64[0], d64, qs[n] {x}, cs, bit2, txt[0] (text), ct}; element i
 * of every array is 100 + i, the c/d fields count up from base. (A text
 * sequence of length 0 is left out: babeltrace2 2.0 prints the previous
 * event's text for it.) */
int ctfw_zlen(ctfw *w, int s, uint64_t ts, unsigned n, unsigned base);
/* lttng-ust statedump and cyg-profile events (ids 10-13):
 * lttng_ust_statedump:bin_info { baddr, memsz, path, is_pic, has_build_id,
 * has_debug_link }, lttng_ust_statedump:build_id { baddr, build_id[] },
 * lttng_ust_cyg_profile:func_entry / func_exit { addr, call_site }. */
int ctfw_bin_info(ctfw *w, int s, uint64_t ts, uint64_t baddr, uint64_t memsz, const char *path,
		  int is_pic, int has_build_id);
int ctfw_build_id(ctfw *w, int s, uint64_t ts, uint64_t baddr, const uint8_t *id, unsigned n);
int ctfw_func(ctfw *w, int s, uint64_t ts, int entry, uint64_t addr, uint64_t call_site);
/* The `ip` context of the next events of s (opts.ip_context). */
void ctfw_ip(ctfw *w, int s, uint64_t ip);
/* From the next packet of s on, the packet header's uuid differs from the
 * metadata's (last byte flipped); 0 restores it. Closes the current packet. */
void ctfw_bad_uuid(ctfw *w, int s, int bad);
/* Closes the current packet of s and counts n discarded events in the
 * next packet's events_discarded. */
void ctfw_discard(ctfw *w, int s, uint64_t n);
/* Closes the current packet of s and skips one packet_seq_num (a packet
 * lost between the tracer and the disk). */
void ctfw_lose_packet(ctfw *w, int s);
/* Full (extended) timestamps written so far, all streams. */
uint64_t ctfw_full_stamps(const ctfw *w);
/* Flushes packets, writes metadata, frees w. 0 or -1. */
int ctfw_close(ctfw *w);

#endif
