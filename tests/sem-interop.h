/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The memory sem-interop (libnptl) shares with sem-interop-peer (glibc).  */
#include <semaphore.h>
#include <stdint.h>
#include <time.h>

#define IOP_ROUNDS 20000
#define IOP_K 2
#define IOP_ITEMS 40000
#define IOP_THREADS 3

struct iop {
	sem_t ping, pong, pool, items, start, finished;
	int holders, max_holders, errors, stop;
	long produced, consumed, pool_uses;
};

static inline struct timespec iop_in_ms(clockid_t c, long ms)
{
	struct timespec t;
	clock_gettime(c, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += ms % 1000 * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* Both sides run these threads: a pool of IOP_K tokens whose holders are
 * counted, and consumers of `items` (each side also produces half).  */
static inline void *iop_pool_user(void *arg)
{
	struct iop *m = arg;
	unsigned seed = (unsigned)(uintptr_t)&seed;
	while (!__atomic_load_n(&m->stop, __ATOMIC_SEQ_CST)) {
		int r;
		struct timespec dl;
		switch (rand_r(&seed) % 3) {
		case 0:
			r = sem_wait(&m->pool);
			break;
		case 1:
			r = sem_trywait(&m->pool);
			break;
		default:
			dl = iop_in_ms(CLOCK_MONOTONIC, 2);
			r = sem_clockwait(&m->pool, CLOCK_MONOTONIC, &dl);
			break;
		}
		if (r)
			continue;
		int h = __atomic_add_fetch(&m->holders, 1, __ATOMIC_SEQ_CST);
		if (h > IOP_K)
			__atomic_add_fetch(&m->errors, 1, __ATOMIC_SEQ_CST);
		if (h > __atomic_load_n(&m->max_holders, __ATOMIC_RELAXED))
			__atomic_store_n(&m->max_holders, h, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&m->holders, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&m->pool_uses, 1, __ATOMIC_RELAXED);
		if (sem_post(&m->pool))
			__atomic_add_fetch(&m->errors, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static inline void *iop_consumer(void *arg)
{
	struct iop *m = arg;
	while (__atomic_load_n(&m->consumed, __ATOMIC_SEQ_CST) < IOP_ITEMS) {
		struct timespec dl = iop_in_ms(CLOCK_REALTIME, 5);
		if (sem_timedwait(&m->items, &dl) == 0)
			__atomic_add_fetch(&m->consumed, 1, __ATOMIC_SEQ_CST);
		else if (errno != ETIMEDOUT)
			__atomic_add_fetch(&m->errors, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static inline void iop_produce(struct iop *m)
{
	for (int i = 0; i < IOP_ITEMS / 2; i++) {
		if (sem_post(&m->items))
			__atomic_add_fetch(&m->errors, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&m->produced, 1, __ATOMIC_SEQ_CST);
	}
}

/* Run the stress on this side until `stop`; returns when all is done.  */
static inline void iop_stress(struct iop *m)
{
	pthread_t pt[IOP_THREADS], ct[IOP_THREADS];
	for (int i = 0; i < IOP_THREADS; i++) {
		pthread_create(&pt[i], NULL, iop_pool_user, m);
		pthread_create(&ct[i], NULL, iop_consumer, m);
	}
	iop_produce(m);
	for (int i = 0; i < IOP_THREADS; i++)
		pthread_join(ct[i], NULL);
	for (int i = 0; i < IOP_THREADS; i++)
		pthread_join(pt[i], NULL);
}
