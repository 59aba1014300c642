// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The older symbol versions of the attribute functions, bound explicitly:
 * GLIBC_2.3.3's affinity calls without a size (a 1024-CPU cpu_set_t),
 * GLIBC_2.3.4's with one, and the GLIBC_2.2.5/2.18 versions of functions
 * that moved into libc in 2.34.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include "t.h"

#define OLD(name, ver, alias) __asm__(".symver " #alias ", " #name "@" #ver)

int setaff_2_3_3(pthread_attr_t *a, cpu_set_t *set);
int getaff_2_3_3(const pthread_attr_t *a, cpu_set_t *set);
int setaff_2_3_4(pthread_attr_t *a, size_t size, const cpu_set_t *set);
int getaff_2_3_4(const pthread_attr_t *a, size_t size, cpu_set_t *set);
OLD(pthread_attr_setaffinity_np, GLIBC_2.3.3, setaff_2_3_3);
OLD(pthread_attr_getaffinity_np, GLIBC_2.3.3, getaff_2_3_3);
OLD(pthread_attr_setaffinity_np, GLIBC_2.3.4, setaff_2_3_4);
OLD(pthread_attr_getaffinity_np, GLIBC_2.3.4, getaff_2_3_4);

int setstacksize_2_2_5(pthread_attr_t *a, size_t s);
int getstacksize_2_2_5(const pthread_attr_t *a, size_t *s);
int setstack_2_2_5(pthread_attr_t *a, void *p, size_t s);
int getstack_2_2_5(const pthread_attr_t *a, void **p, size_t *s);
int setstackaddr_2_2_5(pthread_attr_t *a, void *p);
int getstackaddr_2_2_5(const pthread_attr_t *a, void **p);
int setguardsize_2_2_5(pthread_attr_t *a, size_t s);
int getguardsize_2_2_5(const pthread_attr_t *a, size_t *s);
int getattr_default_2_18(pthread_attr_t *a);
int setattr_default_2_18(const pthread_attr_t *a);
OLD(pthread_attr_setstacksize, GLIBC_2.2.5, setstacksize_2_2_5);
OLD(pthread_attr_getstacksize, GLIBC_2.2.5, getstacksize_2_2_5);
OLD(pthread_attr_setstack, GLIBC_2.2.5, setstack_2_2_5);
OLD(pthread_attr_getstack, GLIBC_2.2.5, getstack_2_2_5);
OLD(pthread_attr_setstackaddr, GLIBC_2.2.5, setstackaddr_2_2_5);
OLD(pthread_attr_getstackaddr, GLIBC_2.2.5, getstackaddr_2_2_5);
OLD(pthread_attr_setguardsize, GLIBC_2.2.5, setguardsize_2_2_5);
OLD(pthread_attr_getguardsize, GLIBC_2.2.5, getguardsize_2_2_5);
OLD(pthread_getattr_default_np, GLIBC_2.18, getattr_default_2_18);
OLD(pthread_setattr_default_np, GLIBC_2.18, setattr_default_2_18);

static void *where(void *arg)
{
	if (sched_getaffinity(0, sizeof(cpu_set_t), arg) != 0)
		CPU_ZERO((cpu_set_t *)arg);
	return NULL;
}

static void check_affinity_2_3_3(void)
{
	pthread_attr_t a;
	cpu_set_t set, got;
	unsigned char big[256], small[8];
	_Static_assert(sizeof(cpu_set_t) == 128, "1024-CPU cpu_set_t");

	CHECK0(pthread_attr_init(&a));
	memset(&got, 0, sizeof(got));
	CHECK0(getaff_2_3_3(&a, &got));
	CHECK(CPU_COUNT(&got) == CPU_SETSIZE);

	CPU_ZERO(&set);
	CPU_SET(2, &set);
	CPU_SET(1000, &set);
	CHECK0(setaff_2_3_3(&a, &set));
	CHECK0(getaff_2_3_3(&a, &got));
	CHECK(CPU_EQUAL(&set, &got));
	/* It stored 128 bytes: visible to the sized interfaces as such.  */
	memset(big, 0xaa, sizeof(big));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(big), (cpu_set_t *)big));
	CHECK(memcmp(big, &set, sizeof(set)) == 0);
	for (size_t i = sizeof(set); i < sizeof(big); i++)
		CHECK(big[i] == 0);
	CHECK_ERR(getaff_2_3_4(&a, sizeof(small), (cpu_set_t *)small), EINVAL);

	/* It reads 128 bytes: a CPU beyond 1023 does not fit.  */
	memset(big, 0, sizeof(big));
	big[200] = 1;   /* CPU 1600 */
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(big), (cpu_set_t *)big));
	CHECK_ERR(getaff_2_3_3(&a, &got), EINVAL);
	big[200] = 0;
	big[1] = 0x40;  /* CPU 14 */
	CHECK0(pthread_attr_setaffinity_np(&a, sizeof(big), (cpu_set_t *)big));
	CHECK0(getaff_2_3_3(&a, &got));
	CHECK(CPU_ISSET(14, &got) && CPU_COUNT(&got) == 1);
	CHECK0(pthread_attr_destroy(&a));

	/* A thread made with it runs there.  */
	cpu_set_t mine;
	CHECK0(sched_getaffinity(0, sizeof(mine), &mine) ? errno : 0);
	CPU_ZERO(&set);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &mine)) {
			CPU_SET(i, &set);
			break;
		}
	pthread_attr_t ta;
	pthread_t t;
	CHECK0(pthread_attr_init(&ta));
	CHECK0(setaff_2_3_3(&ta, &set));
	CHECK0(pthread_create(&t, &ta, where, &got));
	CHECK0(pthread_join(t, NULL));
	CHECK(CPU_EQUAL(&got, &set));
	CHECK0(pthread_attr_destroy(&ta));
}

