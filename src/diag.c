// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ground floor: what every other part of libnptl may call and which
 * calls nothing of libnptl's -- the diagnostics on stderr and the page
 * size.  src/glibc/ reports through these as much as src/thread/ does, so
 * they live here rather than with library start-up (src/thread/init.c),
 * which itself calls into src/glibc/.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nptl.h"

size_t __nptl_page_size;
int __nptl_verbose;

void __nptl_diag_init(void)
{
	const char *v = getenv("NPTL_VERBOSE");
	__nptl_verbose = v && *v && strcmp(v, "0") != 0;
	__nptl_page_size = (size_t)sysconf(_SC_PAGESIZE);
}

void __nptl_fatal(const char *msg)
{
	char buf[640];
	int n = snprintf(buf, sizeof(buf), "libnptl: fatal: %s\n", msg);
	if (n > 0)
		(void)!write(2, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	abort();
}

void __nptl_say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	char line[560];
	int m = snprintf(line, sizeof(line), "libnptl[%d]: %.*s", (int)getpid(), n, buf);
	if (m > 0)
		(void)!write(2, line, (size_t)m < sizeof(line) ? (size_t)m : sizeof(line) - 1);
}
