/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Read-write locks: every call and error code, both kinds (and glibc's
 * static initializers for them), writer preference of the nonrecursive
 * kind under a reader stream, wake-up of all blocked readers, timed and
 * clock variants on both clocks, EAGAIN after 2^28 read locks (the
 * argument "quick" skips that); a process whose address space is
 * exhausted before its first read lock still read- and write-locks.  */
#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

/* glibc's GLIBC_2.2.5 __pthread_rwlock_* names are compat symbols: old
 * binaries bind them, new links cannot, so look them up by version.  */
static void *compat(const char *name)
{
	void *p = dlvsym(RTLD_DEFAULT, name, "GLIBC_2.2.5");
	if (!p)
		FATAL("no %s@GLIBC_2.2.5", name);
	return p;
}

static double now(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct timespec in_ms(clockid_t c, long ms)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	ts.tv_nsec += ms % 1000 * 1000000;
	ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

static void attrs(void)
{
	pthread_rwlockattr_t a;
	int v;
	CHECK0(pthread_rwlockattr_init(&a));
	CHECK0(pthread_rwlockattr_getkind_np(&a, &v));
	CHECK(v == PTHREAD_RWLOCK_PREFER_READER_NP);
	CHECK0(pthread_rwlockattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	CHECK0(pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NP));
	CHECK0(pthread_rwlockattr_getkind_np(&a, &v));
	CHECK(v == PTHREAD_RWLOCK_PREFER_WRITER_NP);
	CHECK0(pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP));
	CHECK0(pthread_rwlockattr_getkind_np(&a, &v));
	CHECK(v == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	CHECK_ERR(pthread_rwlockattr_setkind_np(&a, 3), EINVAL);
	CHECK_ERR(pthread_rwlockattr_setkind_np(&a, -1), EINVAL);
	CHECK0(pthread_rwlockattr_getkind_np(&a, &v));
	CHECK(v == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	CHECK0(pthread_rwlockattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	CHECK0(pthread_rwlockattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	CHECK_ERR(pthread_rwlockattr_setpshared(&a, 7), EINVAL);
	CHECK0(pthread_rwlockattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	/* A process-shared lock works within one process too.  */
	pthread_rwlock_t l;
	CHECK0(pthread_rwlock_init(&l, &a));
	CHECK0(pthread_rwlock_wrlock(&l));
	CHECK0(pthread_rwlock_unlock(&l));
	CHECK0(pthread_rwlock_rdlock(&l));
	CHECK0(pthread_rwlock_unlock(&l));
	CHECK0(pthread_rwlock_destroy(&l));
	CHECK0(pthread_rwlockattr_destroy(&a));
}

/* Single-threaded semantics and error codes of one lock.  */
static void basics(pthread_rwlock_t *l)
{
	struct timespec bad = { 0, 1000000000 }, neg = { 0, -1 };
	struct timespec past = { 0, 0 };

	CHECK0(pthread_rwlock_rdlock(l));
	CHECK0(pthread_rwlock_rdlock(l));
	CHECK0(pthread_rwlock_tryrdlock(l));
	CHECK_ERR(pthread_rwlock_trywrlock(l), EBUSY);
	CHECK_ERR(pthread_rwlock_timedwrlock(l, &past), ETIMEDOUT);
	CHECK_ERR(pthread_rwlock_clockwrlock(l, CLOCK_MONOTONIC, &past), ETIMEDOUT);
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_rwlock_unlock(l));

	CHECK0(pthread_rwlock_wrlock(l));
	CHECK_ERR(pthread_rwlock_tryrdlock(l), EBUSY);
	CHECK_ERR(pthread_rwlock_trywrlock(l), EBUSY);
	CHECK_ERR(pthread_rwlock_rdlock(l), EDEADLK);
	CHECK_ERR(pthread_rwlock_wrlock(l), EDEADLK);
	struct timespec later = in_ms(CLOCK_REALTIME, 10);
	CHECK_ERR(pthread_rwlock_timedrdlock(l, &later), EDEADLK);
	CHECK_ERR(pthread_rwlock_timedwrlock(l, &later), EDEADLK);
	/* glibc 2.36 checks the timeout before anything else.  */
	CHECK_ERR(pthread_rwlock_timedwrlock(l, &bad), EINVAL);
	CHECK_ERR(pthread_rwlock_clockrdlock(l, CLOCK_MONOTONIC, &neg), EINVAL);
	CHECK0(pthread_rwlock_unlock(l));

	/* Timed and clock variants on a free lock.  */
	later = in_ms(CLOCK_REALTIME, 1000);
	CHECK0(pthread_rwlock_timedrdlock(l, &later));
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_rwlock_timedwrlock(l, &later));
	CHECK0(pthread_rwlock_unlock(l));
	later = in_ms(CLOCK_MONOTONIC, 1000);
	CHECK0(pthread_rwlock_clockrdlock(l, CLOCK_MONOTONIC, &later));
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_rwlock_clockwrlock(l, CLOCK_MONOTONIC, &later));
	CHECK0(pthread_rwlock_unlock(l));
	later = in_ms(CLOCK_REALTIME, 1000);
	CHECK0(pthread_rwlock_clockwrlock(l, CLOCK_REALTIME, &later));
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_rwlock_clockrdlock(l, CLOCK_REALTIME, &later));
	CHECK0(pthread_rwlock_unlock(l));
	CHECK_ERR(pthread_rwlock_clockrdlock(l, CLOCK_PROCESS_CPUTIME_ID, &later), EINVAL);
	CHECK_ERR(pthread_rwlock_clockwrlock(l, CLOCK_THREAD_CPUTIME_ID, &later), EINVAL);
	CHECK_ERR(pthread_rwlock_timedrdlock(l, &bad), EINVAL);
}

/* A thread holding the lock in some mode for the timed tests.  */
struct holder {
	pthread_rwlock_t *l;
	int write;
	pthread_barrier_t go, stop;
};

static void *hold(void *arg)
{
	struct holder *h = arg;
	CHECK0(h->write ? pthread_rwlock_wrlock(h->l) : pthread_rwlock_rdlock(h->l));
	pthread_barrier_wait(&h->go);
	pthread_barrier_wait(&h->stop);
	CHECK0(pthread_rwlock_unlock(h->l));
	return NULL;
}

static void start_holder(struct holder *h, pthread_t *t, pthread_rwlock_t *l, int write)
{
	h->l = l;
	h->write = write;
	pthread_barrier_init(&h->go, NULL, 2);
	pthread_barrier_init(&h->stop, NULL, 2);
	CHECK0(pthread_create(t, NULL, hold, h));
	pthread_barrier_wait(&h->go);
}

static void stop_holder(struct holder *h, pthread_t t)
{
	pthread_barrier_wait(&h->stop);
	CHECK0(pthread_join(t, NULL));
	pthread_barrier_destroy(&h->go);
	pthread_barrier_destroy(&h->stop);
}

static void timeouts(pthread_rwlock_t *l)
{
	struct holder h;
	pthread_t t;
	struct timespec ts, past = { 0, 0 }, neg = { -1, 0 };

	start_holder(&h, &t, l, 1);
	/* Not our write lock: no EDEADLK, just busy.  */
	CHECK_ERR(pthread_rwlock_tryrdlock(l), EBUSY);
	CHECK_ERR(pthread_rwlock_trywrlock(l), EBUSY);
	double t0 = now(CLOCK_MONOTONIC);
	ts = in_ms(CLOCK_REALTIME, 50);
	CHECK_ERR(pthread_rwlock_timedrdlock(l, &ts), ETIMEDOUT);
	ts = in_ms(CLOCK_REALTIME, 50);
	CHECK_ERR(pthread_rwlock_timedwrlock(l, &ts), ETIMEDOUT);
	ts = in_ms(CLOCK_MONOTONIC, 50);
	CHECK_ERR(pthread_rwlock_clockrdlock(l, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
	ts = in_ms(CLOCK_MONOTONIC, 50);
	CHECK_ERR(pthread_rwlock_clockwrlock(l, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
	ts = in_ms(CLOCK_REALTIME, 50);
	CHECK_ERR(pthread_rwlock_clockrdlock(l, CLOCK_REALTIME, &ts), ETIMEDOUT);
	ts = in_ms(CLOCK_REALTIME, 50);
	CHECK_ERR(pthread_rwlock_clockwrlock(l, CLOCK_REALTIME, &ts), ETIMEDOUT);
	double dt = now(CLOCK_MONOTONIC) - t0;
	CHECK(dt >= 0.29 && dt < 3);
	CHECK_ERR(pthread_rwlock_timedrdlock(l, &past), ETIMEDOUT);
	CHECK_ERR(pthread_rwlock_timedwrlock(l, &neg), ETIMEDOUT);
	CHECK_ERR(pthread_rwlock_clockrdlock(l, CLOCK_MONOTONIC, &neg), ETIMEDOUT);
	stop_holder(&h, t);

	/* Read-held: readers get in (timed too), writers time out.  */
	start_holder(&h, &t, l, 0);
	ts = in_ms(CLOCK_MONOTONIC, 30);
	CHECK0(pthread_rwlock_clockrdlock(l, CLOCK_MONOTONIC, &ts));
	CHECK0(pthread_rwlock_unlock(l));
	CHECK_ERR(pthread_rwlock_clockwrlock(l, CLOCK_MONOTONIC, &ts), ETIMEDOUT);
	/* After a writer timed out, readers are not held back.  */
	CHECK0(pthread_rwlock_tryrdlock(l));
	CHECK0(pthread_rwlock_unlock(l));
	stop_holder(&h, t);
	/* And the lock is free again.  */
	CHECK0(pthread_rwlock_trywrlock(l));
	CHECK0(pthread_rwlock_unlock(l));
}

/* Blocked readers are all woken by the writer's unlock and hold the lock
 * together; a blocked writer gets it after the readers.  */
#define NR 3
static pthread_rwlock_t wl;
static pthread_barrier_t inside;
static int readers_in, max_readers_in;
static volatile pid_t blocked_tid[NR + 1];     /* for t_wait_asleep */

static void *blocked_reader(void *arg)
{
	blocked_tid[(intptr_t)arg] = t_tid();
	CHECK0(pthread_rwlock_rdlock(&wl));
	int n = __atomic_add_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
	int m = __atomic_load_n(&max_readers_in, __ATOMIC_SEQ_CST);
	while (n > m && !__atomic_compare_exchange_n(&max_readers_in, &m, n, 0,
						     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	pthread_barrier_wait(&inside);  /* all NR readers inside at once */
	__atomic_sub_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
	CHECK0(pthread_rwlock_unlock(&wl));
	return NULL;
}

static void *blocked_writer(void *arg)
{
	(void)arg;
	blocked_tid[NR] = t_tid();
	CHECK0(pthread_rwlock_wrlock(&wl));
	CHECK(__atomic_load_n(&readers_in, __ATOMIC_SEQ_CST) == 0);
	CHECK0(pthread_rwlock_unlock(&wl));
	return NULL;
}

static void wake_all(int kind)
{
	pthread_rwlockattr_t a;
	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(&a, kind);
	CHECK0(pthread_rwlock_init(&wl, &a));
	pthread_barrier_init(&inside, NULL, NR);
	readers_in = max_readers_in = 0;
	CHECK0(pthread_rwlock_wrlock(&wl));
	pthread_t r[NR], w;
	memset((void *)blocked_tid, 0, sizeof blocked_tid);
	for (int i = 0; i < NR; i++)
		CHECK0(pthread_create(&r[i], NULL, blocked_reader,
				      (void *)(intptr_t)i));
	CHECK0(pthread_create(&w, NULL, blocked_writer, NULL));
	/* All of them blocked before the unlock: a reader still on its way
	 * could queue behind the writer (writer preference) while the others
	 * wait for it at the barrier.  */
	for (int i = 0; i <= NR; i++)
		t_wait_asleep(&blocked_tid[i]);
	CHECK(readers_in == 0);
	CHECK0(pthread_rwlock_unlock(&wl));
	for (int i = 0; i < NR; i++)
		CHECK0(pthread_join(r[i], NULL));
	CHECK0(pthread_join(w, NULL));
	CHECK(max_readers_in == NR);
	pthread_barrier_destroy(&inside);
	CHECK0(pthread_rwlock_destroy(&wl));
}

/* Writer preference: a stream of overlapping readers keeps the lock
 * read-held all the time; a writer must still get in, and once it waits,
 * new readers are turned away.  */
static pthread_rwlock_t sl;
static volatile int stream_stop;

static void *stream_reader(void *arg)
{
	(void)arg;
	while (!stream_stop) {
		if (pthread_rwlock_rdlock(&sl) != 0)
			continue;
		usleep(200);
		CHECK0(pthread_rwlock_unlock(&sl));
	}
	return NULL;
}

struct wparm {
	pthread_rwlock_t *l;
	int got;
	volatile pid_t tid;     /* for t_wait_asleep */
};

static void *waiting_writer(void *arg)
{
	struct wparm *p = arg;
	struct timespec ts = in_ms(CLOCK_MONOTONIC, 10000);
	p->tid = t_tid();
	CHECK0(pthread_rwlock_clockwrlock(p->l, CLOCK_MONOTONIC, &ts));
	__atomic_store_n(&p->got, 1, __ATOMIC_SEQ_CST);
	usleep(1000);
	CHECK0(pthread_rwlock_unlock(p->l));
	return NULL;
}

static void writer_preference(pthread_rwlock_t *l)
{
	/* A writer queued behind a reader blocks new readers.  */
	CHECK0(pthread_rwlock_rdlock(l));
	struct wparm p = { l, 0, 0 };
	pthread_t w;
	CHECK0(pthread_create(&w, NULL, waiting_writer, &p));
	t_wait_asleep(&p.tid);  /* queued, however slow its start */
	int busy = 0;
	struct holder h;
	(void)h;
	for (int i = 0; i < 2000 && !busy; i++) {
		/* tryrdlock from this thread: we hold a read lock already,
		 * which glibc does not track, so it is a fair probe.  */
		int r = pthread_rwlock_tryrdlock(l);
		if (r == 0) {
			CHECK0(pthread_rwlock_unlock(l));
			usleep(1000);
		} else {
			CHECK_ERR(r, EBUSY);
			busy = 1;
		}
	}
	CHECK(busy);
	CHECK(!p.got);
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_join(w, NULL));
	CHECK(p.got);

	/* A writer is not starved by an endless stream of readers.  */
	sl = *l;
	stream_stop = 0;
	pthread_t r[3];
	for (int i = 0; i < 3; i++)
		CHECK0(pthread_create(&r[i], NULL, stream_reader, NULL));
	usleep(10000);
	for (int k = 0; k < 5; k++) {
		struct wparm q = { &sl, 0, 0 };
		double t0 = now(CLOCK_MONOTONIC);
		CHECK0(pthread_create(&w, NULL, waiting_writer, &q));
		CHECK0(pthread_join(w, NULL));
		CHECK(q.got);
		CHECK(now(CLOCK_MONOTONIC) - t0 < 2);
	}
	stream_stop = 1;
	for (int i = 0; i < 3; i++)
		CHECK0(pthread_join(r[i], NULL));
}

/* Reader preference (the default): readers get in while a writer waits. */
static void reader_preference(pthread_rwlock_t *l)
{
	CHECK0(pthread_rwlock_rdlock(l));
	struct wparm p = { l, 0, 0 };
	pthread_t w;
	CHECK0(pthread_create(&w, NULL, waiting_writer, &p));
	t_wait_asleep(&p.tid);  /* the writer waits: readers still get in */
	for (int i = 0; i < 10; i++) {
		CHECK0(pthread_rwlock_tryrdlock(l));
		CHECK0(pthread_rwlock_unlock(l));
		struct timespec ts = in_ms(CLOCK_REALTIME, 100);
		CHECK0(pthread_rwlock_timedrdlock(l, &ts));
		CHECK0(pthread_rwlock_unlock(l));
	}
	CHECK(!p.got);
	CHECK0(pthread_rwlock_unlock(l));
	CHECK0(pthread_join(w, NULL));
	CHECK(p.got);
}

static void overflow(void)
{
	pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
	long n = 0;
	int r;
	while ((r = pthread_rwlock_tryrdlock(&l)) == 0 && n < (1L << 30))
		n++;
	CHECK_ERR(r, EAGAIN);
	CHECK(n >= (1L << 20));
	CHECK_ERR(pthread_rwlock_rdlock(&l), EAGAIN);
	CHECK_ERR(pthread_rwlock_trywrlock(&l), EBUSY);
	for (long i = 0; i < n; i++)
		pthread_rwlock_unlock(&l);
	CHECK0(pthread_rwlock_trywrlock(&l));
	CHECK0(pthread_rwlock_unlock(&l));
}

/* First thing in a child: no new mapping can be made (RLIMIT_AS at what
 * is mapped), and no read lock was ever taken in this process.  Nothing
 * a read-write lock does may need memory it has not got.  */
static void no_memory_first(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 0, 0 };
		if (setrlimit(RLIMIT_AS, &rl))
			_exit(2);
		pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
		struct timespec ts = { time(NULL) + 5, 0 };
		int bad = 0;
		for (int i = 0; i < 100; i++) {
			bad += pthread_rwlock_rdlock(&l) != 0;
			bad += pthread_rwlock_tryrdlock(&l) != 0;
			bad += pthread_rwlock_timedrdlock(&l, &ts) != 0;
			bad += pthread_rwlock_trywrlock(&l) != EBUSY;
			for (int k = 0; k < 3; k++)
				bad += pthread_rwlock_unlock(&l) != 0;
			bad += pthread_rwlock_wrlock(&l) != 0;
			bad += pthread_rwlock_tryrdlock(&l) != EBUSY;
			bad += pthread_rwlock_unlock(&l) != 0;
		}
		_exit(bad ? 1 : 0);
	}
	int st;
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(int argc, char **argv)
{
	no_memory_first();
	attrs();

	pthread_rwlock_t def = PTHREAD_RWLOCK_INITIALIZER;
	pthread_rwlock_t wnr = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
	pthread_rwlock_t l;
	pthread_rwlockattr_t a;

	basics(&def);
	basics(&wnr);
	CHECK0(pthread_rwlock_init(&l, NULL));
	basics(&l);
	timeouts(&l);
	timeouts(&wnr);
	CHECK0(pthread_rwlock_destroy(&l));

	CHECK0(pthread_rwlockattr_init(&a));
	CHECK0(pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP));
	CHECK0(pthread_rwlock_init(&l, &a));
	basics(&l);
	writer_preference(&l);
	CHECK0(pthread_rwlock_destroy(&l));
	writer_preference(&wnr);

	reader_preference(&def);
	CHECK0(pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NP));
	CHECK0(pthread_rwlock_init(&l, &a));
	reader_preference(&l);     /* glibc treats PREFER_WRITER_NP so */
	CHECK0(pthread_rwlock_destroy(&l));
	CHECK0(pthread_rwlockattr_destroy(&a));

	wake_all(PTHREAD_RWLOCK_PREFER_READER_NP);
	wake_all(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);

	/* glibc's GLIBC_2.2.5 __pthread_rwlock_* names.  */
	int (*__pthread_rwlock_init)(pthread_rwlock_t *, const pthread_rwlockattr_t *) =
		compat("__pthread_rwlock_init");
	int (*__pthread_rwlock_destroy)(pthread_rwlock_t *) = compat("__pthread_rwlock_destroy");
	int (*__pthread_rwlock_rdlock)(pthread_rwlock_t *) = compat("__pthread_rwlock_rdlock");
	int (*__pthread_rwlock_tryrdlock)(pthread_rwlock_t *) = compat("__pthread_rwlock_tryrdlock");
	int (*__pthread_rwlock_wrlock)(pthread_rwlock_t *) = compat("__pthread_rwlock_wrlock");
	int (*__pthread_rwlock_trywrlock)(pthread_rwlock_t *) = compat("__pthread_rwlock_trywrlock");
	int (*__pthread_rwlock_unlock)(pthread_rwlock_t *) = compat("__pthread_rwlock_unlock");
	CHECK0(__pthread_rwlock_init(&l, NULL));
	CHECK0(__pthread_rwlock_rdlock(&l));
	CHECK0(__pthread_rwlock_tryrdlock(&l));
	CHECK_ERR(__pthread_rwlock_trywrlock(&l), EBUSY);
	CHECK0(__pthread_rwlock_unlock(&l));
	CHECK0(__pthread_rwlock_unlock(&l));
	CHECK0(__pthread_rwlock_wrlock(&l));
	CHECK_ERR(__pthread_rwlock_tryrdlock(&l), EBUSY);
	CHECK0(__pthread_rwlock_unlock(&l));
	CHECK0(__pthread_rwlock_destroy(&l));

	/* libnptl answers EPERM where glibc corrupts the lock.  */
	if (t_on_libnptl()) {
		CHECK0(pthread_rwlock_init(&l, NULL));
		CHECK_ERR(pthread_rwlock_unlock(&l), EPERM);
		CHECK0(pthread_rwlock_rdlock(&l));
		CHECK0(pthread_rwlock_unlock(&l));
		CHECK_ERR(pthread_rwlock_unlock(&l), EPERM);
		CHECK0(pthread_rwlock_trywrlock(&l));
		CHECK0(pthread_rwlock_destroy(&l));
	}

	/* 2^28 read locks, about 3 s; "quick" skips it.  */
	if (!(argc > 1 && !strcmp(argv[1], "quick")))
		overflow();
	return t_done();
}
