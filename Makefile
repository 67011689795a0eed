# toolgen's everyday commands. CI runs `make test` (see .ci/run).
GO ?= go
FUZZTIME ?= 10s

.PHONY: test demo generate check bench fuzz vet eval

# The README's test command: vet, generated code current, then every test
# with the race detector.
test: vet check
	$(GO) test -race ./...

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

# Benchmarks, side by side, with allocations.
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

# Every fuzz target for FUZZTIME each (FUZZTIME=2m make fuzz for longer).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list='^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$target"; \
			$(GO) test -run='^$$' -fuzz="^$$target$$" -fuzztime=$(FUZZTIME) $$pkg; \
		done; \
	done

# Tool-search ranking on the shared tool-retrieval set: recall@1/5/10 and MRR
# per strategy, ending with the default strategy's line.
DATA ?= ../shared/data/toolret
eval:
	$(GO) run ./cmd/tooleval -tools $(DATA)/tools.jsonl -queries $(DATA)/queries.jsonl
