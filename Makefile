# rollscope — build and test. `make test` is what CI runs.
GO ?= go
# Every go command below builds with -trimpath: the build cache is then keyed
# by the sources, not the checkout's directory, so a fresh clone in a new
# directory (as CI makes) reuses what the last one compiled instead of
# compiling every rollscope package again in each stage (model and engine
# alone: 44–65 s against 1.5 s). Stack traces name module paths.
export GOFLAGS += -trimpath
# Packages with goroutines of their own or in their tests (the console's
# requests run in Bubble Tea commands beside Update, internal/ wires the
# watches and controllers, model/cluster is read by several at once): they
# also run under the race detector (internal/buildinfo checks that every
# package with a go statement is here). ui's pages, panes and dialogs are
# called from Update alone: under -race they only linked fifteen binaries
# again (29 s). cmd's tests run the built binary in tmux, which -race does
# not reach: under it they only ran the same 6½ minutes of real-time waits.
RACE_PKGS := ./engine/... ./kube/... ./internal/... ./model/cluster ./ui ./ui/draw ./ui/plain ./ui/terminal ./ui/overlays/logs ./ui/pages/workload

# The end-to-end suite: its own module (test/e2e), a real control plane built
# from the Kubernetes and etcd Go modules into a cache outside the repository
# ($$XDG_CACHE_HOME/rollscope/controlplane), so only the first run builds it.
E2E_DIR := test/e2e

.PHONY: all build test vet fmt-check race unit e2e controlplane kubectl117 argo bench fuzz clean release release-check

all: build

build:
	$(GO) build -o bin/rollscope ./cmd/rollscope

test: fmt-check vet unit race release-check e2e

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd $(E2E_DIR) && $(GO) vet ./...

# Test binaries are linked without DWARF (-ldflags=-w): a third less of the
# linker's CPU, which was CI's largest single cost before the end-to-end
# stage (173 CPU-seconds for ~130 binaries); stack traces and the race
# detector's reports keep their files and lines. A debugger wants
# `go test -c` without it.
TEST_FLAGS := -count=1 -ldflags=-w

# Four packages at a time, cmd's tmux tests three at a time: cmd's package
# waits on real time for about three minutes, and with two slots it held
# one of them while every other package queued for the other (5½ min).
unit:
	$(GO) test $(TEST_FLAGS) -p 4 -parallel 3 ./...

# The detector slows the rehearsal-heavy packages (engine/perform forecasts
# every built-in scenario) past go test's 10-minute default on a loaded
# machine; the bound only stops a hung run.
race:
	$(GO) test $(TEST_FLAGS) -race -p 4 -timeout 30m $(RACE_PKGS)

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

# Argo Rollouts' controller (test/argo, its own module at Argo's pinned
# k8s.io v0.34 modules) and its CRDs, which test/e2e/argo runs on the test
# control plane, built into $$XDG_CACHE_HOME/rollscope/argo-rollouts-<version>
# before the tests start.
argo:
	cd $(E2E_DIR) && $(GO) run ./cmd/buildargo

# Five packages at a time: each waits mostly on its cluster's real time
# (pods becoming ready, update periods) more than on the CPU — one alone
# (canary) uses a sixth of the two cores. At three the stage took 13 min
# 52 s; at five 10 min 13 s, its 16½ CPU-minutes keeping the cores four
# fifths busy (6 Dec 2026). go test starts packages in the order
# named: the longest first (Argo's 7 minutes, the recorder's and fidelity's
# 4½), so that no long package starts last and runs alone (4 Dec 2026:
# 13 min 51 s, against 15 min 15 s in the packages' alphabetical order, the
# recorder's last 3½ minutes alone).
E2E_FIRST := ./argo ./recorder ./fidelity ./canary ./largelist ./rc ./noderoll ./multicluster
e2e: controlplane kubectl117 argo
	cd $(E2E_DIR) && $(GO) test $(TEST_FLAGS) -p 5 -timeout 40m $(E2E_FIRST) ./...

# The release (.goreleaser.yaml builds the same): CGO off, -trimpath, no
# symbol table or DWARF, every platform, one tar.gz each and their sha256
# sums in dist/. Nothing is published. -buildvcs=auto stamps the commit
# (and a tag's version) that --version prints, whatever GOFLAGS says.
RELEASE_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
RELEASE_FLAGS := -trimpath -buildvcs=auto -ldflags "-s -w"
# kubectl is 57 MB; rollscope's release binary stays under this many bytes.
RELEASE_MAX_BYTES := 70000000

release:
	rm -rf dist && mkdir -p dist
	set -e; for p in $(RELEASE_PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; dir=dist/rollscope_$${os}_$${arch}; exe=rollscope; \
	  [ $$os = windows ] && exe=rollscope.exe; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build $(RELEASE_FLAGS) -o $$dir/$$exe ./cmd/rollscope; \
	  cp README.md $$dir/; tar -C $$dir -czf $$dir.tar.gz $$exe README.md; \
	done
	cd dist && sha256sum *.tar.gz > checksums.txt && cat checksums.txt

# One platform with the release flags, held to the size budget.
release-check:
	@set -e; bin=$$(mktemp -d)/rollscope; \
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build $(RELEASE_FLAGS) -o $$bin ./cmd/rollscope; \
	size=$$(wc -c < $$bin); rm -rf $$(dirname $$bin); \
	echo "release binary linux/amd64: $$size bytes (budget $(RELEASE_MAX_BYTES))"; \
	[ $$size -le $(RELEASE_MAX_BYTES) ] || { echo "the release binary is over its budget: see docs/performance.md"; exit 1; }

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./engine/scenario

clean:
	rm -rf bin dist
