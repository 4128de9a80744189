/*
 * search.h - what `/` finds. Smartcase: case-insensitive unless the text
 * has a capital letter (then exact case, like SQL glob '*Text*'; without
 * one like SQL like '%text%', ASCII case folding). The text matches:
 *     /text    slice names (substring)
 *     /@text   arg values of the slice (`/@key=text`: the arg key too)
 *     /%text   the name of the slice's thread, process or track
 *     /#N, /N  the slice with id N (digits only): selected at once
 * With a range active, only slices intersecting it (on its tracks) match.
 */
#ifndef TT_SEARCH_H
#define TT_SEARCH_H

#include <stddef.h>
#include <stdint.h>

enum { TT_SEARCH_NAME, TT_SEARCH_ARGS, TT_SEARCH_THREAD, TT_SEARCH_ID };

/* Smartcase substring test. icase: from tt_search_icase(needle). */
int tt_search_icase(const char *needle);
int tt_search_has(const char *hay, const char *needle, int icase);

struct tt_view;
typedef struct tt_search tt_search;
/* Prepares a search of text (kind from its prefix). NULL on OOM. For
 * TT_SEARCH_ID, *id gets the slice id. */
tt_search *tt_search_new(const struct tt_view *v, const char *text, int *kind, int64_t *id);
/* Whether slice id matches (cached per name / arg set / track). */
int tt_search_test(tt_search *q, const struct tt_view *v, size_t id);
void tt_search_free(tt_search *q);

#endif
