// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_getattr_default_np / pthread_setattr_default_np: the initial
 * default, what set refuses, that stacksize 0 keeps the current size,
 * that copies are independent, and that pthread_create with NULL
 * follows the default.
 */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* stackaddr */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/resource.h>
#include "t.h"

static size_t page;

static void check_initial(void)
{
	pthread_attr_t a;
	int v;
	size_t s;
	void *p;
	struct sched_param sp = { .sched_priority = 9 };
	cpu_set_t cs;
	sigset_t ss;

	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getdetachstate(&a, &v));
	CHECK(v == PTHREAD_CREATE_JOINABLE);
	CHECK0(pthread_attr_getscope(&a, &v));
	CHECK(v == PTHREAD_SCOPE_SYSTEM);
	CHECK0(pthread_attr_getinheritsched(&a, &v));
	CHECK(v == PTHREAD_INHERIT_SCHED);
	CHECK0(pthread_attr_getschedpolicy(&a, &v));
	CHECK(v == SCHED_OTHER);
	CHECK0(pthread_attr_getschedparam(&a, &sp));
	CHECK(sp.sched_priority == 0);
	CHECK0(pthread_attr_getguardsize(&a, &s));
	CHECK(s == page);
	CHECK0(pthread_attr_getstackaddr(&a, &p));
	CHECK(p == NULL);
	/* The size is real, not 0, and what a fresh attribute reports.  */
	CHECK0(pthread_attr_getstack(&a, &p, &s));
	CHECK(s >= 16384 && s % page == 0);
	size_t fresh;
	pthread_attr_t b;
	CHECK0(pthread_attr_init(&b));
	CHECK0(pthread_attr_getstacksize(&b, &fresh));
	CHECK(s == fresh);
	CHECK0(pthread_attr_destroy(&b));
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur >= 16384)
		CHECK(s == (rl.rlim_cur + page - 1) / page * page);
	CHECK_ERR(pthread_attr_getsigmask_np(&a, &ss), PTHREAD_ATTR_NO_SIGMASK_NP);
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(cs), &cs));
	CHECK(CPU_COUNT(&cs) == CPU_SETSIZE);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_refused(void)
{
	pthread_attr_t a, before, after;
	struct sched_param sp;
	size_t s1, s2;
	void *p;
	CHECK0(pthread_getattr_default_np(&before));

	/* A stack address cannot be a default.  */
	char *mem = malloc(65536);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstack(&a, mem, 65536));
	CHECK_ERR(pthread_setattr_default_np(&a), EINVAL);
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstackaddr(&a, mem + 65536));
	CHECK_ERR(pthread_setattr_default_np(&a), EINVAL);
	CHECK0(pthread_attr_destroy(&a));
	free(mem);

	/* Nor can a priority outside the policy's range: reachable by
	 * setting the priority under SCHED_FIFO and the policy after.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setschedpolicy(&a, SCHED_FIFO));
	sp.sched_priority = sched_get_priority_max(SCHED_FIFO);
	CHECK0(pthread_attr_setschedparam(&a, &sp));
	CHECK0(pthread_attr_setschedpolicy(&a, SCHED_OTHER));
	CHECK_ERR(pthread_setattr_default_np(&a), EINVAL);
	CHECK0(pthread_attr_destroy(&a));

	/* Nothing changed.  */
	CHECK0(pthread_getattr_default_np(&after));
	CHECK0(pthread_attr_getstacksize(&before, &s1));
	CHECK0(pthread_attr_getstacksize(&after, &s2));
	CHECK(s1 == s2);
	CHECK0(pthread_attr_getschedparam(&after, &sp));
	CHECK(sp.sched_priority == 0);
	CHECK0(pthread_attr_getstackaddr(&after, &p));
	CHECK(p == NULL);
	CHECK0(pthread_attr_destroy(&before));
	CHECK0(pthread_attr_destroy(&after));

	/* A real-time policy with priority 0 passes: only a positive
	 * priority is checked.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setschedpolicy(&a, SCHED_RR));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	int pol;
	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getschedpolicy(&a, &pol));
	CHECK(pol == SCHED_RR);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_stacksize(size_t orig)
{
	pthread_attr_t a;
	size_t s;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, 1 << 20));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == 1 << 20);
	CHECK0(pthread_attr_destroy(&a));

	/* A fresh attribute's "default" size follows the new default.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == 1 << 20);
	/* Setting it (stacksize 0) keeps the current size.  */
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == 1 << 20);
	CHECK0(pthread_attr_destroy(&a));

	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, orig));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
}

