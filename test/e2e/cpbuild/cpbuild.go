// Package cpbuild builds the real Kubernetes control plane (etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler) that rollscope's
// end-to-end tests run against, and caches the binaries outside the
// repository keyed by version, so only the first run on a machine pays for the
// compile.
//
// The versions are the ones pinned as tools in this module's go.mod; the build
// runs `go build` inside this module, so go.sum verifies every source file.
package cpbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Binary names inside the cache directory.
const (
	Etcd              = "etcd"
	KubeAPIServer     = "kube-apiserver"
	KubeControllerMgr = "kube-controller-manager"
	KubeScheduler     = "kube-scheduler"
)

// CacheEnv overrides the cache root (default: the user cache directory, e.g.
// $XDG_CACHE_HOME/rollscope/controlplane).
const CacheEnv = "ROLLSCOPE_CONTROLPLANE_CACHE"

const modulePath = "rollscope/test/e2e"

// packages maps each binary to the main package that builds it.
var packages = []struct{ name, pkg string }{
	{Etcd, "go.etcd.io/etcd/server/v3"},
	{KubeAPIServer, "k8s.io/kubernetes/cmd/kube-apiserver"},
	{KubeControllerMgr, "k8s.io/kubernetes/cmd/kube-controller-manager"},
	{KubeScheduler, "k8s.io/kubernetes/cmd/kube-scheduler"},
}

// Versions are the pinned module versions the binaries are built from.
type Versions struct {
	Kubernetes string // k8s.io/kubernetes, e.g. v1.36.3
	Etcd       string // go.etcd.io/etcd/server/v3, e.g. v3.6.8
}

// Key names the cache directory for these versions.
func (v Versions) Key() string {
	return "kubernetes-" + v.Kubernetes + "_etcd-" + v.Etcd
}

// Binaries is a built, cached control plane.
type Binaries struct {
	Dir      string
	Versions Versions
	// Modules is a digest of every module version the binaries are compiled
	// from. The directory is named after Versions alone, so it is readable;
	// a dependency moved by the product's go.mod changes Modules and makes
	// Ensure build again.
	Modules string
	// Built says whether this call compiled them (false: found in the cache).
	Built bool
	// Took is how long finding or building them took.
	Took time.Duration
}

// Path returns the absolute path of one of the binaries (Etcd, KubeAPIServer, ...).
func (b Binaries) Path(name string) string { return filepath.Join(b.Dir, name) }

// ModuleDir finds this module's root by walking up from the working
// directory, so the build works from any package directory of the module.
func ModuleDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the %s module: %w", modulePath, err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(firstModuleLine(data)), []byte("module "+modulePath)) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod for module %s above the working directory; run from inside test/e2e", modulePath)
		}
		dir = parent
	}
}

func firstModuleLine(gomod []byte) []byte {
	for _, line := range bytes.Split(gomod, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("module ")) {
			return line
		}
	}
	return nil
}

// PinnedVersions reads the versions go.mod selects for the control-plane modules.
func PinnedVersions(ctx context.Context, moduleDir string) (Versions, error) {
	out, err := goCmd(ctx, moduleDir, "list", "-m", "-f", "{{.Path}} {{.Version}}", "k8s.io/kubernetes", "go.etcd.io/etcd/server/v3")
	if err != nil {
		return Versions{}, fmt.Errorf("reading pinned control-plane versions: %w", err)
	}
	var v Versions
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		path, version, _ := strings.Cut(line, " ")
		switch path {
		case "k8s.io/kubernetes":
			v.Kubernetes = version
		case "go.etcd.io/etcd/server/v3":
			v.Etcd = version
		}
	}
	if v.Kubernetes == "" || v.Etcd == "" {
		return Versions{}, fmt.Errorf("go.mod in %s does not pin both k8s.io/kubernetes and go.etcd.io/etcd/server/v3 (got %q)", moduleDir, out)
	}
	return v, nil
}

// CacheRoot is where built control planes are kept, one directory per version.
func CacheRoot() (string, error) {
	return CacheDir(CacheEnv, "controlplane", "the control plane")
}

