/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by tests/sync-interop.c (libnptl) and tests/sync-interop-peer.c
 * (plain glibc): the objects they share over a memfd.  */
#include <pthread.h>

#define INTEROP_PARTIES 3       /* this process and two glibc peers */

struct interop {
	pthread_barrier_t bar;
	pthread_spinlock_t spin;
	long counter;               /* under spin */
	int phase[INTEROP_PARTIES];
	int serial;
	int errors;
};

/* One party's part: rounds of barrier waits, checking that everybody
 * reached each round before anybody left it, and spinlock-protected
 * increments.  Returns the number of errors seen.  */
static inline int interop_run(struct interop *s, int me, int rounds)
{
	int errors = 0;
	for (int i = 0; i < rounds; i++) {
		for (int k = 0; k < 10; k++) {
			pthread_spin_lock(&s->spin);
			long c = s->counter;
			s->counter = c + 1;
			pthread_spin_unlock(&s->spin);
		}
		__atomic_store_n(&s->phase[me], i + 1, __ATOMIC_RELAXED);
		int rc = pthread_barrier_wait(&s->bar);
		if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&s->serial, 1, __ATOMIC_RELAXED);
		else if (rc != 0)
			errors++;
		for (int p = 0; p < INTEROP_PARTIES; p++)
			if (__atomic_load_n(&s->phase[p], __ATOMIC_RELAXED) < i + 1)
				errors++;
	}
	return errors;
}
