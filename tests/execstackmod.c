/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A module that needs an executable stack (linked with -z execstack), for
 * tests/execstack: it calls a GNU C nested function through a pointer,
 * which makes the compiler build a trampoline on the caller's stack.  Run on
 * a stack that is not executable, it crashes.
 */
int execstackmod_call(int x);

int execstackmod_call(int x)
{
	int add(int y)
	{
		return x + y;
	}
	int (*volatile f)(int) = add;
	return f(1);
}
