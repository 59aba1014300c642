/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-thread state inside glibc, from many threads at once:
 *  - errno: each thread makes a failing call that sets its own errno
 *    value, waits until every other thread has done the same, and finds
 *    its own value still there;
 *  - strerror and strsignal of unknown numbers (formatted into glibc's
 *    per-thread buffer) and of known ones, strerror_l; dlerror's message
 *    is the calling thread's own;
 *  - ctype (isalpha, isdigit, toupper, tolower) over all bytes;
 *  - uselocale in one thread changes neither another running thread nor
 *    the next thread created (which may reuse the first's descriptor).
 */
#include <ctype.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include "t.h"

#define NT 8
#define ROUNDS 300

static pthread_barrier_t bar;

/* Failing calls, each with the errno it must give.  */
static int fail_call(int k)
{
	switch (k) {
	case 0:
		close(-1);
		return EBADF;
	case 1:
		open("/nonexistent-libnptl-test/x", O_RDONLY);
		return ENOENT;
	case 2:
		open("/dev/null/x", O_RDONLY);
		return ENOTDIR;
	case 3:
		mkdir("/", 0);
		return EEXIST;
	case 4:
		strtol("99999999999999999999999999", NULL, 10);
		return ERANGE;
	case 5:
		lseek(-1, 0, SEEK_SET);
		return EBADF;
	case 6:
		open("/", O_WRONLY);
		return EISDIR;
	default:
		errno = 12345;   /* a value no call gives */
		return 12345;
	}
}

static void *errno_thread(void *arg)
{
	int t = (int)(intptr_t)arg;
	long bad = 0;
	for (int r = 0; r < ROUNDS; r++) {
		errno = 0;
		int want = fail_call((t + r) % NT);
		pthread_barrier_wait(&bar);   /* all others have set theirs */
		if (errno != want)
			bad++;
		pthread_barrier_wait(&bar);
	}
	return (void *)bad;
}

static void test_errno(void)
{
	pthread_t th[NT];
	pthread_barrier_init(&bar, NULL, NT);
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_create(&th[t], NULL, errno_thread, (void *)(intptr_t)t));
	for (int t = 0; t < NT; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&bar);
	/* Our own errno is not touched by a thread's.  */
	pthread_barrier_init(&bar, NULL, 1);   /* a barrier of one: no wait */
	errno = 77;
	pthread_t t;
	void *r;
	int err = pthread_create(&t, NULL, errno_thread, (void *)0);
	CHECK(errno == 77);
	CHECK0(err);
	err = pthread_join(t, &r);
	CHECK(errno == 77);
	CHECK0(err);
	CHECK(r == NULL);
	pthread_barrier_destroy(&bar);
	CHECK(errno == 77);
}

static locale_t c_loc, utf8_loc;

static void *string_thread(void *arg)
{
	int t = (int)(intptr_t)arg;
	long bad = 0;
	char want_err[64], want_sig[64];
	snprintf(want_err, sizeof want_err, "Unknown error %d", 100000 + t);
	int rt = SIGRTMIN + 1 + t % 4;
	snprintf(want_sig, sizeof want_sig, "Real-time signal %d", rt - SIGRTMIN);
	pthread_barrier_wait(&bar);
	char lib[64];
	snprintf(lib, sizeof lib, "/nonexistent-dir/libnothing-%d.so", t);
	for (int r = 0; r < 2000; r++) {
		if (r % 20 == 0) {
			/* dlerror: one message per thread, read once.  */
			if (dlopen(lib, RTLD_NOW) != NULL)
				bad++;
			sched_yield();
			const char *m = dlerror();
			if (!m || !strstr(m, lib))
				bad++;
			if (dlerror() != NULL)
				bad++;
		}
		/* Unknown numbers are formatted into a per-thread buffer: the
		 * string must survive the other threads' calls.  */
		const char *e = strerror(100000 + t);
		const char *s = strsignal(rt);
		sched_yield();
		if (strcmp(e, want_err) != 0)
			bad++;
		if (strcmp(s, want_sig) != 0)
			bad++;
		if (strcmp(strerror(EBADF), "Bad file descriptor") != 0)
			bad++;
		if (strcmp(strerror_l(ENOENT, c_loc),
			   "No such file or directory") != 0)
			bad++;
		if (strcmp(strsignal(SIGSEGV), "Segmentation fault") != 0)
			bad++;
		/* Thread-safe variants too.  */
		char buf[64];
		if (strcmp(strerror_r(EINVAL, buf, sizeof buf),
			   "Invalid argument") != 0)
			bad++;
	}
	return (void *)bad;
}

