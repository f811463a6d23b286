package profile

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

type counter struct{ n int }

func (c counter) Init() tea.Cmd                       { return nil }
func (c counter) Update(tea.Msg) (tea.Model, tea.Cmd) { return counter{c.n + 1}, nil }
func (c counter) View() tea.View                      { return tea.NewView(strconv.Itoa(c.n)) }

// Each key is timed once, from its Update to the frame after it; other
// messages (the watch's batches) are not; the model comes back unwrapped.
func TestEachKeyIsTimedWithItsFrame(t *testing.T) {
	m, unwrap, logged := timeKeys(t, counter{})
	for _, msg := range []tea.Msg{tea.KeyPressMsg{Code: 'j'}, "a batch", tea.KeyPressMsg{Code: 'k'}} {
		m, _ = m.Update(msg)
		m.View()
	}
	m.View() // a frame with no key before it
	b := logged()
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Errorf("%d lines for two keys: %q", len(lines), b)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 4 {
			t.Errorf("line %q: want wall µs, CPU µs, collections, µs waited for a processor", l)
			continue
		}
		for _, v := range f {
			if n, err := strconv.Atoi(v); err != nil || n < 0 {
				t.Errorf("line %q: %q is not a count", l, v)
			}
		}
	}
	if c, ok := unwrap(m).(counter); !ok || c.n != 3 {
		t.Errorf("unwrapped %#v, want the counter after three messages", unwrap(m))
	}
}

// A key's CPU time counts what the process did meanwhile, so a key that
// works shows it, and a collection forced during it is counted.
func TestAKeysCPUTimeAndCollectionsAreLogged(t *testing.T) {
	m, _, logged := timeKeys(t, busy{})
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j'})
	m.View()
	b := logged()
	f := strings.Fields(string(b))
	if len(f) != 4 {
		t.Fatalf("%q: want one line of four figures", b)
	}
	wall, _ := strconv.Atoi(f[0])
	cpu, _ := strconv.Atoi(f[1])
	gcs, _ := strconv.Atoi(f[2])
	if runtime.GOOS != "windows" && cpu < 20_000 {
		t.Errorf("CPU %d µs (in %d µs of wall time) for a key that spun 20 ms of CPU", cpu, wall)
	}
	if gcs < 1 {
		t.Errorf("%d collections counted for a key that forced one", gcs)
	}
}

// A key during which the process's threads outnumber the processors is
// logged with the time they waited for one: what tells a key that waited for
// the machine from one that worked or was blocked.
func TestAKeysWaitForAProcessorIsLogged(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the wait is read from Linux's schedstat")
	}
	m, _, logged := timeKeys(t, crowded{})
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j'})
	m.View()
	f := strings.Fields(string(logged()))
	if len(f) != 4 {
		t.Fatalf("%q: want one line of four figures", f)
	}
	if wait, _ := strconv.Atoi(f[3]); wait < 10_000 {
		t.Errorf("%d µs waited for a processor while %d threads spun 100 ms on %d processors", wait, 2*runtime.NumCPU(), runtime.NumCPU())
	}
}

// crowded spins twice as many threads as there are processors for 100 ms of
// wall time each, so that they wait for one another.
type crowded struct{}

func (crowded) Init() tea.Cmd { return nil }
func (c crowded) Update(tea.Msg) (tea.Model, tea.Cmd) {
	n := 2 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for start := time.Now(); time.Since(start) < 100*time.Millisecond; {
			}
		})
	}
	wg.Wait()
	return c, nil
}
func (crowded) View() tea.View { return tea.NewView("") }

// timeKeys wraps model as the console is wrapped when KeysEnv names a file
// (one in the test's directory); logged stops the timing and returns what
// it wrote.
func timeKeys(t *testing.T, model tea.Model) (m tea.Model, unwrap func(tea.Model) tea.Model, logged func() []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.txt")
	t.Setenv(KeysEnv, path)
	m, unwrap, stop, err := Keys(model)
	if err != nil {
		t.Fatal(err)
	}
	return m, unwrap, func() []byte {
		stop()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// busy forces a collection and spins for 20 ms of CPU on every message
// (for at most a second where the CPU time cannot be read).
type busy struct{}

func (busy) Init() tea.Cmd { return nil }
func (b busy) Update(tea.Msg) (tea.Model, tea.Cmd) {
	runtime.GC()
	cpu, wall := processCPU(), time.Now()
	for processCPU()-cpu < 20*time.Millisecond && time.Since(wall) < time.Second {
	}
	return b, nil
}
func (busy) View() tea.View { return tea.NewView("") }

// A file that cannot be made is the operator's error in one line, naming
// the variable.
func TestAKeyFileThatCannotBeMadeIsNamed(t *testing.T) {
	t.Setenv(KeysEnv, filepath.Join(t.TempDir(), "no", "such", "dir", "keys.txt"))
	if _, _, _, err := Keys(counter{}); err == nil || !strings.HasPrefix(err.Error(), KeysEnv+"=") {
		t.Errorf("err = %v", err)
	}
}
