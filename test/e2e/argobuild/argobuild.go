// Package argobuild builds Argo Rollouts' real controller (the module in
// test/argo, `rollouts-controller`) into a cache outside the repository and
// places Argo's CRD manifests of the same version beside it, keyed by a digest
// of that module's files, so that only the first run on a machine compiles
// it — as cpbuild does for the control plane and kubectlpeer for kubectl 1.17.
package argobuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rollscope/test/e2e/cpbuild"
)

// CacheEnv overrides the cache root (default: the user cache directory, e.g.
// $XDG_CACHE_HOME/rollscope/argo-rollouts-v1.10.1).
const CacheEnv = "ROLLSCOPE_ARGO_CACHE"

// Module and Version are what test/argo requires; Ensure refuses a go.mod
// that requires another version, so the cache's name never lies.
const (
	Module  = "github.com/argoproj/argo-rollouts"
	Version = "v1.10.1"
)

// Controller is the binary's name in the cache entry; CRDs is the directory
// of Argo's CRD manifests beside it.
const (
	Controller = "rollouts-controller"
	CRDs       = "crds"
)

// CRDFiles are the manifests Ensure copies from Argo's manifests/crds at
// Version: every kind the controller watches.
var CRDFiles = []string{
	"rollout-crd.yaml",
	"analysis-run-crd.yaml",
	"analysis-template-crd.yaml",
	"cluster-analysis-template-crd.yaml",
	"experiment-crd.yaml",
}

// Build is a built, cached controller and its CRDs.
type Build struct {
	// Dir is the cache entry: Controller and CRDs/ inside.
	Dir   string
	Built bool
	Took  time.Duration
}

// Controller is the rollouts-controller binary's path.
func (b Build) Controller() string { return filepath.Join(b.Dir, Controller) }

// CRDPaths are the CRD manifests' paths, in CRDFiles' order.
func (b Build) CRDPaths() []string {
	paths := make([]string, len(CRDFiles))
	for i, f := range CRDFiles {
		paths[i] = filepath.Join(b.Dir, CRDs, f)
	}
	return paths
}

// ModuleDir is test/argo, beside this module (test/e2e), found from the
// working directory as cpbuild finds test/e2e.
func ModuleDir() (string, error) {
	e2e, err := cpbuild.ModuleDir()
	if err != nil {
		return "", fmt.Errorf("finding test/argo: %w", err)
	}
	return filepath.Join(e2e, "..", "argo"), nil
}

// Digest names the cache entry after every file of the module in src
// (go.mod, go.sum, any source), so that a change to any of them builds
// again. It also checks that go.mod requires Version.
func Digest(src string) (string, error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return "", fmt.Errorf("reading the Argo Rollouts module: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	h := sha256.New()
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return "", fmt.Errorf("reading the Argo Rollouts module: %w", err)
		}
		if name == "go.mod" && !requires(string(b), Module+" "+Version) {
			return "", fmt.Errorf("%s does not require %s %s, the version argobuild names its cache after", filepath.Join(src, name), Module, Version)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// requires reports whether a go.mod's text has a require line for
// "module version".
func requires(gomod, moduleVersion string) bool {
	for _, line := range strings.Split(gomod, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "require"))
		if line == moduleVersion || strings.HasPrefix(line, moduleVersion+" ") {
			return true
		}
	}
	return false
}

// Ensure returns the controller and its CRDs, building them when the cache
// lacks them. Test packages run in parallel wait on a lock and build once.
// log receives progress lines (may be nil).
func Ensure(ctx context.Context, log func(string)) (Build, error) {
	start := time.Now()
	if log == nil {
		log = func(string) {}
	}
	src, err := ModuleDir()
	if err != nil {
		return Build{}, err
	}
	key, err := Digest(src)
	if err != nil {
		return Build{}, err
	}
	root, err := cpbuild.CacheDir(CacheEnv, "argo-rollouts-"+Version, "Argo Rollouts")
	if err != nil {
		return Build{}, err
	}
	b := Build{Dir: filepath.Join(root, key)}
	if complete(b) {
		b.Took = time.Since(start)
		return b, nil
	}
	unlock, err := cpbuild.Lock(ctx, root, key, "Argo Rollouts' controller", log)
	if err != nil {
		return Build{}, err
	}
	defer unlock()
	if complete(b) {
		b.Took = time.Since(start)
		return b, nil
	}
	log("building Argo Rollouts " + Version + " (" + Controller + ") from " + src + " into " + b.Dir)
	scratch, err := os.MkdirTemp(root, ".build-*")
	if err != nil {
		return Build{}, fmt.Errorf("making a build directory in %s: %w", root, err)
	}
	defer os.RemoveAll(scratch)
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(scratch, Controller), Module+"/cmd/"+Controller)
	build.Dir, build.Env = src, env
	if out, err := build.CombinedOutput(); err != nil {
		return Build{}, fmt.Errorf("building %s %s in %s: %v\n%s", Module, Version, src, err, out)
	}
	// The CRDs come from the module directory the build compiled, which
	// go.sum has verified.
	list := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", Module)
	list.Dir, list.Env = src, env
	out, err := list.Output()
	if err != nil {
		return Build{}, fmt.Errorf("finding %s %s in the module cache: %v", Module, Version, err)
	}
	if err := copyCRDs(filepath.Join(strings.TrimSpace(string(out)), "manifests", "crds"), filepath.Join(scratch, CRDs)); err != nil {
		return Build{}, err
	}
	if err := os.Chmod(scratch, 0o755); err != nil {
		return Build{}, fmt.Errorf("opening the Argo Rollouts build to readers: %w", err)
	}
	// Renamed into place whole, so an interrupted build never leaves a
	// half-filled entry.
	if err := os.Rename(scratch, b.Dir); err != nil {
		return Build{}, fmt.Errorf("moving the Argo Rollouts build into %s: %w", b.Dir, err)
	}
	b.Built, b.Took = true, time.Since(start)
	return b, nil
}

// complete reports whether the entry holds the controller and every CRD.
func complete(b Build) bool {
	for _, p := range append([]string{b.Controller()}, b.CRDPaths()...) {
		if _, err := os.Stat(p); err != nil {
			return false
		}
	}
	return true
}

func copyCRDs(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return fmt.Errorf("placing Argo's CRDs: %w", err)
	}
	for _, f := range CRDFiles {
		data, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			return fmt.Errorf("reading Argo's CRD: %w", err)
		}
		if err := os.WriteFile(filepath.Join(to, f), data, 0o644); err != nil {
			return fmt.Errorf("placing Argo's CRDs: %w", err)
		}
	}
	return nil
}
