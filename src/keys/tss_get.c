// SPDX-License-Identifier: LGPL-2.1-or-later
#include <threads.h>
#include "nptl.h"

NPTL_API void *__nptl_tss_get(tss_t k)
{
	return __nptl_pthread_getspecific(k);
}
NPTL_SYMVER_DEFAULT(__nptl_tss_get, tss_get, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_tss_get, tss_get, GLIBC_2.28);
