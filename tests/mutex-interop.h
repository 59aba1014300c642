/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by mutex-interop and its glibc peer.  */
#ifndef MUTEX_INTEROP_H
#define MUTEX_INTEROP_H
#include <pthread.h>

struct interop {
	pthread_mutex_t m;
	volatile long counter;
	volatile int inside;
	volatile int ready;
	volatile int type;
};

/* The ceiling a PRIO_PROTECT mutex is made with.  */
#define INTEROP_CEILING 5

/* proto: 0 PRIO_NONE, 1 PRIO_INHERIT, 2 PRIO_PROTECT (INTEROP_CEILING).  */
static inline int interop_init(pthread_mutex_t *m, int type, int robust, int proto)
{
	pthread_mutexattr_t a;
	if (pthread_mutexattr_init(&a) || pthread_mutexattr_settype(&a, type) ||
	    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED) ||
	    (robust && pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST)) ||
	    (proto == 1 && pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT)) ||
	    (proto == 2 && (pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT) ||
			    pthread_mutexattr_setprioceiling(&a, INTEROP_CEILING))))
		return 1;
	return pthread_mutex_init(m, &a) ? 1 : 0;
}

/* Lock (alternately trylock-then-lock), check we are alone, count.  */
static inline int interop_work(struct interop *s, long iters)
{
	for (long i = 0; i < iters; i++) {
		int r = (i & 1) ? pthread_mutex_lock(&s->m)
				: pthread_mutex_trylock(&s->m);
		if (r == EBUSY)
			r = pthread_mutex_lock(&s->m);
		if (r)
			return 20 + r;
		if (s->type == PTHREAD_MUTEX_RECURSIVE &&
		    pthread_mutex_lock(&s->m))
			return 3;
		if (s->inside++)
			return 4;
		s->counter++;
		s->inside--;
		if (s->type == PTHREAD_MUTEX_RECURSIVE &&
		    pthread_mutex_unlock(&s->m))
			return 5;
		if (pthread_mutex_unlock(&s->m))
			return 6;
	}
	return 0;
}
#endif
