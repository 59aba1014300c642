// SPDX-License-Identifier: LGPL-2.1-or-later
/* C11 threads: thin maps onto the POSIX calls, with C11's result codes.  */
#include <sched.h>
#include "nptl.h"

NPTL_API int __nptl_thrd_create(thrd_t *thr, thrd_start_t fn, void *arg)
{
	return nptl_thrd_result(__nptl_thread_create((pthread_t *)thr, NULL,
					       (void *(*)(void *))(void (*)(void))fn,
					       arg, true));
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_create, thrd_create, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_thrd_create, thrd_create, GLIBC_2.28);

NPTL_API int __nptl_thrd_join(thrd_t thr, int *res)
{
	void *r;
	int err = __nptl_join((pthread_t)thr, &r, true, CLOCK_REALTIME, NULL);
	if (err == 0 && res)
		*res = (int)(intptr_t)r;
	return nptl_thrd_result(err);
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_join, thrd_join, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_thrd_join, thrd_join, GLIBC_2.28);

NPTL_API int __nptl_thrd_detach(thrd_t thr)
{
	return nptl_thrd_result(__nptl_pthread_detach((pthread_t)thr));
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_detach, thrd_detach, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_thrd_detach, thrd_detach, GLIBC_2.28);

NPTL_API _Noreturn void __nptl_thrd_exit(int res)
{
	__nptl_pthread_exit((void *)(intptr_t)res);
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_exit, thrd_exit, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_thrd_exit, thrd_exit, GLIBC_2.28);

/* C11: 0 when the time elapsed, -1 when a signal interrupted it, another
 * negative value on failure.  */
NPTL_API int __nptl_thrd_sleep(const struct timespec *t, struct timespec *rem)
{
	int err = clock_nanosleep(CLOCK_REALTIME, 0, t, rem);
	return err == 0 ? 0 : err == EINTR ? -1 : -2;
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_sleep, thrd_sleep, GLIBC_2.28);

NPTL_API void __nptl_thrd_yield(void)
{
	sched_yield();
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_yield, thrd_yield, GLIBC_2.28);