// CacheDir is where the tests keep what they build of what (the control
// plane, kubectl 1.17): the directory the environment variable env names,
// else rollscope/name in the user's cache directory.
func CacheDir(env, name, what string) (string, error) {
	if dir := os.Getenv(env); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding a cache directory for %s (set %s): %w", what, env, err)
	}
	return filepath.Join(base, "rollscope", name), nil
}

// Ensure returns the cached binaries for the pinned versions, building them
// first if any is missing. log receives progress lines (may be nil).
func Ensure(ctx context.Context, log func(string)) (Binaries, error) {
	start := time.Now()
	if log == nil {
		log = func(string) {}
	}
	moduleDir, err := ModuleDir()
	if err != nil {
		return Binaries{}, err
	}
	versions, err := PinnedVersions(ctx, moduleDir)
	if err != nil {
		return Binaries{}, err
	}
	root, err := CacheRoot()
	if err != nil {
		return Binaries{}, err
	}
	modules, err := moduleSet(ctx, moduleDir)
	if err != nil {
		return Binaries{}, err
	}
	bins := Binaries{Dir: filepath.Join(root, versions.Key()), Versions: versions, Modules: modules.digest()}
	bins.Built, err = Cached(ctx, root, versions.Key(), bins.Dir, "the control plane", func() bool { return complete(bins) }, func(scratch string) error {
		log(fmt.Sprintf("building the control plane (kubernetes %s, etcd %s) into %s; a cold build takes about 10 minutes on 2 cores",
			versions.Kubernetes, versions.Etcd, bins.Dir))
		return build(ctx, moduleDir, scratch, versions, modules)
	}, log)
	if err != nil {
		return Binaries{}, err
	}
	bins.Took = time.Since(start)
	if bins.Built {
		log(fmt.Sprintf("built the control plane in %s", bins.Took.Round(time.Second)))
	}
	return bins, nil
}

func complete(b Binaries) bool {
	stamp, err := os.ReadFile(filepath.Join(b.Dir, stampFile))
	if err != nil || strings.TrimSpace(string(stamp)) != b.Modules {
		return false
	}
	for _, p := range packages {
		info, err := os.Stat(b.Path(p.name))
		if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o100 == 0 {
			return false
		}
	}
	return true
}

// build compiles the binaries into scratch, the directory Cached renames
// into place, and stamps it with the module set they are compiled from.
func build(ctx context.Context, moduleDir, scratch string, versions Versions, modules modules) error {
	minor := strings.SplitN(strings.TrimPrefix(versions.Kubernetes, "v"), ".", 3)
	if len(minor) < 2 {
		return fmt.Errorf("kubernetes version %q is not vMAJOR.MINOR.PATCH", versions.Kubernetes)
	}
	// The components report this version to each other and to clients; without
	// it they call themselves v0.0.0-master.
	ldflags := strings.Join([]string{
		"-s", "-w",
		"-X k8s.io/component-base/version.gitVersion=" + versions.Kubernetes,
		"-X k8s.io/component-base/version.gitMajor=" + minor[0],
		"-X k8s.io/component-base/version.gitMinor=" + minor[1],
		"-X k8s.io/component-base/version.gitTreeState=clean",
	}, " ")
	for _, p := range packages {
		// One binary per go build keeps the output name predictable; the
		// shared build cache makes the later ones cheap.
		if _, err := goCmd(ctx, moduleDir, "build", "-trimpath", "-ldflags", ldflags, "-o", filepath.Join(scratch, p.name), p.pkg); err != nil {
			return fmt.Errorf("building %s from %s: %w", p.name, p.pkg, err)
		}
	}
	// The stamp goes in last: a scratch directory is only complete with it.
	if err := os.WriteFile(filepath.Join(scratch, modulesFile), []byte(strings.Join(modules, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("recording the modules of the build: %w", err)
	}
	if err := os.WriteFile(filepath.Join(scratch, stampFile), []byte(modules.digest()+"\n"), 0o644); err != nil {
		return fmt.Errorf("stamping the build: %w", err)
	}
	return nil
}

func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	// go.mod and go.sum pin every source; -mod=readonly refuses to build
	// anything they do not (whatever GOFLAGS the caller has).
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=readonly")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return "", fmt.Errorf("running go %s: %w", strings.Join(args, " "), err)
	}
	return stdout.String(), nil
}
