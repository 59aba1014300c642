#!/bin/sh
# libnptl only: every offset src/glibc/descr.h states for glibc's struct
# pthread, every ld.so offset in src/glibc/builds.c and the place where the
# probe found glibc's cancellable-syscall stub (glibc 2.41 on) are the ones
# in the installed libc's debug information (package libc6-dbg, read by
# gdb), and the start-up probe accepts the installed build.
set -u
./tests/glibc-layout || exit 1
libc=/lib/x86_64-linux-gnu/libc.so.6
command -v gdb >/dev/null 2>&1 || { echo "SKIP: gdb not installed"; exit 77; }
gdb -batch -ex 'print sizeof(struct pthread)' "$libc" 2>/dev/null | grep -q '= ' ||
	{ echo "SKIP: no debug information for $libc (install libc6-dbg)"; exit 77; }
./tests/glibc-layout --offsets > layout.ours
set --
while read -r field off; do
	if [ "$field" = sizeof ]; then
		set -- "$@" -ex "print sizeof(struct pthread)"
	elif [ "${field#rtld:}" != "$field" ]; then
		set -- "$@" -ex "print (unsigned long)&((struct rtld_global *)0)->${field#rtld:}"
	elif [ "${field#libc:}" != "$field" ]; then
		set -- "$@" -ex "print (unsigned long)&${field#libc:}"
	else
		set -- "$@" -ex "print (unsigned long)&((struct pthread *)0)->$field"
	fi
done < layout.ours
gdb -batch "$@" "$libc" 2>&1 | sed -n 's/^\$[0-9]* = //p' > layout.gdb
paste -d ' ' layout.ours layout.gdb | {
	bad=0; n=0
	while read -r field ours theirs; do
		n=$((n + 1))
		if [ "$ours" != "$theirs" ]; then
			echo "MISMATCH: $field: descr.h says $ours, libc's debug info ${theirs:-has no such field}"
			bad=1
		fi
	done
	echo "$n offsets compared with $libc's debug information"
	exit $bad
}
