// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_attr_{set,get}affinity_np and pthread_attr_{set,get}sigmask_np:
 * storage at any set size, glibc's filtering of its reserved signals, and
 * that a created thread starts with the affinity and mask it was given.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include "t.h"

static int all_bytes(const void *p, size_t n, int c)
{
	for (size_t i = 0; i < n; i++)
		if (((const unsigned char *)p)[i] != (unsigned char)c)
			return 0;
	return 1;
}

/* <pthread.h> says nonnull, but glibc documents and implements NULL as
 * "no affinity"; hide it from the compiler.  */
static cpu_set_t *volatile no_set;

static void check_affinity_attr(void)
{
	pthread_attr_t a;
	cpu_set_t set, got;
	unsigned char big[512], small[8];

	CHECK0(pthread_attr_init(&a));
	/* Nothing set: every CPU, at whatever size is asked.  */
	memset(&got, 0, sizeof(got));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(all_bytes(&got, sizeof(got), 0xff));
	memset(small, 0, sizeof(small));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(small), (cpu_set_t *)small));
	CHECK(all_bytes(small, sizeof(small), 0xff));

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(5, &set);
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(set), &set));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(CPU_EQUAL(&set, &got));
	/* A bigger buffer is zero-filled past the stored set.  */
	memset(big, 0xaa, sizeof(big));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(big), (cpu_set_t *)big));
	CHECK(memcmp(big, &set, sizeof(set)) == 0);
	CHECK(all_bytes(big + sizeof(set), sizeof(big) - sizeof(set), 0));
	/* A smaller one is fine while no set CPU falls outside it.  */
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(small), (cpu_set_t *)small));
	CHECK(small[0] == 0x21 && all_bytes(small + 1, sizeof(small) - 1, 0));
	CPU_SET(100, &set);
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(set), &set));
	CHECK_ERR(pthread_attr_getaffinity_np(&a, sizeof(small), (cpu_set_t *)small), EINVAL);
	CHECK0(pthread_attr_getaffinity_np(&a, 16, (cpu_set_t *)big));
	CHECK(big[12] == 0x10);

	/* Any size is stored as given, bigger than cpu_set_t too.  */
	memset(big, 0, sizeof(big));
	big[300] = 0x80;   /* CPU 2407 */
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(big), (cpu_set_t *)big));
	CHECK_ERR(pthread_attr_getaffinity_np(&a, sizeof(got), &got), EINVAL);
	memset(big, 0xff, sizeof(big));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(big), (cpu_set_t *)big));
	CHECK(big[300] == 0x80 && all_bytes(big, 300, 0) &&
	      all_bytes(big + 301, sizeof(big) - 301, 0));
	cpu_set_t *dyn = CPU_ALLOC(4096);
	size_t dsz = CPU_ALLOC_SIZE(4096);
	CHECK0(pthread_attr_getaffinity_np(&a, dsz, dyn));
	CHECK(CPU_ISSET_S(2407, dsz, dyn) && CPU_COUNT_S(dsz, dyn) == 1);
	CPU_FREE(dyn);

	/* NULL or size 0 forget the set.  */
	CHECK0(pthread_attr_setaffinity_np(&a, 0, &set));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(all_bytes(&got, sizeof(got), 0xff));
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(set), &set));
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(set), no_set));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(all_bytes(&got, sizeof(got), 0xff));
	CHECK0(pthread_attr_destroy(&a));

	/* Forgetting on a fresh attribute is harmless.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setaffinity_np(&a, 0, no_set));
	CHECK0(pthread_attr_destroy(&a));
}

/* glibc's reserved signals cannot be named through sigaddset.  */
static void raw_add(sigset_t *s, int sig)
{
	s->__val[(sig - 1) / (8 * sizeof(s->__val[0]))] |=
		1UL << ((sig - 1) % (8 * sizeof(s->__val[0])));
}

static int raw_has(const sigset_t *s, int sig)
{
	return (s->__val[(sig - 1) / (8 * sizeof(s->__val[0]))] >>
		((sig - 1) % (8 * sizeof(s->__val[0])))) & 1;
}

/* glibc's sigsetops touch only the words the kernel uses, so compare
 * members, not bytes.  */
static int same_set(const sigset_t *x, const sigset_t *y)
{
	for (int sig = 1; sig <= SIGRTMAX; sig++)
		if (raw_has(x, sig) != raw_has(y, sig))
			return 0;
	return 1;
}

