/*
 * regex_guard.h - POSIX extended regexes compiled with glibc's regcomp,
 * after a check of what regcomp would do with them: every place that
 * compiles a pattern it was given (description rules, SQL regexp,
 * flamegraph filters) goes through here.
 */
#ifndef TT_REGEX_GUARD_H
#define TT_REGEX_GUARD_H

#include <regex.h>
#include <stddef.h>

/* regcomp(re, pat, cflags), unless pat is refused first: its repeats
 * would expand past 20,000 parts, its groups nest deeper than 64, or
 * (backrefs 0) it holds a back-reference \1-\9. 0 when re is compiled
 * (regfree it); else msg says why, as a phrase ("too big (...)", or
 * regerror's text), and re is not. */
int tt_regex_compile(regex_t *re, const char *pat, int cflags, int backrefs, char *msg, size_t msglen);

#endif
