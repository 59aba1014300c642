// SPDX-License-Identifier: LGPL-2.1-or-later
/* The program tests/tools.sh runs under AddressSanitizer, ThreadSanitizer
   and gdb.  Usage: tools-prog clean|uaf|race
     clean: NTHREADS threads name themselves (pthread_setname_np), use
            malloc/free, a thread-local and a stack buffer, meet the main
            thread at a barrier; the main thread then calls all_alive()
            (gdb's breakpoint: every named thread is alive and waiting at a
            second barrier), and joins them.  Prints "tools-prog: ok".
     uaf:   as clean, then a thread reads a freed heap block
            (heap-use-after-free for ASan).
     race:  as clean, then two threads write one variable without
            synchronization (a data race for TSan).  */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 4

static pthread_barrier_t meet, leave;
static __thread char tls_buf[64];
static volatile long racy;
static char *volatile stale;

/* The main thread calls this once every worker is named and waiting.  */
void __attribute__ ((noinline)) all_alive (void);
void __attribute__ ((noinline))
all_alive (void)
{
  __asm__ volatile ("" ::: "memory");
}

static void *
worker (void *arg)
{
  long i = (long) arg;
  char name[16], stack_buf[128], got[16];
  snprintf (name, sizeof name, "tools-w%ld", i);
  if (pthread_setname_np (pthread_self (), name) != 0)
    abort ();
  if (pthread_getname_np (pthread_self (), got, sizeof got) != 0
      || strcmp (got, name) != 0)
    abort ();
  long sum = 0;
  for (int r = 0; r < 100; r++)
    {
      size_t n = 16 + (size_t) (r * 37 + i) % 4000;
      unsigned char *p = malloc (n);
      if (p == NULL)
        abort ();
      memset (p, (int) i, n);
      sum += p[n - 1];
      free (p);
    }
  snprintf (tls_buf, sizeof tls_buf, "tls %s %ld", name, sum);
  memset (stack_buf, 'x', sizeof stack_buf);
  stack_buf[sizeof stack_buf - 1] = '\0';
  if (strncmp (tls_buf, "tls tools-w", 11) != 0 || strlen (stack_buf) != 127)
    abort ();
  pthread_barrier_wait (&meet);
  pthread_barrier_wait (&leave);
  return NULL;
}

static void *
uaf_thread (void *arg)
{
  (void) arg;
  pthread_setname_np (pthread_self (), "tools-uaf");
  char *p = malloc (32);
  if (p == NULL)
    abort ();
  p[0] = 1;
  stale = p; /* through a volatile: no compile-time -Wuse-after-free */
  free (p);
  return (void *) (long) stale[5]; /* heap-use-after-free */
}

static void *
race_thread (void *arg)
{
  pthread_setname_np (pthread_self (), "tools-race");
  for (int r = 0; r < 1000; r++)
    racy = racy + (long) arg; /* unsynchronized on purpose */
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "clean";
  if (strcmp (mode, "clean") != 0 && strcmp (mode, "uaf") != 0
      && strcmp (mode, "race") != 0)
    {
      fprintf (stderr, "usage: %s clean|uaf|race\n", argv[0]);
      return 2;
    }
  pthread_t t[NTHREADS];
  pthread_barrier_init (&meet, NULL, NTHREADS + 1);
  pthread_barrier_init (&leave, NULL, NTHREADS + 1);
  for (long i = 0; i < NTHREADS; i++)
    {
      int err = pthread_create (&t[i], NULL, worker, (void *) i);
      if (err != 0)
        {
          printf ("tools-prog: pthread_create failed: %d (%s)\n", err,
                  strerror (err));
          return 1;
        }
    }
  pthread_barrier_wait (&meet);
  all_alive ();
  pthread_barrier_wait (&leave);
  for (int i = 0; i < NTHREADS; i++)
    if (pthread_join (t[i], NULL) != 0)
      {
        fprintf (stderr, "pthread_join failed\n");
        return 1;
      }
  pthread_barrier_destroy (&meet);
  pthread_barrier_destroy (&leave);

  if (strcmp (mode, "uaf") == 0)
    {
      pthread_t u;
      void *res;
      if (pthread_create (&u, NULL, uaf_thread, NULL) != 0
          || pthread_join (u, &res) != 0)
        return 1;
      printf ("tools-prog: uaf not caught (%p)\n", res);
    }
  else if (strcmp (mode, "race") == 0)
    {
      pthread_t a, b;
      if (pthread_create (&a, NULL, race_thread, (void *) 1L) != 0
          || pthread_create (&b, NULL, race_thread, (void *) 2L) != 0
          || pthread_join (a, NULL) != 0 || pthread_join (b, NULL) != 0)
        return 1;
      printf ("tools-prog: race ran (%ld)\n", racy);
    }
  printf ("tools-prog: ok\n");
  return 0;
}
