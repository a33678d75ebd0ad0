#!/bin/sh
# Refreshes console/www/vendor/ from the pinned npm packages (console/package.json and its lock
# file): `cd console && npm ci && ./vendor.sh`. The copies are committed, so building Floe never
# needs npm or the network. Only the files the console loads are copied, each package with its
# licence.
set -eu
cd "$(dirname "$0")"
out=www/vendor
rm -rf "$out"
mkdir -p "$out"
copy() { # package, then files or folders relative to it
    pkg=$1; shift
    mkdir -p "$out/$pkg"
    cp node_modules/"$pkg"/LICENSE "$out/$pkg/LICENSE.txt"
    for f in "$@"; do
        mkdir -p "$out/$pkg/$(dirname "$f")"
        cp -r node_modules/"$pkg"/"$f" "$out/$pkg/$f"
    done
}
copy hyparquet $(cd node_modules/hyparquet && ls src/*.js | grep -v 'src/node.js')
copy hyparquet-compressors $(cd node_modules/hyparquet-compressors && ls src/*.js)
copy hysnappy hysnappy.js
copy fzstd esm/index.mjs
copy icebird src/avro/avro.read.js src/avro/avro.metadata.js
copy uplot dist/uPlot.esm.js dist/uPlot.min.css

# The page may run no inline script (its Content-Security-Policy, runtime/console/route.c), so
# there is no import map: bare imports between the packages become relative paths here.
sed -i -e "s#from 'fzstd'#from '../../fzstd/esm/index.mjs'#" -e "s#from 'hysnappy'#from '../../hysnappy/hysnappy.js'#" \
    "$out"/hyparquet-compressors/src/*.js
sed -i -e "s#from 'hyparquet-compressors'#from '../../../hyparquet-compressors/src/index.js'#" \
    -e "s#from 'hyparquet/src/#from '../../../hyparquet/src/#" "$out"/icebird/src/avro/*.js
if grep -rnE "^(import|export) .*from '[^.]" "$out" --include=*.js --include=*.mjs; then
    echo "vendor.sh: a bare import is left (above); rewrite it to a relative path" >&2
    exit 1
fi
