/* json_systrace.c - the top-level systemTraceEvents string (see
 * import_json.c for the importer as a whole).
 *
 * trace processor's JSON tokenizer reads the string as ftrace text, line
 * by line (a line ends at each "\n"; text after the last one is not a
 * line), skips empty and '#' lines, refuses the whole trace at a line
 * that is not ftrace text, and pushes each line to its sorter as a
 * stream of its own; the lines reach its systrace line parser in trace
 * order among the JSON events. Here: the parser thread hands the string
 * over in its batch, in file order (a parsed event flagged EV_SYSTRACE); the
 * import thread cuts the lines (core/import/systrace/) and pushes them
 * on a sorter stream of their own; the feed parses each in its place. */
#include "json_int.h"

#include "systrace.h"

int tt_json_systrace_put(struct jparse *p, const char *s, size_t len)
{
	struct batch *b = p->b;
	struct pev e = { 0 };
	char *copy = len < UINT32_MAX ? malloc(len + 1) : NULL;

	if (!copy || TT_VEC_PUSH(b->sys, copy)) {
		free(copy);
		return tt_json_parse_oom(p);
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	e.flags = EV_SYSTRACE;
	e.name = (uint32_t)(b->sys.n - 1);
	e.name_len = (uint32_t)len;
	e.at = p->file_base + p->base + yajl_get_bytes_consumed(p->yh);
	if (TT_VEC_PUSH(b->ev, e))
		return tt_json_parse_oom(p);
	if (!p->chunk_mode && (b->ev.n >= BATCH_EVENTS || b->text.n >= BATCH_TEXT))
		return tt_json_batch_publish(p) == 0;
	return 1;
}

size_t tt_json_systrace_count(const struct batch *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->ev.n; i++)
		n += (b->ev.v[i].flags & EV_SYSTRACE) != 0;
	return n;
}

int tt_json_systrace_lines(struct json *j, const struct batch *b, const struct pev *e)
{
	char *s = b->sys.v[e->name];
	size_t i = 0, nline = 0, len = e->name_len;
	uint64_t at = e->at;

	j->has_systrace = 1;
	if (!j->sys) {
		j->sys = tt_systrace_new(j->im);
		j->sys_stream = tt_sorter_stream(j->sorter);
		if (!j->sys || j->sys_stream == UINT32_MAX)
			return -1;
	}
	/* the lines are kept where they are: the text is the reader's now */
	if (tt_systrace_own(j->sys, s, len))
		return -1;
	b->sys.v[e->name] = NULL;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
		tt_event r = { .kind = REC_SYSTRACE, .args = TT_NONE };
		uint32_t idx;

		if (!nl)
			break; /* (not a line: the string ended first) */
		nline++;
		switch (tt_systrace_add(j->sys, s + i, n, &r.ts, &idx)) {
		case TT_SYSTRACE_KEPT:
			r.id = idx;
			if (tt_sorter_push(j->sorter, j->sys_stream, &r) < 0)
				return -1;
			break;
		case TT_SYSTRACE_SKIPPED:
			break;
		case TT_SYSTRACE_BAD:
			snprintf(j->bad, sizeof(j->bad),
				 "systemTraceEvents line %zu (string ending at byte %llu) is not ftrace text: %.*s", nline,
				 (unsigned long long)at, (int)(n < 80 ? n : 80), s + i);
			return -2;
		default:
			return -1;
		}
		i += n + 1;
	}
	return 0;
}

int tt_json_systrace_feed(struct json *j, const tt_event *r)
{
	return tt_systrace_parse(j->sys, (uint32_t)r->id);
}

int tt_json_systrace_finish(struct json *j)
{
	return j->sys ? tt_systrace_finish(j->sys) : 0;
}

void tt_json_systrace_free(struct json *j)
{
	tt_systrace_free(j->sys);
	j->sys = NULL;
}
