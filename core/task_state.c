/*
 * task_state.c - see task_state.h.
 */
#include "task_state.h"

#include <string.h>

/* The low six bits are S D T t X Z in every kernel. 4.14 and later put P
 * (parked), I (TASK_IDLE) and 0x100 as preempted above them, and anything
 * higher is invalid; older kernels have x K W P N there, with preemption
 * at 0x1000 from 4.8 and at 0x800 before, and D|N read as I. */
int64_t tt_task_state_flags(int64_t raw, int kv_major, int kv_minor)
{
	uint32_t st = (uint16_t)raw, f = st & 0x3f;
	int modern = kv_major > 4 || (kv_major == 4 && kv_minor >= 14);

	if (modern) {
		if (st & 0xfe00)
			return -1;
		return f | (st & 0x40 ? TT_TASK_PARKED : 0) | (st & 0x80 ? TT_TASK_IDLE : 0) |
		       (st & 0x100 ? TT_TASK_PREEMPTED : 0);
	}
	f |= (st & 0x40 ? TT_TASK_DEAD : 0) | (st & 0x80 ? TT_TASK_WAKEKILL : 0) | (st & 0x100 ? TT_TASK_WAKING : 0) |
	     (st & 0x200 ? TT_TASK_PARKED : 0) | (st & 0x400 ? TT_TASK_NOLOAD : 0);
	if (f == (2 | TT_TASK_NOLOAD))
		f = TT_TASK_IDLE;
	if (st & (kv_major == 4 && kv_minor >= 8 ? 0x1000 : 0x800))
		f |= TT_TASK_PREEMPTED;
	return f;
}

int tt_task_state_text(int64_t raw, int kv_major, int kv_minor, char sep, char *out)
{
	static const struct { uint32_t flag; char c; } letters[] = {
		{ 1, 'S' }, { 2, 'D' }, { 4, 'T' }, { 8, 't' }, { 0x10, 'X' }, { 0x20, 'Z' },
		{ TT_TASK_PARKED, 'P' }, { TT_TASK_DEAD, 'x' }, { TT_TASK_WAKEKILL, 'K' },
		{ TT_TASK_WAKING, 'W' }, { TT_TASK_NOLOAD, 'N' }, { TT_TASK_IDLE, 'I' },
	};
	int64_t f = tt_task_state_flags(raw, kv_major, kv_minor);
	int n = 0;

	if (f < 0)
		return -1;
	if (!(f & ~(int64_t)TT_TASK_PREEMPTED)) {
		out[n++] = 'R';
		if (f & TT_TASK_PREEMPTED)
			out[n++] = '+';
		return n;
	}
	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (f & letters[i].flag) {
			if (sep && n)
				out[n++] = sep;
			out[n++] = letters[i].c;
		}
	return n;
}

/* A whole run of decimal digits, as trace processor's StringToUInt32
 * takes it: nothing else in it, not empty, within 32 bits. */
static int whole_uint(const char *p, size_t n, long long *out)
{
	long long v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
		if (v > 0xffffffffLL)
			return -1;
	}
	*out = v;
	return 0;
}

int tt_task_state_kernel(const char *sysname, const char *release, int *major, int *minor)
{
	const char *d1, *d2;
	long long a, b;

	if (!sysname || strcmp(sysname, "Linux") != 0 || !release || !*release || !(d1 = strchr(release, '.')))
		return -1;
	d2 = strchr(d1 + 1, '.');
	if (whole_uint(release, (size_t)(d1 - release), &a) ||
	    whole_uint(d1 + 1, d2 ? (size_t)(d2 - d1 - 1) : strlen(d1 + 1), &b) || a > 0x7fff || b > 0xffff)
		return -1;
	*major = (int)a;
	*minor = (int)b;
	return 0;
}
