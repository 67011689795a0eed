#!/usr/bin/env bash
# make conformance: runs the official MCP conformance suite
# (@modelcontextprotocol/conformance, from npm), at each pinned version,
# against the fixture server examples/conformance and against toolmcp,
# every server scenario, and fails when a scenario fails that the baseline
# in examples/conformance/testdata/VERSION/expected-failures-*.yaml does
# not list, or when a listed one passes (the baseline is then stale); then
# the client scenarios (all but OAuth's) against mcpbridge's client,
# examples/conformance/client, held to expected-failures-client.yaml; then
# the official TypeScript SDK's client (the @modelcontextprotocol/sdk the
# suite depends on, from the suite's install) runs
# examples/conformance/tsclient/check.mjs against the fixture: the
# structured content of search_issues, whose Go function leaves slices and
# maps nil, must pass the client's own check against the output schema.
#
# Two versions are pinned: the newest release (0.1.16: revisions up to
# 2025-11-25) and the newest pre-release npm serves (0.2.0-alpha.12: adds
# 2026-07-28, served statelessly). CONFORMANCE_VERSIONS overrides the list.
#
# Each version is installed with npm into its own directory of
# CONFORMANCE_CACHE (default: the user's cache directory, outside the work
# tree), once. The suite needs Node >= 22: the system's node when new
# enough, else the `node` package from npm in the same cache.
set -euo pipefail
GO=${GO:-go}
SUITE_VERSIONS=${CONFORMANCE_VERSIONS:-0.1.16 0.2.0-alpha.12}
NODE_VERSION=${CONFORMANCE_NODE:-22}
CACHE=${CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolgen-conformance}
cd "$(dirname "$0")/.."
repo=$PWD

command -v npm >/dev/null || { echo "conformance: npm is needed to install the suite (Debian: apt-get install npm)" >&2; exit 1; }

# suite VERSION: installs the suite at VERSION (once) and sets suite and
# node to run it with.
suite() {
	local version=$1 dir=$CACHE/$1
	mkdir -p "$dir"
	suite=$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js
	if [ ! -f "$suite" ] || ! grep -q "\"version\": \"$version\"" "$dir/node_modules/@modelcontextprotocol/conformance/package.json"; then
		echo "conformance: installing @modelcontextprotocol/conformance@$version into $dir"
		npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$version" >&2
	fi
	node=node
	local major
	major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	if [ "$major" -lt 22 ]; then
		node=$dir/node_modules/.bin/node
		if [ ! -x "$node" ] || [ "$("$node" -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
			echo "conformance: the system's node is $(node --version 2>/dev/null || echo missing); installing node@$NODE_VERSION from npm into $dir"
			npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >&2
		fi
	fi
	echo "conformance: node $("$node" --version), suite $version"
}

work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
"$GO" build -o "$work/fixture" ./examples/conformance
"$GO" build -o "$work/toolmcp" ./cmd/toolmcp
"$GO" build -o "$work/client" ./examples/conformance/client
mkdir -p "$work/root"
echo "hello" >"$work/root/hello.txt"

# start NAME CMD...: starts a server on a free loopback port and sets url
# to the URL it logs.
start() {
	local name=$1
	shift
	"$@" 2>"$work/$name.log" &
	pids+=($!)
	for _ in $(seq 100); do
		url=$(grep -o 'url=http://[^ ]*' "$work/$name.log" | head -1 | cut -d= -f2 || true)
		[ -n "$url" ] && return 0
		kill -0 "${pids[-1]}" 2>/dev/null || break
		sleep 0.1
	done
	echo "conformance: $name did not start:" >&2
	cat "$work/$name.log" >&2
	exit 1
}

# check VERSION NAME URL: every server scenario of the suite at VERSION
# against URL, held to NAME's baseline for that version. Prints the
# suite's summary; returns its status.
status=0
check() {
	local version=$1 name=$2 url=$3
	echo
	echo "=== suite $version: $name ($url) ==="
	local out=$work/$version-$name.out
	if "$node" "$suite" server --url "$url" --suite all -o "$work/results-$version-$name" \
		--expected-failures "$repo/examples/conformance/testdata/$version/expected-failures-$name.yaml" >"$out" 2>&1; then
		sed -n '/=== SUMMARY ===/,$p' "$out"
	else
		sed -n '/=== SUMMARY ===/,$p' "$out"
		grep -q '=== SUMMARY ===' "$out" || cat "$out"
		echo "conformance: suite $version: $name: FAILED (see above: a scenario failed that the baseline does not expect, or an expected failure now passes)"
		status=1
	fi
}

# tsclient VERSION: examples/conformance/tsclient/check.mjs with the
# TypeScript SDK the suite at VERSION depends on (the script sits beside a
# link to the suite's node_modules, where Node's ESM resolution finds the
# SDK): the client validates search_issues' structured content against its
# output schema and throws on a mismatch.
tsclient() {
	local version=$1 dir=$work/tsclient-$1
	echo
	echo "=== suite $version: TypeScript SDK client, typed output ($fixture_url) ==="
	if [ ! -f "$CACHE/$version/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
		echo "conformance: suite $version installed no @modelcontextprotocol/sdk to run tsclient/check.mjs with: FAILED"
		status=1
		return
	fi
	mkdir -p "$dir"
	ln -sfn "$CACHE/$version/node_modules" "$dir/node_modules"
	cp "$repo/examples/conformance/tsclient/check.mjs" "$dir/check.mjs"
	if ! "$node" "$dir/check.mjs" "$fixture_url"; then
		echo "conformance: suite $version: TypeScript SDK client: FAILED"
		status=1
	fi
}

start fixture "$work/fixture" -http 127.0.0.1:0
fixture_url=$url
start toolmcp "$work/toolmcp" -root "$work/root" -sandbox off -http 127.0.0.1:0
toolmcp_url=$url

for version in $SUITE_VERSIONS; do
	suite "$version"
	check "$version" fixture "$fixture_url"
	check "$version" toolmcp "$toolmcp_url"

	# The client scenarios (all but auth/*, which need OAuth) against
	# mcpbridge's client.
	echo
	echo "=== suite $version: mcpbridge client ==="
	for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry; do
		out=$work/$version-client-$scenario.out
		if "$node" "$suite" client --command "$work/client" --scenario "$scenario" -o "$work/results-$version-client" \
			--expected-failures "$repo/examples/conformance/testdata/$version/expected-failures-client.yaml" >"$out" 2>&1; then
			echo "ok   $scenario ($(grep -o 'Passed: [0-9]*/[0-9]*' "$out" | head -1 || echo expected failure))"
		else
			cat "$out"
			echo "conformance: suite $version: client scenario $scenario: FAILED"
			status=1
		fi
	done

	tsclient "$version"
done
exit $status
