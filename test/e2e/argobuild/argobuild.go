// Package argobuild builds Argo Rollouts' real controller and kubectl plugin
// (the module in test/argo, `rollouts-controller` and
// `kubectl-argo-rollouts`) into a cache outside the repository and places
// Argo's CRD manifests of the same version beside them, keyed by a digest of
// that module's files, so that only the first run on a machine compiles them
// — as cpbuild does for the control plane and kubectlpeer for kubectl 1.17.
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

// Controller and Plugin (Argo's kubectl plugin, whose requests and words
// the tests hold rollscope's to) are the binaries' names in the cache entry;
// CRDs is the directory of Argo's CRD manifests beside them.
const (
	Controller = "rollouts-controller"
	Plugin     = "kubectl-argo-rollouts"
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

// Build is a built, cached controller, plugin and CRDs.
type Build struct {
	// Dir is the cache entry: Controller, Plugin and CRDs/ inside.
	Dir   string
	Built bool
	Took  time.Duration
}

// Controller is the rollouts-controller binary's path.
func (b Build) Controller() string { return filepath.Join(b.Dir, Controller) }

// Plugin is the kubectl-argo-rollouts binary's path.
func (b Build) Plugin() string { return filepath.Join(b.Dir, Plugin) }

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

// Ensure returns the controller, the plugin and the CRDs, building them when
// the cache lacks them. Test packages run in parallel wait on a lock and
// build once. log receives progress lines (may be nil).
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
	b.Built, err = cpbuild.Cached(ctx, root, key, b.Dir, "Argo Rollouts", func() bool { return complete(b) }, func(scratch string) error {
		log("building Argo Rollouts " + Version + " (" + Controller + ", " + Plugin + ") from " + src + " into " + b.Dir)
		return build(ctx, src, root, scratch)
	}, log)
	if err != nil {
		return Build{}, err
	}
	b.Took = time.Since(start)
	return b, nil
}

// build compiles the controller and the plugin into scratch and copies the
// CRDs beside them.
func build(ctx context.Context, src, root, scratch string) error {
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	controller := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(scratch, Controller), Module+"/cmd/"+Controller)
	controller.Dir, controller.Env = src, env
	if out, err := controller.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s %s in %s: %v\n%s", Module, Version, src, err, out)
	}
	// The CRDs and the plugin's source come from the module directory the
	// build compiled, which go.sum has verified.
	list := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", Module)
	list.Dir, list.Env = src, env
	out, err := list.Output()
	if err != nil {
		return fmt.Errorf("finding %s %s in the module cache: %v", Module, Version, err)
	}
	dir := strings.TrimSpace(string(out))
	if err := copyCRDs(filepath.Join(dir, "manifests", "crds"), filepath.Join(scratch, CRDs)); err != nil {
		return err
	}
	return buildPlugin(ctx, src, dir, root, filepath.Join(scratch, Plugin), env)
}

// buildPlugin compiles kubectl-argo-rollouts from a writable copy of the
// module directory dir: its server embeds the dashboard's static/*, which a
// module holds no file of (only .gitkeep), and the go command neither writes
// into the module cache nor overlays its files. The copy gets a placeholder
// page (the tests never serve the dashboard) and is swapped in for the module
// by a go.mod that is test/argo's plus one replace line; test/argo's go.sum
// carries the plugin's other modules (it is a tool there).
func buildPlugin(ctx context.Context, src, dir, root, out string, env []string) error {
	work, err := os.MkdirTemp(root, ".plugin-src-")
	if err != nil {
		return fmt.Errorf("making a build directory for %s: %w", Plugin, err)
	}
	defer os.RemoveAll(work)
	copyDir := filepath.Join(work, "argo-rollouts")
	if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
		return fmt.Errorf("copying %s %s for %s: %w", Module, Version, Plugin, err)
	}
	if err := os.WriteFile(filepath.Join(copyDir, "server", "static", "index.html"), []byte("<!doctype html>\n"), 0o644); err != nil {
		return fmt.Errorf("placing the dashboard's placeholder page: %w", err)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		return fmt.Errorf("reading the Argo Rollouts module: %w", err)
	}
	gosum, err := os.ReadFile(filepath.Join(src, "go.sum"))
	if err != nil {
		return fmt.Errorf("reading the Argo Rollouts module: %w", err)
	}
	modfile := filepath.Join(work, "plugin.mod")
	gomod = append(gomod, "\nreplace "+Module+" => "+copyDir+"\n"...)
	if err := os.WriteFile(modfile, gomod, 0o644); err != nil {
		return fmt.Errorf("writing the plugin's go.mod: %w", err)
	}
	if err := os.WriteFile(filepath.Join(work, "plugin.sum"), gosum, 0o644); err != nil {
		return fmt.Errorf("writing the plugin's go.sum: %w", err)
	}
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-modfile", modfile, "-o", out, Module+"/cmd/"+Plugin)
	build.Dir, build.Env = src, env
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s %s from a copy in %s: %v\n%s", Plugin, Version, work, err, out)
	}
	return nil
}

// complete reports whether the entry holds both binaries and every CRD.
func complete(b Build) bool {
	for _, p := range append([]string{b.Controller(), b.Plugin()}, b.CRDPaths()...) {
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
