// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Explicit scheduling and affinity attributes are in force before the new
 * thread runs its first instruction of user code, and a refusal (EPERM) is
 * pthread_create's result, with nothing left behind.
 */
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"

struct seen {
	int policy;
	struct sched_param param;
	cpu_set_t cpus;
};

static void *report(void *arg)
{
	struct seen *s = arg;
	s->policy = sched_getscheduler(0);
	sched_getparam(0, &s->param);
	sched_getaffinity(0, sizeof(s->cpus), &s->cpus);
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_attr_t a;
	pthread_t t;
	struct seen s;

	/* Affinity: the thread starts on the one CPU it was given.  */
	cpu_set_t all, one;
	CHECK0(sched_getaffinity(0, sizeof(all), &all));
	int cpu = -1;
	for (int i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &all))
			cpu = i;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(one), &one));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(CPU_EQUAL(&s.cpus, &one));
	CHECK0(pthread_attr_destroy(&a));

	/* Explicit SCHED_OTHER from a SCHED_BATCH creator: the thread does
	 * not inherit BATCH.  Inherited: it does.  */
	struct sched_param p0 = { 0 };
	CHECK0(sched_setscheduler(0, SCHED_BATCH, &p0));
	CHECK0(pthread_create(&t, NULL, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.policy == SCHED_BATCH);
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED));
	CHECK0(pthread_attr_setschedpolicy(&a, SCHED_OTHER));
	CHECK0(pthread_attr_setschedparam(&a, &p0));
	CHECK0(pthread_create(&t, &a, report, &s));
	CHECK0(pthread_join(t, NULL));
	CHECK(s.policy == SCHED_OTHER);
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(sched_setscheduler(0, SCHED_OTHER, &p0));

	/* Real-time: as root it is applied; without privilege it is EPERM
	 * from pthread_create, and creation keeps working afterwards.  */
	pid_t pid = fork();
	if (pid == 0) {
		t_failures = 0;
		struct rlimit rl = { 0, 0 };
		setrlimit(RLIMIT_RTPRIO, &rl);
		if (getuid() == 0 && setresuid(65534, 65534, 65534) != 0)
			_exit(98);
		CHECK0(pthread_attr_init(&a));
		CHECK0(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED));
		CHECK0(pthread_attr_setschedpolicy(&a, SCHED_FIFO));
		struct sched_param p = { .sched_priority = 1 };
		CHECK0(pthread_attr_setschedparam(&a, &p));
		for (int i = 0; i < 50; i++)
			CHECK_ERR(pthread_create(&t, &a, report, &s), EPERM);
		CHECK0(pthread_attr_destroy(&a));
		for (int i = 0; i < 50; i++) {
			CHECK0(pthread_create(&t, NULL, nothing, NULL));
			CHECK0(pthread_join(t, NULL));
		}
		_exit(t_done());
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	if (getuid() == 0) {
		CHECK0(pthread_attr_init(&a));
		CHECK0(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED));
		CHECK0(pthread_attr_setschedpolicy(&a, SCHED_FIFO));
		struct sched_param p = { .sched_priority = 1 };
		CHECK0(pthread_attr_setschedparam(&a, &p));
		int r = pthread_create(&t, &a, report, &s);
		if (r == EPERM) {
			fprintf(stderr, "note: SCHED_FIFO refused even to root here\n");
		} else {
			CHECK0(r);
			CHECK0(pthread_join(t, NULL));
			CHECK(s.policy == SCHED_FIFO);
			CHECK(s.param.sched_priority == 1);
		}
		CHECK0(pthread_attr_destroy(&a));
	}
	return t_done();
}
