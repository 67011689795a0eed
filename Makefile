# toolgen's everyday commands. CI runs `make test` (see .ci/run).
GO ?= go
FUZZTIME ?= 5s
FUZZTIME_SHORT ?= 1s

.PHONY: test test-short test-modules demo generate check bench fuzz fuzz-short vet eval

# The README's test command: vet, generated code current, a short pass of
# every fuzz target, then every test with the race detector.
test: vet check fuzz-short
	$(GO) test -race ./...
	$(MAKE) test-modules

# The everyday loop while you work: every package's tests without the slow
# ones (the script, analyzer, process-tree, huge-output, sandbox, README,
# docs/ program and whole-data-set tests skip under -short, so do the cases
# that wait out Bash's one-second timeout, and the heap tests run at half
# size), no race detector, no fuzzing. `make test` runs everything.
test-short:
	$(GO) test -short ./...

# The nested modules that keep heavy peers out of go.mod: the provider
# formats checked against the official Anthropic, OpenAI and Gemini SDKs'
# types, the binder benchmarks' peers (every pipeline must reject invalid
# input) and the invopop/jsonschema differential, and the framework adapters
# (Eino, Genkit), and tooltrace's OTLP/HTTP export end to end; each but
# sdktest and bench also compiles the program of a docs/ page that needs its
# dependencies.
test-modules:
	cd runtime/provider/sdktest && $(GO) vet ./... && $(GO) test -race ./...
	cd gen_test/bench && $(GO) vet ./... && $(GO) test -race -run . ./...
	cd integrations/eino && $(GO) vet ./... && $(GO) test -race ./...
	cd integrations/genkit && $(GO) vet ./... && $(GO) test -race ./...
	cd runtime/tooltrace/otlptest && $(GO) vet ./... && $(GO) test -race ./...

vet: toolvet
	$(GO) vet ./...

# toolgen's own analyzers (cmd/toolvet) through go vet: closed hand-written
# schemas, no direct Execute calls, generated files current. The binary is
# built into a temporary directory and removed afterwards.
.PHONY: toolvet
toolvet:
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	$(GO) build -o "$$dir/toolvet" ./cmd/toolvet; \
	echo "go vet -vettool=toolvet ./..."; \
	$(GO) vet -vettool="$$dir/toolvet" ./...

# The main job: what the model sees for good and bad tool calls.
demo:
	$(GO) run ./examples/quickstart

# Regenerate every generated file in the repository.
generate:
	$(GO) generate ./...

# Fail when generated code is stale, missing or orphaned (part of `make test`).
check:
	$(GO) run ./cmd/toolgen -check -v ./...

# The binder and executor benchmarks against the Go peers, from one run, as
# one table (gen_test/bench is a module of its own: the peers stay out of
# go.mod). Each benchmark runs BENCHCOUNT times and the table shows the
# fastest run, the closest to a quiet machine's (see benchtable). Its tests
# run too: every pipeline must reject the invalid inputs.
BENCHCOUNT ?= 5
bench:
	cd gen_test/bench && $(GO) test -run=. -bench=. -benchmem -benchtime=500ms -count=$(BENCHCOUNT) . | $(GO) run ./benchtable

# Every fuzz target, one `go test -fuzz` each, for FUZZTIME each
# (FUZZTIME=2m make fuzz for longer). A crasher lands in the package's
# testdata/fuzz/<Target>/ and fails the run. See .ci/fuzz.sh.
fuzz:
	@GO="$(GO)" FUZZTIME="$(FUZZTIME)" bash .ci/fuzz.sh

# The short pass `make test` runs: every fuzz target for FUZZTIME_SHORT.
fuzz-short:
	@GO="$(GO)" FUZZTIME="$(FUZZTIME_SHORT)" bash .ci/fuzz.sh

# Tool-search ranking on the shared tool-retrieval set: recall@1/5/10 and MRR
# per strategy on each half of a fixed 2-fold split and on the whole set; the
# knobs beyond the default chosen on one half and measured on the other;
# ending with the default strategy's line.
DATA ?= ../shared/data/toolret
eval:
	$(GO) run ./cmd/tooleval -tools $(DATA)/tools.jsonl -queries $(DATA)/queries.jsonl

# The official MCP conformance suite (@modelcontextprotocol/conformance,
# installed with npm into a cache outside the tree; Node >= 22, from npm
# when the system's is older): every server scenario against the fixture
# server examples/conformance and against toolmcp, each held to its
# baseline in examples/conformance/testdata. See .ci/conformance.sh.
conformance:
	@GO="$(GO)" bash .ci/conformance.sh
