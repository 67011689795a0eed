#!/usr/bin/env bash
# make conformance: runs the official MCP conformance suite
# (@modelcontextprotocol/conformance, from npm) against the fixture server
# examples/conformance and against toolmcp, every server scenario, and
# fails when a scenario fails that the baseline in
# examples/conformance/testdata/expected-failures-*.yaml does not list, or
# when a listed one passes (the baseline is then stale); then the client
# scenarios (all but OAuth's) against mcpbridge's client,
# examples/conformance/client, held to expected-failures-client.yaml.
#
# The suite is installed with npm into CONFORMANCE_CACHE (default: the
# user's cache directory, outside the work tree), once. It needs Node >= 22:
# the system's node when new enough, else the `node` package from npm in
# the same cache.
set -euo pipefail
GO=${GO:-go}
SUITE_VERSION=${CONFORMANCE_VERSION:-0.1.16}
NODE_VERSION=${CONFORMANCE_NODE:-22}
CACHE=${CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolgen-conformance}
cd "$(dirname "$0")/.."
repo=$PWD

command -v npm >/dev/null || { echo "conformance: npm is needed to install the suite (Debian: apt-get install npm)" >&2; exit 1; }
mkdir -p "$CACHE"
suite=$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js
if [ ! -f "$suite" ] || ! grep -q "\"version\": \"$SUITE_VERSION\"" "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json"; then
	echo "conformance: installing @modelcontextprotocol/conformance@$SUITE_VERSION into $CACHE"
	npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
fi
node=node
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 22 ]; then
	node=$CACHE/node_modules/.bin/node
	if [ ! -x "$node" ] || [ "$("$node" -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
		echo "conformance: the system's node is $(node --version 2>/dev/null || echo missing); installing node@$NODE_VERSION from npm into $CACHE"
		npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >&2
	fi
fi
echo "conformance: node $("$node" --version), suite $SUITE_VERSION"

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

# check NAME URL: every server scenario against URL, held to NAME's
# baseline. Prints the suite's summary; returns its status.
status=0
check() {
	local name=$1 url=$2
	echo
	echo "=== $name ($url) ==="
	local out=$work/$name.out
	if "$node" "$suite" server --url "$url" --suite all -o "$work/results-$name" \
		--expected-failures "$repo/examples/conformance/testdata/expected-failures-$name.yaml" >"$out" 2>&1; then
		sed -n '/=== SUMMARY ===/,$p' "$out"
	else
		sed -n '/=== SUMMARY ===/,$p' "$out"
		grep -q '=== SUMMARY ===' "$out" || cat "$out"
		echo "conformance: $name: FAILED (see above: a scenario failed that the baseline does not expect, or an expected failure now passes)"
		status=1
	fi
}

start fixture "$work/fixture" -http 127.0.0.1:0
check fixture "$url"
start toolmcp "$work/toolmcp" -root "$work/root" -sandbox off -http 127.0.0.1:0
check toolmcp "$url"

# The client scenarios (all but auth/*, which need OAuth) against
# mcpbridge's client.
echo
echo "=== mcpbridge client ==="
for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry; do
	out=$work/client-$scenario.out
	if "$node" "$suite" client --command "$work/client" --scenario "$scenario" -o "$work/results-client" \
		--expected-failures "$repo/examples/conformance/testdata/expected-failures-client.yaml" >"$out" 2>&1; then
		echo "ok   $scenario ($(grep -o 'Passed: [0-9]*/[0-9]*' "$out" | head -1 || echo expected failure))"
	else
		cat "$out"
		echo "conformance: client scenario $scenario: FAILED"
		status=1
	fi
done
exit $status
