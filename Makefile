# rollscope — build and test. `make test` is what CI runs.
GO ?= go
# Packages with goroutines of their own: they also run under the race detector.
RACE_PKGS := ./engine/... ./kube/... ./cmd/...

.PHONY: all build test vet fmt-check race unit bench fuzz clean

all: build

build:
	$(GO) build -o bin/rollscope ./cmd/rollscope

test: fmt-check vet unit race

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

race:
	$(GO) test -count=1 -race $(RACE_PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./engine/scenario

clean:
	rm -rf bin
