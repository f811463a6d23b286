// Package kubectlpeer builds kubectl 1.17's rolling-update (the module in
// test/kubectl117) into a cache outside the repository, keyed by a digest of
// that module's go.mod, go.sum and source, so that only the first run on a
// machine compiles it — as cpbuild does for the control plane.
package kubectlpeer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"rollscope/test/e2e/cpbuild"
)

// CacheEnv overrides the cache root (default: the user cache directory, e.g.
// $XDG_CACHE_HOME/rollscope/kubectl117).
const CacheEnv = "ROLLSCOPE_KUBECTL117_CACHE"

// Version is the kubectl the peer is built from.
const Version = "v0.17.17"

// Binary is a built, cached kubectl 1.17.
type Binary struct {
	Path  string
	Built bool
	Took  time.Duration
}

// moduleDir finds test/kubectl117 from this module's root (test/e2e), by
// walking up from the working directory to the go.mod of rollscope/test/e2e.
func moduleDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding test/kubectl117: %w", err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module rollscope/test/e2e\n") {
			return filepath.Join(dir, "..", "kubectl117"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("finding test/kubectl117: no rollscope/test/e2e go.mod above the working directory")
		}
		dir = parent
	}
}

// digest names the cache entry after the module's files, so a change to
// any of them builds again.
func digest(src string) (string, error) {
	h := sha256.New()
	for _, f := range []string{"go.mod", "go.sum", "main.go"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return "", fmt.Errorf("reading the kubectl 1.17 module: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Ensure returns kubectl 1.17, building it when the cache lacks it. Test
// packages run in parallel wait on a lock and build it once.
func Ensure(ctx context.Context, log func(string)) (Binary, error) {
	start := time.Now()
	src, err := moduleDir()
	if err != nil {
		return Binary{}, err
	}
	key, err := digest(src)
	if err != nil {
		return Binary{}, err
	}
	root, err := cpbuild.CacheDir(CacheEnv, "kubectl117", "kubectl 1.17")
	if err != nil {
		return Binary{}, err
	}
	entry := filepath.Join(root, "kubectl-"+Version+"_"+key)
	bin := Binary{Path: filepath.Join(entry, "kubectl")}
	bin.Built, err = cpbuild.Cached(ctx, root, key, entry, "kubectl 1.17", func() bool {
		_, err := os.Stat(bin.Path)
		return err == nil
	}, func(scratch string) error {
		log("building kubectl " + Version + " (rolling-update) from " + src + " into " + entry)
		build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", filepath.Join(scratch, "kubectl"), ".")
		build.Dir = src
		build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("building kubectl %s in %s: %v\n%s", Version, src, err, out)
		}
		return nil
	}, log)
	if err != nil {
		return Binary{}, err
	}
	bin.Took = time.Since(start)
	return bin, nil
}
