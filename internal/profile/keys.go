package profile

import (
	"fmt"
	"os"
	"runtime/metrics"
	"time"

	tea "charm.land/bubbletea/v2"
)

// KeysEnv names a file into which the console writes, for every key pressed,
// the microseconds its Update and the frame drawn after it took, one a line:
// how test/e2e/cmd/sidebyside measures that keys are answered at once while
// tens of thousands of pods churn. An environment variable, as ConsoleEnv.
//
// Each line is "WALL CPU GCS WAIT": the wall time, the CPU time the whole
// process used meanwhile, how many collections ended meanwhile, and how long
// its threads waited, runnable, for a processor (Linux; 0 elsewhere). A key
// slow on the wall clock and in WAIT waited for a processor the machine gave
// to others; one slow on the CPU did work, its own or the collector's; one
// slow on neither was blocked on something else.
const KeysEnv = "ROLLSCOPE_KEYTIMES"

// Keys wraps the console's model m to time its keys when KeysEnv asks for
// it; unwrap gives back the model inside a model it returned, and stop
// writes the file.
func Keys(m tea.Model) (timed tea.Model, unwrap func(tea.Model) tea.Model, stop func(), err error) {
	path := os.Getenv(KeysEnv)
	if path == "" {
		return m, func(m tea.Model) tea.Model { return m }, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s=%s: %w", KeysEnv, path, err)
	}
	log := &keyLog{w: f}
	unwrap = func(m tea.Model) tea.Model {
		if k, ok := m.(keyTimed); ok {
			return k.Model
		}
		return m
	}
	stop = func() { f.Close() }
	return keyTimed{Model: m, log: log}, unwrap, stop, nil
}

// keyLog is the pending key's Update time until its frame is drawn. The
// program calls Update and View on one goroutine. Each line is written at
// once, so the file can be read while the console runs: keys are few.
type keyLog struct {
	w       *os.File
	pending bool
	start   time.Time
	cpu     time.Duration // processCPU at the key's start
	gcs     uint64        // collections ended before it
	wait    time.Duration // runQueueWait at the key's start
}

type keyTimed struct {
	tea.Model
	log *keyLog
}

func (k keyTimed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, key := msg.(tea.KeyPressMsg); key {
		k.log.pending = true
		// The wait first: reading every thread's schedstat is the dearest
		// of the four, and so stays outside the key's wall and CPU time
		// (the frame reads it last).
		wait := runQueueWait()
		k.log.start, k.log.cpu, k.log.gcs, k.log.wait = time.Now(), processCPU(), gcCycles(), wait
	}
	m, cmd := k.Model.Update(msg)
	return keyTimed{Model: m, log: k.log}, cmd
}

// View draws the frame; after a key, the key's time is its Update and this.
func (k keyTimed) View() tea.View {
	if !k.log.pending {
		return k.Model.View()
	}
	v := k.Model.View()
	l := k.log
	fmt.Fprintln(l.w, time.Since(l.start).Microseconds(), (processCPU() - l.cpu).Microseconds(), gcCycles()-l.gcs, max(0, runQueueWait()-l.wait).Microseconds())
	l.pending = false
	return v
}

// gcCycles is how many collections have ended, read without stopping the
// world (runtime.ReadMemStats would).
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
