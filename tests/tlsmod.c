/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A module that tests/glibc-dlopen-tls dlopens: thread-local variables of
 * the general-dynamic model (initialized and zero) and one of the
 * initial-exec model, which ld.so must place in the static TLS of every
 * thread, including threads that already exist when it is loaded.
 * Built a second time with -DTLSMOD_NO_IE (libtlsmod-gd), all of them
 * general-dynamic: a module without initial-exec variables gets its TLS
 * blocks allocated lazily, per thread, through the DTV.
 */
#include <string.h>

__thread int tm_init = 42;
__thread long tm_zero;
__thread char tm_str[32] = "initial string";
#ifdef TLSMOD_NO_IE
#define IE
#else
#define IE __attribute__((tls_model("initial-exec")))
#endif
__thread long tm_ie IE = 7;
__thread int tm_ie_zero IE;

/* 0 when the calling thread sees every variable at its initial value.  */
int tlsmod_check_initial(void)
{
	int bad = 0;
	bad |= (tm_init != 42) << 0;
	bad |= (tm_zero != 0) << 1;
	bad |= (strcmp(tm_str, "initial string") != 0) << 2;
	bad |= (tm_ie != 7) << 3;
	bad |= (tm_ie_zero != 0) << 4;
	return bad;
}

void tlsmod_set(int v)
{
	tm_init = v;
	tm_zero = v * 3L;
	memset(tm_str, 0, sizeof tm_str);
	memset(tm_str, 'a' + v % 26, (size_t)(v % 31));
	tm_ie = v * 5L;
	tm_ie_zero = v + 1;
}

/* 0 when the calling thread still sees what tlsmod_set(v) stored.  */
int tlsmod_check(int v)
{
	int bad = 0;
	char want[32] = { 0 };
	memset(want, 'a' + v % 26, (size_t)(v % 31));
	bad |= (tm_init != v) << 0;
	bad |= (tm_zero != v * 3L) << 1;
	bad |= (memcmp(tm_str, want, sizeof want) != 0) << 2;
	bad |= (tm_ie != v * 5L) << 3;
	bad |= (tm_ie_zero != v + 1) << 4;
	return bad;
}

void *tlsmod_addr(int which)
{
	return which ? (void *)&tm_ie : (void *)&tm_init;
}
