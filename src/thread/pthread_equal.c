// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

NPTL_API int __nptl_pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_equal, pthread_equal, GLIBC_2.2.5);

NPTL_API int __nptl_thrd_equal(thrd_t a, thrd_t b)
{
	return a == b;
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_equal, thrd_equal, GLIBC_2.28);