static void test_strings(void)
{
	pthread_t th[NT];
	pthread_barrier_init(&bar, NULL, NT);
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_create(&th[t], NULL, string_thread, (void *)(intptr_t)t));
	for (int t = 0; t < NT; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&bar);
}

static void *ctype_thread(void *arg)
{
	(void)arg;
	long bad = 0;
	for (int r = 0; r < 200; r++) {
		for (int c = 0; c < 256; c++) {
			int lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z';
			if (!!isalpha(c) != (lower || upper))
				bad++;
			if (!!isdigit(c) != (c >= '0' && c <= '9'))
				bad++;
			if (toupper(c) != (lower ? c - 32 : c))
				bad++;
			if (tolower(c) != (upper ? c + 32 : c))
				bad++;
		}
		if (!isspace(' ') || isspace('x') || isalpha(EOF))
			bad++;
	}
	return (void *)bad;
}

static void test_ctype(void)
{
	pthread_t th[NT];
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_create(&th[t], NULL, ctype_thread, NULL));
	for (int t = 0; t < NT; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
}

/* The global locale is "C": one byte per character, ASCII.  */
static int in_c_locale(void)
{
	return uselocale(NULL) == LC_GLOBAL_LOCALE && MB_CUR_MAX == 1 &&
	       strcmp(nl_langinfo(CODESET), "ANSI_X3.4-1968") == 0 &&
	       isalpha('a') && toupper('q') == 'Q';
}

static int in_utf8_locale(void)
{
	wchar_t w = 0;
	mbstate_t st = { 0 };
	return uselocale(NULL) == utf8_loc && MB_CUR_MAX == 6 &&
	       strcmp(nl_langinfo(CODESET), "UTF-8") == 0 &&
	       mbrtowc(&w, "\xc3\xa9", 2, &st) == 2 && w == 0xe9 &&
	       isalpha('a') && toupper('q') == 'Q';
}

static void *switcher(void *arg)
{
	(void)arg;
	long bad = !in_c_locale();
	locale_t old = uselocale(utf8_loc);
	bad += old != LC_GLOBAL_LOCALE;
	bad += !in_utf8_locale();
	pthread_barrier_wait(&bar);   /* the observer checks now */
	pthread_barrier_wait(&bar);
	bad += !in_utf8_locale();
	/* Exit still using utf8_loc.  */
	return (void *)bad;
}

static void *observer(void *arg)
{
	(void)arg;
	long bad = !in_c_locale();
	pthread_barrier_wait(&bar);
	bad += !in_c_locale();
	pthread_barrier_wait(&bar);
	return (void *)bad;
}

static void *fresh(void *arg)
{
	(void)arg;
	return (void *)(long)!in_c_locale();
}

static void test_uselocale(void)
{
	if (!utf8_loc) {
		fprintf(stderr, "no C.UTF-8 locale: uselocale part skipped\n");
		return;
	}
	pthread_barrier_init(&bar, NULL, 2);
	for (int round = 0; round < 20; round++) {
		pthread_t a, b, c[4];
		void *ra, *rb;
		CHECK0(pthread_create(&a, NULL, switcher, NULL));
		CHECK0(pthread_create(&b, NULL, observer, NULL));
		CHECK0(pthread_join(a, &ra));
		CHECK0(pthread_join(b, &rb));
		CHECK(ra == NULL);
		CHECK(rb == NULL);
		CHECK(in_c_locale());
		/* The next threads (on recycled descriptors, in libnptl)
		 * start in the global locale.  */
		for (int i = 0; i < 4; i++)
			CHECK0(pthread_create(&c[i], NULL, fresh, NULL));
		for (int i = 0; i < 4; i++) {
			void *r;
			CHECK0(pthread_join(c[i], &r));
			CHECK(r == NULL);
		}
	}
	pthread_barrier_destroy(&bar);
}

int main(void)
{
	c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!c_loc)
		FATAL("newlocale C: %s", strerror(errno));
	utf8_loc = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
	CHECK(in_c_locale());
	test_errno();
	test_strings();
	test_ctype();
	test_uselocale();
	CHECK(in_c_locale());
	if (utf8_loc)
		freelocale(utf8_loc);
	freelocale(c_loc);
	return t_done();
}
