#!/bin/sh
# A compatibility-only interface has no default version: a new program that
# names pthread_kill_other_threads_np does not link, with libnptl as with
# glibc; the old binding (.symver @GLIBC_2.2.5) does (tests/compat-kill-other).
set -u
cc=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/new.c" <<'EOC'
extern void pthread_kill_other_threads_np(void);
int main(void) { pthread_kill_other_threads_np(); return 0; }
EOC
lib=.libs/libnptl.so.0
[ -f "$lib" ] || { echo "no $lib in $(pwd)"; exit 99; }
if $cc -o "$dir/new" "$dir/new.c" "$lib" -pthread > "$dir/log" 2>&1; then
	echo "FAIL: a new program linked against pthread_kill_other_threads_np"
	exit 1
fi
grep -q 'pthread_kill_other_threads_np' "$dir/log" || { cat "$dir/log"; exit 1; }
echo "pthread_kill_other_threads_np is not available to new links: ok"
exit 0
