// SPDX-License-Identifier: LGPL-2.1-or-later
#include <threads.h>
#include "nptl.h"

NPTL_API int __nptl_tss_set(tss_t k, void *v)
{
	return nptl_thrd_result(__nptl_pthread_setspecific(k, v));
}
NPTL_SYMVER_DEFAULT(__nptl_tss_set, tss_set, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_tss_set, tss_set, GLIBC_2.28);
