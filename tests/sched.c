// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_setschedparam/getschedparam/setschedprio, affinity (every
 * version), concurrency, pthread_yield@GLIBC_2.2.5.  */
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

extern int old_setaffinity(pthread_t, cpu_set_t *);
extern int old_getaffinity(pthread_t, cpu_set_t *);
extern int old_yield(void);
__asm__(".symver old_setaffinity, pthread_setaffinity_np@GLIBC_2.3.3");
__asm__(".symver old_getaffinity, pthread_getaffinity_np@GLIBC_2.3.3");
__asm__(".symver old_yield, pthread_yield@GLIBC_2.2.5");

static pthread_barrier_t bar;

static void *parked(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar);   /* main works on us */
	pthread_barrier_wait(&bar);
	return NULL;
}

int main(void)
{
	pthread_t t;
	int policy;
	struct sched_param p;
	CHECK0(pthread_barrier_init(&bar, NULL, 2));
	CHECK0(pthread_create(&t, NULL, parked, NULL));
	pthread_barrier_wait(&bar);

	CHECK0(pthread_getschedparam(t, &policy, &p));
	CHECK(policy == SCHED_OTHER && p.sched_priority == 0);
	p.sched_priority = 0;
	CHECK0(pthread_setschedparam(t, SCHED_BATCH, &p));
	CHECK0(pthread_getschedparam(t, &policy, &p));
	CHECK(policy == SCHED_BATCH);
	CHECK_ERR(pthread_setschedparam(t, 12345, &p), EINVAL);
	p.sched_priority = 5;
	CHECK_ERR(pthread_setschedparam(t, SCHED_OTHER, &p), EINVAL);
	CHECK0(pthread_getschedparam(t, &policy, &p));
	CHECK(policy == SCHED_BATCH && p.sched_priority == 0);
	CHECK_ERR(pthread_setschedprio(t, 7), EINVAL);
	CHECK0(pthread_setschedprio(t, 0));
	p.sched_priority = 0;
	CHECK0(pthread_setschedparam(t, SCHED_OTHER, &p));
	if (getuid() == 0) {
		p.sched_priority = 3;
		int r = pthread_setschedparam(t, SCHED_FIFO, &p);
		if (r == 0) {
			CHECK0(pthread_getschedparam(t, &policy, &p));
			CHECK(policy == SCHED_FIFO && p.sched_priority == 3);
			CHECK0(pthread_setschedprio(t, 4));
			CHECK0(pthread_getschedparam(t, &policy, &p));
			CHECK(policy == SCHED_FIFO && p.sched_priority == 4);
			struct sched_param k;
			CHECK0(sched_getparam(0, &k));   /* main unaffected */
			CHECK(k.sched_priority == 0);
			p.sched_priority = 0;
			CHECK0(pthread_setschedparam(t, SCHED_OTHER, &p));
		}
	}

	/* Affinity, current and GLIBC_2.3.3 (no size) versions.  */
	cpu_set_t all, one, got;
	CHECK0(pthread_getaffinity_np(pthread_self(), sizeof(all), &all));
	int cpu = -1;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &all)) {
			cpu = i;
			break;
		}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	CHECK0(pthread_setaffinity_np(t, sizeof(one), &one));
	CHECK0(pthread_getaffinity_np(t, sizeof(got), &got));
	CHECK(CPU_EQUAL(&got, &one));
	CHECK0(old_setaffinity(t, &all));
	CHECK0(old_getaffinity(t, &got));
	CHECK(CPU_EQUAL(&got, &all));
	/* A larger buffer than the kernel's mask reads back zero-filled.  */
	size_t big = CPU_ALLOC_SIZE(8192);
	cpu_set_t *bs = CPU_ALLOC(8192);
	memset(bs, 0xff, big);
	CHECK0(pthread_getaffinity_np(t, big, bs));
	CHECK(!CPU_ISSET_S(8000, big, bs));
	CPU_FREE(bs);
	cpu_set_t none;
	CPU_ZERO(&none);
	CHECK_ERR(pthread_setaffinity_np(t, sizeof(none), &none), EINVAL);

	pthread_barrier_wait(&bar);
	CHECK0(pthread_join(t, NULL));

	CHECK(pthread_getconcurrency() == 0);
	CHECK0(pthread_setconcurrency(4));
	CHECK(pthread_getconcurrency() == 4);
	CHECK_ERR(pthread_setconcurrency(-1), EINVAL);
	CHECK(pthread_getconcurrency() == 4);
	CHECK0(pthread_setconcurrency(0));
	CHECK0(old_yield());

	/* Unprivileged real-time: EPERM, and the descriptor keeps the old
	 * values.  */
	pid_t pid = fork();
	if (pid == 0) {
		t_failures = 0;
		struct rlimit rl = { 0, 0 };
		setrlimit(RLIMIT_RTPRIO, &rl);
		if (getuid() == 0 && setresuid(65534, 65534, 65534) != 0)
			_exit(98);
		p.sched_priority = 1;
		CHECK_ERR(pthread_setschedparam(pthread_self(), SCHED_FIFO, &p), EPERM);
		CHECK0(pthread_getschedparam(pthread_self(), &policy, &p));
		CHECK(policy == SCHED_OTHER);
		_exit(t_done());
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pthread_barrier_destroy(&bar);
	return t_done();
}
