/* import_ctf.c - CTF importer (placeholder until issue 4 lands). */
#include "import_int.h"

int tt_ctf_dir_has_trace(const char *dir)
{
	(void)dir;
	return 0;
}

int tt_import_ctf(tt_import *im, const char *dir)
{
	(void)dir;
	return tt_err_set(im->err, TT_EUNSUPPORTED, "%s: CTF traces are not supported yet", im->path);
}
