package e2etest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
)

// PackageTB lets Start serve a cluster shared by every test of a package:
// it is the testing.TB of the test that starts the cluster (a failed start
// fails that test), but what Start registers with Cleanup runs only when
// TestMain calls Stop, after every test, and whatever those cleanups log
// goes to stderr, since the starting test is over by then.
type PackageTB struct {
	testing.TB
	ctx  context.Context
	stop context.CancelFunc

	mu       sync.Mutex
	over     bool // Stop was called: the starting test is long over
	failed   bool
	cleanups []func()
}

// ForPackage wraps t, the test that starts the package's cluster.
func ForPackage(t testing.TB) *PackageTB {
	ctx, stop := context.WithCancel(context.Background())
	return &PackageTB{TB: t, ctx: ctx, stop: stop}
}

// Stop runs the cleanups, last registered first, as a test's end would;
// failed is whether any test of the package failed, which keeps the
// control plane's directory and prints its logs.
func (p *PackageTB) Stop(failed bool) {
	p.mu.Lock()
	p.over, p.failed = true, failed
	cleanups := p.cleanups
	p.cleanups = nil
	p.mu.Unlock()
	p.stop()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
}

// Cleanup defers f to Stop rather than to the starting test's end.
func (p *PackageTB) Cleanup(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cleanups = append(p.cleanups, f)
}

// Context lives until Stop: the cluster outlives the starting test.
func (p *PackageTB) Context() context.Context { return p.ctx }

func (p *PackageTB) isOver() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.over
}

func (p *PackageTB) Failed() bool {
	if p.isOver() {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.failed
	}
	return p.TB.Failed()
}

func (p *PackageTB) Helper() {
	if !p.isOver() {
		p.TB.Helper()
	}
}

// late prints s on stderr and says true once Stop was called: the
// starting test is over, and its log no longer takes lines. An error then
// is printed only; the package's result is already decided.
func (p *PackageTB) late(s string) bool {
	if !p.isOver() {
		return false
	}
	fmt.Fprint(os.Stderr, s)
	return true
}

func (p *PackageTB) Log(args ...any) {
	if !p.late(fmt.Sprintln(args...)) {
		p.TB.Log(args...)
	}
}

func (p *PackageTB) Logf(format string, args ...any) {
	if !p.late(fmt.Sprintf(format+"\n", args...)) {
		p.TB.Logf(format, args...)
	}
}

func (p *PackageTB) Error(args ...any) {
	if !p.late(fmt.Sprintln(args...)) {
		p.TB.Error(args...)
	}
}

func (p *PackageTB) Errorf(format string, args ...any) {
	if !p.late(fmt.Sprintf(format+"\n", args...)) {
		p.TB.Errorf(format, args...)
	}
}
