/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Thread-local variables of a dlopen'ed module (tests/tlsmod.c):
 * general-dynamic ones (initialized and zero) and initial-exec ones
 * (libtlsmod.so: its whole TLS block goes into static TLS), or
 * general-dynamic ones only (libtlsmod-gd.so: allocated lazily).
 *  - threads that exist before the dlopen see the initial values, and
 *    their own copies, once it is loaded (ld.so initializes the
 *    initial-exec block in every thread it knows of);
 *  - threads created after the dlopen see the initial values;
 *  - each thread's values are its own;
 *  - after dlclose and a second dlopen, all of this holds again.
 * The module is found through $NPTL_TEST_BUILDDIR (set by `make check`)
 * or next to the program.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include "t.h"

#define NEARLY 4
#define NLATE 8
#define NGEN 4   /* two modules, each loaded twice */

static char path[PATH_MAX];
static void *h;
static int (*check_initial)(void);
static void (*set)(int);
static int (*check)(int);
static void *(*addr)(int);
static pthread_barrier_t bar;   /* NEARLY threads + main */

static int try_path(const char *dir, const char *rel)
{
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	return access(path, R_OK) == 0;
}

static void find_module(const char *argv0, const char *name)
{
	char rel[64];
	const char *b = getenv("NPTL_TEST_BUILDDIR");
	if (b) {
		snprintf(rel, sizeof rel, "tests/.libs/%s", name);
		if (try_path(b, rel))
			return;
		FATAL("NPTL_TEST_BUILDDIR=%s but no %s there", b, rel);
	}
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", argv0);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	snprintf(rel, sizeof rel, ".libs/%s", name);
	if (try_path(dir, rel) || try_path(dir, rel + 6))
		return;
	snprintf(rel, sizeof rel, "tests/.libs/%s", name);
	if (try_path(dir, rel))
		return;
	SKIP("%s not found (set NPTL_TEST_BUILDDIR)", name);
}

static void load(void)
{
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		FATAL("dlopen %s: %s", path, dlerror());
	check_initial = (int (*)(void))dlsym(h, "tlsmod_check_initial");
	set = (void (*)(int))dlsym(h, "tlsmod_set");
	check = (int (*)(int))dlsym(h, "tlsmod_check");
	addr = (void *(*)(int))dlsym(h, "tlsmod_addr");
	if (!check_initial || !set || !check || !addr)
		FATAL("dlsym: %s", dlerror());
}

/* A thread of a generation: initial values, then its own.  */
static int own_values(int v, pthread_barrier_t *b, void **a0, void **a1)
{
	int bad = 0;
	int r = check_initial();
	if (r) {
		fprintf(stderr, "thread %d: initial values wrong (mask %#x)\n", v, r);
		bad++;
	}
	set(v);
	pthread_barrier_wait(b);   /* every thread has stored its values */
	r = check(v);
	if (r) {
		fprintf(stderr, "thread %d: values changed (mask %#x)\n", v, r);
		bad++;
	}
	*a0 = addr(0);
	*a1 = addr(1);
	return bad;
}

static void *early_addr[NGEN][NEARLY][2];

static void *early(void *arg)
{
	int t = (int)(intptr_t)arg;
	long bad = 0;
	for (int gen = 0; gen < NGEN; gen++) {
		pthread_barrier_wait(&bar);   /* main has (re)loaded the module */
		bad += own_values(100 * (gen + 1) + t, &bar, &early_addr[gen][t][0],
				  &early_addr[gen][t][1]);
		pthread_barrier_wait(&bar);   /* main has run the late threads */
		bad += check(100 * (gen + 1) + t) != 0;
		pthread_barrier_wait(&bar);   /* main may dlclose now */
	}
	return (void *)bad;
}

static pthread_barrier_t late_bar;
static void *late_addr[NLATE][2];

static void *late(void *arg)
{
	int t = (int)(intptr_t)arg;
	return (void *)(long)own_values(1000 + t, &late_bar, &late_addr[t][0],
					&late_addr[t][1]);
}

static void distinct(void *a[][2], int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			CHECK(a[i][0] != a[j][0]);
			CHECK(a[i][1] != a[j][1]);
		}
}

static void run_late(void)
{
	pthread_t th[NLATE];
	pthread_barrier_init(&late_bar, NULL, NLATE);
	for (int t = 0; t < NLATE; t++)
		CHECK0(pthread_create(&th[t], NULL, late, (void *)(intptr_t)t));
	for (int t = 0; t < NLATE; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&late_bar);
	distinct(late_addr, NLATE);
	/* Once more, on descriptors that may be recycled: fresh values.  */
	pthread_barrier_init(&late_bar, NULL, NLATE);
	for (int t = 0; t < NLATE; t++)
		CHECK0(pthread_create(&th[t], NULL, late, (void *)(intptr_t)t));
	for (int t = 0; t < NLATE; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&late_bar);
}

int main(int argc, char **argv)
{
	(void)argc;
	static const char *const mods[2] = { "libtlsmod.so", "libtlsmod-gd.so" };
	pthread_barrier_init(&bar, NULL, NEARLY + 1);
	pthread_t th[NEARLY];
	for (int t = 0; t < NEARLY; t++)
		CHECK0(pthread_create(&th[t], NULL, early, (void *)(intptr_t)t));
	for (int gen = 0; gen < NGEN; gen++) {
		/* The early threads exist and wait; load the module.  */
		find_module(argv[0], mods[gen / 2]);
		usleep(20000);
		load();
		pthread_barrier_wait(&bar);
		void *ma[2];
		CHECK(own_values(7 + gen, &bar, &ma[0], &ma[1]) == 0);
		CHECK(check(7 + gen) == 0);
		run_late();
		CHECK(check(7 + gen) == 0);
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		distinct(early_addr[gen], NEARLY);
		for (int i = 0; i < NEARLY; i++)
			for (int j = 0; j < NLATE; j++)
				CHECK(early_addr[gen][i][0] != late_addr[j][0] &&
				      early_addr[gen][i][1] != late_addr[j][1]);
		CHECK(dlclose(h) == 0);
		CHECK(dlopen(path, RTLD_NOW | RTLD_NOLOAD) == NULL);
	}
	for (int t = 0; t < NEARLY; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&bar);
	return t_done();
}
