# rollscope — build and test. `make test` is what CI runs.
GO ?= go
# Packages with goroutines of their own (the console's requests run in Bubble
# Tea commands beside Update): they also run under the race detector.
RACE_PKGS := ./engine/... ./kube/... ./ui/... ./cmd/...

# The end-to-end suite: its own module (test/e2e), a real control plane built
# from the Kubernetes and etcd Go modules into a cache outside the repository
# ($$XDG_CACHE_HOME/rollscope/controlplane), so only the first run builds it.
E2E_DIR := test/e2e

.PHONY: all build test vet fmt-check race unit e2e controlplane kubectl117 bench fuzz clean

all: build

build:
	$(GO) build -o bin/rollscope ./cmd/rollscope

test: fmt-check vet unit race e2e

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd $(E2E_DIR) && $(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

race:
	$(GO) test -count=1 -race $(RACE_PKGS)

# Builds (or finds cached) etcd, kube-apiserver, kube-controller-manager and
# kube-scheduler before the tests start, so the build is not counted against
# go test's timeout.
controlplane:
	cd $(E2E_DIR) && $(GO) run ./cmd/buildcp

# kubectl 1.17's rolling-update (test/kubectl117, its own module at the
# k8s.io v0.17.17 modules), which test/e2e/rcpeer runs beside rollscope's,
# built into $$XDG_CACHE_HOME/rollscope/kubectl117 before the tests start.
kubectl117:
	cd $(E2E_DIR) && $(GO) run ./cmd/buildkubectl117

# Three packages at a time: each waits mostly on its cluster's real time
# (pods becoming ready, update periods), not on the CPU — on 2 cores the load
# stays under 2.5 and the stage takes ~4 minutes instead of ~5.5.
e2e: controlplane kubectl117
	cd $(E2E_DIR) && $(GO) test -count=1 -p 3 -timeout 40m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./engine/scenario

clean:
	rm -rf bin