static void check_sigmask_attr(void)
{
	pthread_attr_t a;
	sigset_t set, got;

	CHECK0(pthread_attr_init(&a));
	sigfillset(&got);
	CHECK_ERR(pthread_attr_getsigmask_np(&a, &got), PTHREAD_ATTR_NO_SIGMASK_NP);
	sigemptyset(&set);
	CHECK(same_set(&got, &set));

	/* The empty set is a set mask, unlike none.  */
	CHECK0(pthread_attr_setsigmask_np(&a, &set));
	sigfillset(&got);
	CHECK0(pthread_attr_getsigmask_np(&a, &got));
	CHECK(same_set(&got, &set));

	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGRTMAX);
	raw_add(&set, 32);
	raw_add(&set, 33);
	CHECK0(pthread_attr_setsigmask_np(&a, &set));
	CHECK0(pthread_attr_getsigmask_np(&a, &got));
	CHECK(sigismember(&got, SIGUSR1) == 1);
	CHECK(sigismember(&got, SIGRTMAX) == 1);
	CHECK(sigismember(&got, SIGUSR2) == 0);
	CHECK(!raw_has(&got, 32) && !raw_has(&got, 33));

	/* Filling is allowed; the reserved ones still drop out.  */
	sigfillset(&set);
	raw_add(&set, 32);
	raw_add(&set, 33);
	CHECK0(pthread_attr_setsigmask_np(&a, &set));
	CHECK0(pthread_attr_getsigmask_np(&a, &got));
	CHECK(sigismember(&got, SIGINT) == 1 && sigismember(&got, SIGRTMIN) == 1);
	CHECK(!raw_has(&got, 32) && !raw_has(&got, 33));

	CHECK0(pthread_attr_setsigmask_np(&a, NULL));
	CHECK_ERR(pthread_attr_getsigmask_np(&a, &got), PTHREAD_ATTR_NO_SIGMASK_NP);
	CHECK0(pthread_attr_destroy(&a));

	/* (No test of NULL on a fresh attribute: glibc 2.36 crashes.)  */

	/* Both extensions live side by side.  */
	cpu_set_t cs, cg;
	CPU_ZERO(&cs);
	CPU_SET(1, &cs);
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setsigmask_np(&a, &set));
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(cs), &cs));
	CHECK0(pthread_attr_setaffinity_np(&a, 0, no_set));
	CHECK0(pthread_attr_getsigmask_np(&a, &got));
	CHECK(sigismember(&got, SIGHUP) == 1);
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(cs), &cs));
	CHECK0(pthread_attr_setsigmask_np(&a, NULL));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(cg), &cg));
	CHECK(CPU_EQUAL(&cs, &cg));
	CHECK0(pthread_attr_destroy(&a));
}

/* ---- created threads ----------------------------------------------- */

struct seen {
	cpu_set_t cpus, attr_cpus;
	sigset_t mask;
	int err;
};

static void *report(void *arg)
{
	struct seen *s = arg;
	pthread_attr_t a;
	s->err = sched_getaffinity(0, sizeof(s->cpus), &s->cpus) ? errno : 0;
	if (!s->err)
		s->err = pthread_sigmask(SIG_BLOCK, NULL, &s->mask);
	if (!s->err)
		s->err = pthread_getattr_np(pthread_self(), &a);
	if (!s->err) {
		s->err = pthread_attr_getaffinity_np(&a, sizeof(s->attr_cpus),
						     &s->attr_cpus);
		pthread_attr_destroy(&a);
	}
	return NULL;
}

static void check_affinity_thread(void)
{
	cpu_set_t mine;
	CHECK0(sched_getaffinity(0, sizeof(mine), &mine) ? errno : 0);
	int cpu = -1;
	for (int i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &mine))
			cpu = i;
	CHECK(cpu >= 0);

	pthread_attr_t a;
	pthread_t t;
	struct seen s = { 0 };
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(one), &one));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK0(s.err);
	CHECK(CPU_EQUAL(&s.cpus, &one));
	CHECK(CPU_EQUAL(&s.attr_cpus, &one));

	/* The creator keeps its own affinity.  */
	cpu_set_t now;
	CHECK0(sched_getaffinity(0, sizeof(now), &now) ? errno : 0);
	CHECK(CPU_EQUAL(&now, &mine));

	/* Without one, the creator's is inherited.  */
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(CPU_EQUAL(&s.cpus, &mine));

	/* A set with no usable CPU makes creation fail.  */
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu > 0 && ncpu < CPU_SETSIZE - 1) {
		cpu_set_t none;
		CPU_ZERO(&none);
		CPU_SET(CPU_SETSIZE - 1, &none);
		CHECK0(pthread_attr_setaffinity_np(&a, sizeof(none), &none));
		CHECK_ERR(pthread_create(&t, &a, report, &s), EINVAL);
	}
	CHECK0(pthread_attr_destroy(&a));
}

static void check_sigmask_thread(void)
{
	sigset_t set, old;
	pthread_attr_t a;
	pthread_t t;
	struct seen s = { 0 };

	/* The creator blocks SIGTERM: inherited without a mask attribute.  */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	CHECK0(pthread_sigmask(SIG_BLOCK, &set, &old));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(sigismember(&s.mask, SIGTERM) == 1);
	CHECK(sigismember(&s.mask, SIGUSR1) == 0);

	/* With one, the thread gets exactly it.  */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setsigmask_np(&a, &set));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK0(s.err);
	CHECK(sigismember(&s.mask, SIGUSR1) == 1);
	CHECK(sigismember(&s.mask, SIGUSR2) == 1);
	CHECK(sigismember(&s.mask, SIGTERM) == 0);
	CHECK(sigismember(&s.mask, SIGINT) == 0);

	/* An empty mask unblocks what the creator blocks.  */
	sigemptyset(&set);
	CHECK0(pthread_attr_setsigmask_np(&a, &set));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(sigismember(&s.mask, SIGTERM) == 0);

	/* A full one blocks everything but what cannot be blocked.  */
	sigfillset(&set);
	CHECK0(pthread_attr_setsigmask_np(&a, &set));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(sigismember(&s.mask, SIGINT) == 1);
	CHECK(sigismember(&s.mask, SIGRTMAX) == 1);
	CHECK(sigismember(&s.mask, SIGKILL) == 0);
	CHECK(!raw_has(&s.mask, 32));   /* cancellation still works */

	/* The creator's own mask is untouched.  */
	sigset_t now;
	CHECK0(pthread_sigmask(SIG_BLOCK, NULL, &now));
	CHECK(sigismember(&now, SIGTERM) == 1 && sigismember(&now, SIGUSR1) == 0);
	CHECK0(pthread_sigmask(SIG_SETMASK, &old, NULL));
	CHECK0(pthread_attr_destroy(&a));
}

int main(void)
{
	check_affinity_attr();
	check_sigmask_attr();
	check_affinity_thread();
	check_sigmask_thread();
	return t_done();
}
