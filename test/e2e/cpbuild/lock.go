package cpbuild

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Lock takes an exclusive lock on the cache entry for key under root, so
// that test packages run in parallel by `go test ./...` build what (the
// control plane, kubectl 1.17) once: the others wait, then find it cached.
// The lock is released by the returned func, or by the kernel if the
// process dies.
func Lock(ctx context.Context, root, key, what string, log func(string)) (unlock func(), err error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("creating the cache %s for %s: %w", root, what, err)
	}
	path := filepath.Join(root, "."+key+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the build lock %s: %w", path, err)
	}
	waiting := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if !waiting {
			log("another process is building " + what + "; waiting for it (" + path + ")")
			waiting = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for the build lock %s: %w", path, ctx.Err())
		case <-time.After(time.Second):
		}
	}
}
