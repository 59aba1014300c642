// SPDX-License-Identifier: LGPL-2.1-or-later
/* Initialization gives what glibc's static initializers give: all zero
 * but the kind in `__flags` and pshared in `__shared` (protocol in
 * pthread_rwlock.c).  */
#include <string.h>
#include "nptl.h"

NPTL_API int __nptl_pthread_rwlock_init(pthread_rwlock_t *lock,
					const pthread_rwlockattr_t *attr)
{
	struct nptl_rwlock *rw = (struct nptl_rwlock *)lock;
	const struct nptl_rwlockattr *a = (const struct nptl_rwlockattr *)attr;
	memset(rw, 0, sizeof *rw);
	if (a) {
		rw->flags = (unsigned int)a->kind;
		rw->shared = a->pshared != PTHREAD_PROCESS_PRIVATE;
	}
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_init, pthread_rwlock_init, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_init, pthread_rwlock_init, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_init) __nptl___pthread_rwlock_init
	__attribute__((alias("__nptl_pthread_rwlock_init"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_init, __pthread_rwlock_init, GLIBC_2.2.5);

/* glibc keeps no resources in a rwlock and checks nothing here.  */
NPTL_API int __nptl_pthread_rwlock_destroy(pthread_rwlock_t *lock)
{
	(void)lock;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_rwlock_destroy, pthread_rwlock_destroy, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_rwlock_destroy, pthread_rwlock_destroy, GLIBC_2.2.5);
extern __typeof(__nptl_pthread_rwlock_destroy) __nptl___pthread_rwlock_destroy
	__attribute__((alias("__nptl_pthread_rwlock_destroy"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_rwlock_destroy, __pthread_rwlock_destroy, GLIBC_2.2.5);
