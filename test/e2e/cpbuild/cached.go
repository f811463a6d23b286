package cpbuild

import (
	"context"
	"fmt"
	"os"
)

// Cached makes dir, the cache entry for key under root, hold what the tests
// build of what (the control plane, kubectl 1.17, Argo Rollouts), unless
// complete already says it does: it checks, takes the entry's lock (another
// process may be building it), checks again, then lets build fill a scratch
// directory beside dir and renames that into place whole, so an interrupted
// build never leaves a half-filled entry. It reports whether it built.
func Cached(ctx context.Context, root, key, dir, what string, complete func() bool, build func(scratch string) error, log func(string)) (built bool, err error) {
	if log == nil {
		log = func(string) {}
	}
	if complete() {
		return false, nil
	}
	unlock, err := Lock(ctx, root, key, what, log)
	if err != nil {
		return false, err
	}
	defer unlock()
	if complete() { // built by whoever held the lock before us
		return false, nil
	}
	scratch, err := os.MkdirTemp(root, ".build-"+key+"-")
	if err != nil {
		return false, fmt.Errorf("making a build directory for %s in %s: %w", what, root, err)
	}
	defer os.RemoveAll(scratch)
	if err := build(scratch); err != nil {
		return false, err
	}
	if err := os.Chmod(scratch, 0o755); err != nil {
		return false, fmt.Errorf("opening the build of %s to readers: %w", what, err)
	}
	// An incomplete or stale entry (a build from other modules) gives way.
	if err := os.RemoveAll(dir); err != nil {
		return false, fmt.Errorf("clearing the stale cache entry %s: %w", dir, err)
	}
	if err := os.Rename(scratch, dir); err != nil {
		return false, fmt.Errorf("moving the build of %s into %s: %w", what, dir, err)
	}
	return true, nil
}
