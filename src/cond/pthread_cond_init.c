// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A condvar starts all zero, as PTHREAD_COND_INITIALIZER; the attributes
 * go into glibc's bits of __wrefs (nptl.h), read from glibc's condattr
 * encoding: bit 0 pshared, the clock id from bit 1.
 */
#include <string.h>
#include "nptl.h"

_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t");

NPTL_API int __nptl_pthread_cond_init(pthread_cond_t *cond,
				      const pthread_condattr_t *attr)
{
	struct nptl_cond *c = (struct nptl_cond *)cond;
	memset(cond, 0, sizeof(*cond));
	if (attr) {
		int v = *(const int *)attr;
		unsigned int w = 0;
		if (v & 1)
			w |= NPTL_COND_SHARED;
		if (((v >> 1) & 1) != CLOCK_REALTIME)
			w |= NPTL_COND_MONOTONIC;
		*nptl_cond_wrefs(c) = w;
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_cond_init, pthread_cond_init, GLIBC_2.3.2);
