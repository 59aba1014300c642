/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dlopen of a library that needs an executable stack while threads exist:
 * ld.so makes the stack of every thread executable (glibc 2.36; from 2.41
 * on dlopen refuses such a library instead, and then nothing may change).
 * Checked through /proc/self/maps and by running a trampoline on the stack:
 * the stacks of live threads at once, a stack that was cached when the
 * library came and is handed out again, and a new stack.
 */
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <unistd.h>
#include "t.h"

#define NLIVE 3
#define CACHED_STACK (256 * 1024)
#define NEW_STACK (384 * 1024)

static sem_t ready, go;
static int (*call)(int);

struct slot {
	void *addr;
	int exec;
	int result;
};

/* The permissions of the mapping holding p: 1 executable, 0 not, -1 none. */
static int exec_at(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		FATAL("cannot read /proc/self/maps");
	char line[512];
	int r = -1;
	while (fgets(line, sizeof line, f)) {
		uintptr_t lo, hi;
		char perm[5];
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perm) != 3)
			continue;
		if (lo <= (uintptr_t)p && (uintptr_t)p < hi) {
			r = perm[2] == 'x';
			break;
		}
	}
	fclose(f);
	return r;
}

static void *live(void *arg)
{
	struct slot *s = arg;
	int local = 0;
	s->addr = &local;
	sem_post(&ready);
	while (sem_wait(&go) != 0)
		;
	s->exec = exec_at(&local);
	s->result = call ? call(41) : -1;
	return NULL;
}

static struct slot run_one(size_t stack)
{
	struct slot s = { 0 };
	pthread_attr_t a;
	pthread_t t;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setstacksize(&a, stack));
	sem_post(&go);
	CHECK0(pthread_create(&t, &a, live, &s));
	while (sem_wait(&ready) != 0)
		;
	CHECK0(pthread_join(t, NULL));
	CHECK0(pthread_attr_destroy(&a));
	return s;
}

static void *open_module(const char *argv0)
{
	char path[PATH_MAX];
	const char *b = getenv("NPTL_TEST_BUILDDIR");
	if (b) {
		snprintf(path, sizeof path, "%s/tests/.libs/libexecstackmod.so", b);
	} else {
		snprintf(path, sizeof path, "%s", argv0);
		char *slash = strrchr(path, '/');
		snprintf(slash ? slash + 1 : path,
			 sizeof path - (size_t)(slash ? slash + 1 - path : 0),
			 ".libs/libexecstackmod.so");
	}
	if (access(path, R_OK) != 0)
		FATAL("%s not found (set NPTL_TEST_BUILDDIR)", path);
	return dlopen(path, RTLD_NOW);
}

int main(int argc, char **argv)
{
	(void)argc;
	int here = 0;
	if (exec_at(&here) != 0)
		SKIP("the main stack is executable already");
	CHECK0(sem_init(&ready, 0, 0));
	CHECK0(sem_init(&go, 0, 0));

	/* A stack that is in the cache when the library comes.  */
	struct slot cached = run_one(CACHED_STACK);
	CHECK(cached.exec == 0);

	struct slot s[NLIVE];
	pthread_t t[NLIVE];
	for (int i = 0; i < NLIVE; i++) {
		CHECK0(pthread_create(&t[i], NULL, live, &s[i]));
		while (sem_wait(&ready) != 0)
			;
		CHECK(exec_at(s[i].addr) == 0);
	}

	void *h = open_module(argv[0]);
	if (!h) {
		/* glibc >= 2.41 refuses the library; nothing may change.  */
		const char *e = dlerror();
		CHECK(e && strstr(e, "executable stack"));
		for (int i = 0; i < NLIVE; i++)
			CHECK(exec_at(s[i].addr) == 0);
		for (int i = 0; i < NLIVE; i++)
			sem_post(&go);
		for (int i = 0; i < NLIVE; i++) {
			CHECK0(pthread_join(t[i], NULL));
			CHECK(s[i].exec == 0);
		}
		fprintf(stderr, "dlopen refused the library (%s): stacks unchanged\n", e);
		return t_done();
	}
	call = (int (*)(int))dlsym(h, "execstackmod_call");
	CHECK(call != NULL);
	if (!call)
		return t_done();

	/* Live threads: executable at once, and they can run trampolines.  */
	for (int i = 0; i < NLIVE; i++)
		CHECK(exec_at(s[i].addr) == 1);
	for (int i = 0; i < NLIVE; i++)
		sem_post(&go);
	for (int i = 0; i < NLIVE; i++) {
		CHECK0(pthread_join(t[i], NULL));
		CHECK(s[i].exec == 1);
		CHECK(s[i].result == 42);
	}

	/* The cached stack, handed out again, and a new one.  */
	struct slot again = run_one(CACHED_STACK);
	CHECK(again.exec == 1);
	CHECK(again.result == 42);
	CHECK(exec_at(cached.addr) == 1);
	struct slot fresh = run_one(NEW_STACK);
	CHECK(fresh.exec == 1);
	CHECK(fresh.result == 42);
	return t_done();
}