static void check_copies(void)
{
	pthread_attr_t a, b;
	cpu_set_t cs, got;
	sigset_t ss, sg;
	CPU_ZERO(&cs);
	CPU_SET(3, &cs);
	sigemptyset(&ss);
	sigaddset(&ss, SIGUSR2);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(cs), &cs));
	CHECK0(pthread_attr_setsigmask_np(&a, &ss));
	CHECK0(pthread_setattr_default_np(&a));
	/* The default holds its own copy.  */
	CHECK0(pthread_attr_destroy(&a));

	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(CPU_EQUAL(&got, &cs));
	CHECK0(pthread_attr_getsigmask_np(&a, &sg));
	CHECK(sigismember(&sg, SIGUSR2) == 1 && sigismember(&sg, SIGUSR1) == 0);
	/* Changing a copy changes neither the default nor other copies.  */
	CHECK0(pthread_getattr_default_np(&b));
	CPU_SET(4, &got);
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(got), &got));
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(pthread_attr_getaffinity_np(&b, sizeof(got), &got));
	CHECK(CPU_EQUAL(&got, &cs));
	CHECK0(pthread_attr_destroy(&b));
	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(CPU_EQUAL(&got, &cs));
	CHECK0(pthread_attr_destroy(&a));

	/* Replacing the default frees nothing a copy still holds.  */
	CHECK0(pthread_getattr_default_np(&b));
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(pthread_attr_getaffinity_np(&b, sizeof(got), &got));
	CHECK(CPU_EQUAL(&got, &cs));
	CHECK0(pthread_attr_destroy(&b));
	CHECK0(pthread_getattr_default_np(&a));
	CHECK_ERR(pthread_attr_getsigmask_np(&a, &sg), PTHREAD_ATTR_NO_SIGMASK_NP);
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(CPU_COUNT(&got) == CPU_SETSIZE);
	CHECK0(pthread_attr_destroy(&a));
}

/* ---- threads made with NULL ---------------------------------------- */

struct seen {
	int detach;
	size_t stack, guard;
	sigset_t mask;
	cpu_set_t cpus;
};

static int gate;

static void *report(void *arg)
{
	struct seen *s = arg;
	pthread_attr_t a;
	pthread_sigmask(SIG_BLOCK, NULL, &s->mask);
	sched_getaffinity(0, sizeof(s->cpus), &s->cpus);
	if (pthread_getattr_np(pthread_self(), &a) == 0) {
		pthread_attr_getstacksize(&a, &s->stack);
		pthread_attr_getguardsize(&a, &s->guard);
		pthread_attr_getdetachstate(&a, &s->detach);
		pthread_attr_destroy(&a);
	}
	return NULL;
}

static void *hold(void *arg)
{
	report(arg);
	while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
		usleep(1000);
	__atomic_store_n(&gate, 2, __ATOMIC_RELEASE);
	return NULL;
}

static void check_threads(size_t orig)
{
	pthread_attr_t a;
	pthread_t t;
	struct seen s;

	/* Stack and guard size.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, 256 * 1024));
	CHECK0(pthread_attr_setguardsize(&a, 2 * page));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.stack >= 256 * 1024);
	if (orig >= (1 << 20))
		CHECK(s.stack < orig);
	CHECK(s.guard == 2 * page);

	/* Signal mask and affinity.  */
	cpu_set_t mine, one;
	CHECK0(sched_getaffinity(0, sizeof(mine), &mine) ? errno : 0);
	CPU_ZERO(&one);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &mine)) {
			CPU_SET(i, &one);
			break;
		}
	sigset_t ss;
	sigemptyset(&ss);
	sigaddset(&ss, SIGUSR1);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setsigmask_np(&a, &ss));
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(one), &one));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(sigismember(&s.mask, SIGUSR1) == 1);
	CHECK(CPU_EQUAL(&s.cpus, &one));
	/* An explicit attribute is not affected by the default.  */
	CHECK0(pthread_attr_init(&a));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(sigismember(&s.mask, SIGUSR1) == 0);
	CHECK(CPU_EQUAL(&s.cpus, &mine));
	CHECK0(pthread_attr_destroy(&a));

	/* Detached.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, NULL, hold, &s));
	CHECK_ERR(pthread_join(t, NULL), EINVAL);
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&gate, __ATOMIC_ACQUIRE) != 2)
		usleep(1000);
	CHECK(s.detach == PTHREAD_CREATE_DETACHED);

	/* Back to the original.  */
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, orig));
	CHECK0(pthread_setattr_default_np(&a));
	CHECK0(pthread_attr_destroy(&a));
	memset(&s, 0, sizeof(s));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.stack >= orig && s.guard == page);
	CHECK(sigismember(&s.mask, SIGUSR1) == 0);
}

int main(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	size_t orig;
	pthread_attr_t a;
	CHECK0(pthread_getattr_default_np(&a));
	CHECK0(pthread_attr_getstacksize(&a, &orig));
	CHECK0(pthread_attr_destroy(&a));

	check_initial();
	check_refused();
	check_stacksize(orig);
	check_copies();
	check_threads(orig);
	return t_done();
}