static void check_affinity_2_3_4(void)
{
	pthread_attr_t a;
	cpu_set_t set, got;
	CHECK0(pthread_attr_init(&a));
	CPU_ZERO(&set);
	CPU_SET(7, &set);
	CHECK0(setaff_2_3_4(&a, sizeof(set), &set));
	CHECK0(getaff_2_3_4(&a, sizeof(got), &got));
	CHECK(CPU_EQUAL(&set, &got));
	CHECK0(pthread_attr_getaffinity_np(&a, sizeof(got), &got));
	CHECK(CPU_EQUAL(&set, &got));
	CHECK0(setaff_2_3_4(&a, 0, &set));
	CHECK0(getaff_2_3_4(&a, sizeof(got), &got));
	CHECK(CPU_COUNT(&got) == CPU_SETSIZE);
	CHECK0(pthread_attr_destroy(&a));
}

static void check_moved(void)
{
	pthread_attr_t a;
	size_t s;
	void *p;
	char *base = (char *)0x40000000;
	CHECK0(pthread_attr_init(&a));
	CHECK0(getstacksize_2_2_5(&a, &s));
	CHECK(s >= 16384);
	CHECK_ERR(setstacksize_2_2_5(&a, 16383), EINVAL);
	CHECK0(setstacksize_2_2_5(&a, 20000));
	CHECK0(getstacksize_2_2_5(&a, &s));
	CHECK(s == 20000);
	CHECK0(pthread_attr_getstacksize(&a, &s));
	CHECK(s == 20000);
	CHECK_ERR(setstack_2_2_5(&a, base, 100), EINVAL);
	CHECK0(setstack_2_2_5(&a, base, 65536));
	CHECK0(getstack_2_2_5(&a, &p, &s));
	CHECK(p == base && s == 65536);
	CHECK0(getstackaddr_2_2_5(&a, &p));
	CHECK(p == base + 65536);
	CHECK0(setstackaddr_2_2_5(&a, base));
	CHECK0(pthread_attr_getstack(&a, &p, &s));
	CHECK(p == base - 65536);
	CHECK0(setguardsize_2_2_5(&a, 777));
	CHECK0(getguardsize_2_2_5(&a, &s));
	CHECK(s == 777);
	/* A stack address is refused as a default by the old version too.  */
	CHECK_ERR(setattr_default_2_18(&a), EINVAL);
	CHECK0(pthread_attr_destroy(&a));

	size_t g;
	CHECK0(pthread_attr_init(&a));
	CHECK0(pthread_attr_setguardsize(&a, 3 * (size_t)sysconf(_SC_PAGESIZE)));
	CHECK0(setattr_default_2_18(&a));
	CHECK0(pthread_attr_destroy(&a));
	CHECK0(getattr_default_2_18(&a));
	CHECK0(pthread_attr_getguardsize(&a, &g));
	CHECK(g == 3 * (size_t)sysconf(_SC_PAGESIZE));
	CHECK0(pthread_attr_setguardsize(&a, (size_t)sysconf(_SC_PAGESIZE)));
	CHECK0(setattr_default_2_18(&a));
	CHECK0(pthread_attr_destroy(&a));
}

int main(void)
{
	check_affinity_2_3_3();
	check_affinity_2_3_4();
	check_moved();
	return t_done();
}
