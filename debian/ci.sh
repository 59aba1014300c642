#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# CI, after the test suite: build the Debian packages from a copy of the
# tree (the checkout is left untouched), run lintian on them, install them
# and run the autopkgtest against the installed packages.
#   debian/ci.sh            # needs root (apt-get); the result is in $work
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
export DEBIAN_FRONTEND=noninteractive

tools=(dpkg-dev debhelper lintian git)
missing=()
for p in "${tools[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

version=$(dpkg-parsechangelog -l debian/changelog -S Version)
upstream=${version%-*}
work=$(mktemp -d /tmp/libnptl-deb.XXXXXX)
src=$work/libnptl-$upstream
mkdir "$src"

# The source tree as git sees it: tracked and new files, nothing ignored
# (no build directories, no generated configure).
git -C "$top" ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar -C "$top" --null -T - -cf - | tar -C "$src" -xf -
echo "ci.sh: building libnptl $version in $src"

cd "$src"
apt-get build-dep -y -qq ./
DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b

cd "$work"
changes=$(ls libnptl_"${version}"_*.changes)
echo "ci.sh: lintian $changes"
lintian --fail-on error,warning --display-info "$changes"

apt-get install -y -qq --reinstall ./libnptl0_"${version}"_*.deb \
	./libnptl-dev_"${version}"_*.deb ./libnptl_"${version}"_*.deb

# autopkgtest's test, run directly against the installed packages; install
# its Depends first.
apt-get install -y -qq --no-install-recommends build-essential pkgconf man-db manpages
AUTOPKGTEST_TMP=$(mktemp -d) "$src/debian/tests/build-and-bind"
AUTOPKGTEST_TMP=$(mktemp -d) "$src/debian/tests/man-names"

echo "ci.sh: packages built, lintian clean, installed, autopkgtest passed ($work)"
