#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The conformance tests built from the same sources against plain glibc
# (no libnptl), then run either as they are (mode "glibc": what passes tests
# POSIX and glibc's behaviour, not libnptl's quirks) or under
# LD_PRELOAD=libnptl.so.0 (mode "preload": libnptl taking over a program
# that was never linked with it).  A test needing extra compiler flags says
# so in a line "// test-cflags: ..." of its source.
# Usage: check-glibc.sh glibc|preload TEST...  (from the build directory;
# srcdir, CC, CXX, CFLAGS and abs_builddir come from make).
mode=$1; shift
case $mode in
glibc) preload=; NPTL_TEST_GLIBC=1; export NPTL_TEST_GLIBC ;;
preload) preload=$abs_builddir/.libs/libnptl.so.0 ;;
*) echo "usage: $0 glibc|preload TEST..." >&2; exit 2 ;;
esac
mkdir -p tests/glibc
pass=0; fail=0; skip=0; failed=
for t in "$@"; do
	src=$srcdir/$t.c; cc=$CC
	[ -f "$src" ] || { src=$srcdir/$t.cc; cc=$CXX; }
	extra=$(sed -n 's|^// test-cflags: ||p' "$src")
	out=tests/glibc/$(basename "$t")
	# Built once for both modes (make rebuilds when the source changed).
	if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
		# shellcheck disable=SC2086
		if ! $cc -D_GNU_SOURCE $CFLAGS -I"$srcdir/tests" $extra -o "$out" "$src" \
			-pthread -ldl > "$out.build.log" 2>&1; then
			echo "FAIL: $t (build against glibc: $out.build.log)"
			fail=$((fail + 1)); failed="$failed $t"; continue
		fi
	fi
	log=$out.$mode.log
	LD_PRELOAD=$preload "./$out" > "$log" 2>&1
	case $? in
	0) pass=$((pass + 1)); echo "PASS: $t ($mode)" ;;
	77) skip=$((skip + 1)); echo "SKIP: $t ($mode)" ;;
	*) fail=$((fail + 1)); failed="$failed $t"; echo "FAIL: $t ($mode, see $log)" ;;
	esac
done
echo "check-$mode: $pass passed, $fail failed, $skip skipped${failed:+:$failed}"
test $fail -eq 0
