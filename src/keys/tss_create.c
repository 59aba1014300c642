// SPDX-License-Identifier: LGPL-2.1-or-later
#include <limits.h>
#include <threads.h>
#include "nptl.h"

_Static_assert(sizeof(tss_t) == sizeof(pthread_key_t), "tss_t");
_Static_assert(TSS_DTOR_ITERATIONS == PTHREAD_DESTRUCTOR_ITERATIONS,
	       "TSS_DTOR_ITERATIONS");

/* glibc maps ENOMEM to thrd_nomem and everything else, EAGAIN included,
 * to thrd_error; key creation can only fail with EAGAIN.  */
NPTL_API int __nptl_tss_create(tss_t *k, tss_dtor_t d)
{
	return __nptl_pthread_key_create(k, d) ? thrd_error : thrd_success;
}
NPTL_SYMVER_DEFAULT(__nptl_tss_create, tss_create, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_tss_create, tss_create, GLIBC_2.28);
