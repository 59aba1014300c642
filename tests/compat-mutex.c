// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The compatibility-only mutex names, as old binaries bind them:
 * LinuxThreads' pthread_mutexattr_setkind_np/getkind_np@GLIBC_2.2.5 (the
 * type under its old name) and glibc 2.4's robust _np spellings
 * (pthread_mutexattr_setrobust_np/getrobust_np, pthread_mutex_consistent_np
 * @GLIBC_2.4), which behave as their POSIX successors.
 */
#include <pthread.h>
#include "t.h"

extern int old_setkind(pthread_mutexattr_t *, int);
extern int old_getkind(const pthread_mutexattr_t *, int *);
extern int old_setrobust(pthread_mutexattr_t *, int);
extern int old_getrobust(const pthread_mutexattr_t *, int *);
extern int old_consistent(pthread_mutex_t *);
__asm__(".symver old_setkind, pthread_mutexattr_setkind_np@GLIBC_2.2.5");
__asm__(".symver old_getkind, pthread_mutexattr_getkind_np@GLIBC_2.2.5");
__asm__(".symver old_setrobust, pthread_mutexattr_setrobust_np@GLIBC_2.4");
__asm__(".symver old_getrobust, pthread_mutexattr_getrobust_np@GLIBC_2.4");
__asm__(".symver old_consistent, pthread_mutex_consistent_np@GLIBC_2.4");

static pthread_mutex_t robust;

static void *die_holding(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&robust);
	return NULL;
}

int main(void)
{
	pthread_mutexattr_t a;
	int k;
	CHECK0(pthread_mutexattr_init(&a));
	CHECK0(old_setkind(&a, PTHREAD_MUTEX_RECURSIVE_NP));
	CHECK0(old_getkind(&a, &k));
	CHECK(k == PTHREAD_MUTEX_RECURSIVE_NP);
	CHECK0(pthread_mutexattr_gettype(&a, &k));
	CHECK(k == PTHREAD_MUTEX_RECURSIVE);
	CHECK_ERR(old_setkind(&a, 1234), EINVAL);
	pthread_mutex_t m;
	CHECK0(pthread_mutex_init(&m, &a));
	CHECK0(pthread_mutex_lock(&m));
	CHECK0(pthread_mutex_lock(&m));
	CHECK0(pthread_mutex_unlock(&m));
	CHECK0(pthread_mutex_unlock(&m));
	CHECK0(pthread_mutex_destroy(&m));

	CHECK0(old_setrobust(&a, PTHREAD_MUTEX_ROBUST_NP));
	CHECK0(old_getrobust(&a, &k));
	CHECK(k == PTHREAD_MUTEX_ROBUST_NP);
	CHECK0(pthread_mutexattr_getrobust(&a, &k));
	CHECK(k == PTHREAD_MUTEX_ROBUST);
	CHECK_ERR(old_setrobust(&a, 99), EINVAL);
	CHECK0(old_setkind(&a, PTHREAD_MUTEX_NORMAL));
	CHECK0(pthread_mutex_init(&robust, &a));
	CHECK0(pthread_mutexattr_destroy(&a));

	pthread_t t;
	CHECK0(pthread_create(&t, NULL, die_holding, NULL));
	CHECK0(pthread_join(t, NULL));
	CHECK_ERR(pthread_mutex_lock(&robust), EOWNERDEAD);
	CHECK0(old_consistent(&robust));
	CHECK0(pthread_mutex_unlock(&robust));
	CHECK0(pthread_mutex_lock(&robust));
	CHECK0(pthread_mutex_unlock(&robust));
	CHECK_ERR(old_consistent(&robust), EINVAL);
	CHECK0(pthread_mutex_destroy(&robust));
	return t_done();
}
