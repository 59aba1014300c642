/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * glibc's stdio from many threads at once.  glibc skips stdio locking while
 * it believes the process single-threaded, so torn lines, lost or
 * duplicated bytes here mean the threads did not switch it into
 * multi-threaded mode.
 *  - fprintf/fputs/printf of distinctive lines from 8 threads into one
 *    FILE: every line intact, every thread's lines all there, in order;
 *  - putc from 5 threads x N bytes into one FILE: exactly 5N bytes, N of
 *    each thread's byte;
 *  - getc from 4 threads on one FILE: together they read each byte once.
 */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include "t.h"

#define NT 8
#define LINES 3000
#define PUTC_T 5
#define PUTC_N 400000
#define GETC_T 4
#define GETC_SIZE (2 * 1024 * 1024)

static pthread_barrier_t bar;
static FILE *out;
static int use_stdout;

/* Line i of thread t: its length varies (up to well over 200 bytes, so
 * that lines straddle buffer boundaries) and its body repeats a letter
 * that belongs to t.  */
static int make_line(char *buf, int t, int i)
{
	int len = (i * 37 + t * 11) % 230;
	int n = sprintf(buf, "T%d L%05d ", t, i);
	memset(buf + n, 'a' + t, len);
	n += len;
	n += sprintf(buf + n, " E%d\n", t);
	return n;
}

static void *writer(void *arg)
{
	int t = (int)(intptr_t)arg;
	char line[400];
	pthread_barrier_wait(&bar);
	for (int i = 0; i < LINES; i++) {
		make_line(line, t, i);
		if (use_stdout) {
			if (i % 2)
				printf("%s", line);
			else
				fputs(line, stdout);
		} else if (i % 3 == 0) {
			int len = (i * 37 + t * 11) % 230;
			fprintf(out, "T%d L%05d %.*s E%d\n", t, i, len,
				line + strlen(line) - len - 4, t);
		} else if (i % 3 == 1) {
			fputs(line, out);
		} else {
			fwrite(line, 1, strlen(line), out);
		}
	}
	return NULL;
}

static void check_lines(FILE *f, const char *what)
{
	int next[NT] = { 0 };
	char line[1024], want[400];
	int bad = 0, total = 0;
	rewind(f);
	while (fgets(line, sizeof line, f)) {
		int t, i;
		total++;
		if (sscanf(line, "T%d L%d ", &t, &i) != 2 || t < 0 || t >= NT ||
		    i != next[t]) {
			if (bad++ < 5)
				fprintf(stderr, "%s: bad line %d: %.60s\n", what,
					total, line);
			continue;
		}
		make_line(want, t, i);
		if (strcmp(line, want) != 0) {
			if (bad++ < 5)
				fprintf(stderr, "%s: torn line %d: %.60s\n", what,
					total, line);
		}
		next[t]++;
	}
	CHECK(bad == 0);
	CHECK(total == NT * LINES);
	for (int t = 0; t < NT; t++)
		CHECK(next[t] == LINES);
}

static void run_writers(void)
{
	pthread_t th[NT];
	pthread_barrier_init(&bar, NULL, NT);
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_create(&th[t], NULL, writer, (void *)(intptr_t)t));
	for (int t = 0; t < NT; t++)
		CHECK0(pthread_join(th[t], NULL));
	pthread_barrier_destroy(&bar);
}

static void test_lines(void)
{
	/* fprintf, fputs, fwrite on one FILE.  */
	out = tmpfile();
	if (!out)
		FATAL("tmpfile: %s", strerror(errno));
	/* A small buffer: more flushes inside the threads' calls.  */
	static char small[512];
	setvbuf(out, small, _IOFBF, sizeof small);
	run_writers();
	CHECK(fflush(out) == 0);
	check_lines(out, "fprintf/fputs");
	fclose(out);

	/* printf and fputs on stdout, redirected into a file.  */
	FILE *f = tmpfile();
	if (!f)
		FATAL("tmpfile: %s", strerror(errno));
	fflush(stdout);
	int saved = dup(1);
	CHECK(saved >= 0);
	CHECK(dup2(fileno(f), 1) == 1);
	use_stdout = 1;
	run_writers();
	use_stdout = 0;
	CHECK(fflush(stdout) == 0);
	CHECK(dup2(saved, 1) == 1);
	close(saved);
	check_lines(f, "printf/stdout");
	fclose(f);
}

static void *putter(void *arg)
{
	int c = 'A' + (int)(intptr_t)arg;
	pthread_barrier_wait(&bar);
	for (int i = 0; i < PUTC_N; i++)
		if (putc(c, out) == EOF)
			return (void *)1;
	return NULL;
}

static void test_putc(void)
{
	pthread_t th[PUTC_T];
	out = tmpfile();
	if (!out)
		FATAL("tmpfile: %s", strerror(errno));
	pthread_barrier_init(&bar, NULL, PUTC_T);
	for (int t = 0; t < PUTC_T; t++)
		CHECK0(pthread_create(&th[t], NULL, putter, (void *)(intptr_t)t));
	for (int t = 0; t < PUTC_T; t++) {
		void *r;
		CHECK0(pthread_join(th[t], &r));
		CHECK(r == NULL);
	}
	pthread_barrier_destroy(&bar);
	CHECK(fflush(out) == 0);
	CHECK(ftell(out) == (long)PUTC_T * PUTC_N);
	rewind(out);
	long count[256] = { 0 }, total = 0;
	int c;
	while ((c = getc(out)) != EOF) {
		count[c]++;
		total++;
	}
	CHECK(total == (long)PUTC_T * PUTC_N);
	for (int t = 0; t < PUTC_T; t++)
		CHECK(count['A' + t] == PUTC_N);
	fclose(out);
}

static long got[GETC_T][256];

static void *getter(void *arg)
{
	long *h = got[(intptr_t)arg];
	int c;
	pthread_barrier_wait(&bar);
	while ((c = getc(out)) != EOF)
		h[c]++;
	return NULL;
}

static void test_getc(void)
{
	long want[256] = { 0 };
	pthread_t th[GETC_T];
	out = tmpfile();
	if (!out)
		FATAL("tmpfile: %s", strerror(errno));
	uint32_t x = 12345;
	for (long i = 0; i < GETC_SIZE; i++) {
		x = x * 1103515245 + 12345;
		int c = (x >> 16) & 0xff;
		want[c]++;
		putc(c, out);
	}
	CHECK(fflush(out) == 0);
	rewind(out);
	pthread_barrier_init(&bar, NULL, GETC_T);
	for (int t = 0; t < GETC_T; t++)
		CHECK0(pthread_create(&th[t], NULL, getter, (void *)(intptr_t)t));
	for (int t = 0; t < GETC_T; t++)
		CHECK0(pthread_join(th[t], NULL));
	pthread_barrier_destroy(&bar);
	long total = 0;
	int bad = 0;
	for (int c = 0; c < 256; c++) {
		long s = 0;
		for (int t = 0; t < GETC_T; t++)
			s += got[t][c];
		total += s;
		bad += s != want[c];
	}
	CHECK(total == GETC_SIZE);
	CHECK(bad == 0);
	CHECK(feof(out));
	fclose(out);
}

int main(void)
{
	test_lines();
	test_putc();
	test_getc();
	return t_done();
}
