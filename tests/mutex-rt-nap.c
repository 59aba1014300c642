// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnptl only: concurrency restriction never sets a realtime thread
 * aside.  A SCHED_OTHER thread whose conflicts on a simple mutex or on a
 * rwlock's read side come close together naps (nanosleep) before it
 * queues; a SCHED_FIFO thread must stay queued instead, where the kernel
 * orders futex waiters by priority and POSIX lets the scheduling policy
 * pick who gets the released lock.  A probe thread takes a mutex and
 * read-locks a rwlock, over and over, against threads that hammer both;
 * a seccomp filter on the probe alone turns its nanosleep calls into
 * SIGSYS, which the handler counts (the nap is skipped, nothing else
 * changes).  The probe under SCHED_OTHER is the control: it must have
 * been made to nap (else this machine provokes no naps: skip); the same
 * probe under SCHED_FIFO must never nap.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "t.h"

#define HAMMERS 3
#define PROBE_LOOPS 200000
#define ROUNDS 20               /* control tries, to provoke naps at all */

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static volatile int stop;
static volatile long shared_work;
static int naps;                /* SIGSYS from the probe's nanosleep */

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_syscall == SYS_nanosleep)
		__atomic_add_fetch(&naps, 1, __ATOMIC_RELAXED);
}

static void *hammer(void *arg)
{
	for (unsigned long i = 0; !stop; i++) {
		pthread_mutex_lock(&m);
		shared_work++;
		pthread_mutex_unlock(&m);
		if (i % 4 == (unsigned long)(intptr_t)arg % 4) {
			pthread_rwlock_wrlock(&rw);
			shared_work++;
			pthread_rwlock_unlock(&rw);
		}
	}
	return NULL;
}

/* The calling thread's nanosleep raises SIGSYS instead (no_new_privs
 * lets an unprivileged thread install the filter).  */
static int trap_nanosleep(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_nanosleep, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

struct probe {
	int fifo;               /* run under SCHED_FIFO */
	int err;                /* setup failed: what to skip for */
};

static void *probe(void *arg)
{
	struct probe *p = arg;
	if (p->fifo) {
		struct sched_param sp = { .sched_priority = 1 };
		if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
			p->err = 1;
			return NULL;
		}
	}
	if (trap_nanosleep()) {
		p->err = 2;
		return NULL;
	}
	for (int i = 0; i < PROBE_LOOPS; i++) {
		pthread_mutex_lock(&m);
		shared_work++;
		pthread_mutex_unlock(&m);
	}
	for (int i = 0; i < PROBE_LOOPS; i++) {
		pthread_rwlock_rdlock(&rw);
		(void)shared_work;
		pthread_rwlock_unlock(&rw);
	}
	return NULL;
}

/* One round: the hammers and a probe; the probe's naps.  */
static int round_naps(int fifo)
{
	pthread_t h[HAMMERS], t;
	struct probe p = { fifo, 0 };
	stop = 0;
	__atomic_store_n(&naps, 0, __ATOMIC_RELAXED);
	for (int i = 0; i < HAMMERS; i++)
		CHECK0(pthread_create(&h[i], NULL, hammer, (void *)(intptr_t)i));
	CHECK0(pthread_create(&t, NULL, probe, &p));
	CHECK0(pthread_join(t, NULL));
	stop = 1;
	for (int i = 0; i < HAMMERS; i++)
		CHECK0(pthread_join(h[i], NULL));
	if (p.err == 1)
		SKIP("SCHED_FIFO refused (no CAP_SYS_NICE or RLIMIT_RTPRIO)");
	if (p.err == 2)
		SKIP("seccomp filter refused");
	return __atomic_load_n(&naps, __ATOMIC_RELAXED);
}

int main(void)
{
	if (!t_on_libnptl())
		SKIP("concurrency restriction is libnptl's");
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) || CPU_COUNT(&set) < 2)
		SKIP("one CPU: nobody spins or naps");
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };
	CHECK0(sigaction(SIGSYS, &sa, NULL));

	int control = 0;
	for (int r = 0; r < ROUNDS && !control; r++)
		control = round_naps(0);
	if (!control)
		SKIP("no nap provoked in %d rounds on this machine", ROUNDS);
	for (int r = 0; r < 3; r++) {
		int n = round_naps(1);
		if (n)
			fprintf(stderr, "a SCHED_FIFO thread napped %d times\n", n);
		CHECK(n == 0);
	}
	return t_done();
}
