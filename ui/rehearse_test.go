package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// replayClock is a replay's VCR that only remembers being paused.
type replayClock struct{ paused bool }

func (r *replayClock) Speed() float64         { return 1 }
func (r *replayClock) SetSpeed(float64)       {}
func (r *replayClock) Paused() bool           { return r.paused }
func (r *replayClock) SetPaused(p bool)       { r.paused = p }
func (r *replayClock) Step(bool)              {}
func (r *replayClock) Seek(time.Time)         {}
func (r *replayClock) SeekClock(string) error { return nil }

// F5 in a replay pauses it and quits asking for a rehearsal forked there,
// on the scope watched; anywhere else it does nothing and says why.
func TestRehearseHereForksOnlyAReplay(t *testing.T) {
	vcr := &replayClock{}
	m := New(Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Clock: fixedClock, Replay: vcr})
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	next, cmd := m.Update(press("f5"))
	if cmd == nil {
		t.Fatal("F5 in a replay does not quit to fork it")
	}
	sw, ok := next.(Model).Switch()
	if !ok || !sw.Rehearse || sw.Namespace != "shop" || !vcr.paused {
		t.Errorf("F5 in a replay: switch %+v (%v), replay paused %v", sw, ok, vcr.paused)
	}

	live := New(Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Clock: fixedClock})
	live = send(live, tea.WindowSizeMsg{Width: 120, Height: 30})
	next, _ = live.Update(press("f5"))
	if _, ok := next.(Model).Switch(); ok {
		t.Error("F5 outside a replay quits")
	}
	if s := plain(next.(Model)); !strings.Contains(s, "only in a replay") {
		t.Errorf("F5 outside a replay does not say why:\n%s", s)
	}
}

// A rehearsal forked from a replay says so in its header, where the
// replay said REPLAY.
func TestForkedRehearsalHeader(t *testing.T) {
	at := time.Date(2026, 3, 1, 3, 12, 0, 0, time.UTC)
	m := New(Options{Cluster: midRollout(), Namespace: "shop", Deployment: "frontend", Clock: fixedClock, Embedded: &replayClock{}, ForkedAt: at})
	s := plain(send(m, tea.WindowSizeMsg{Width: 160, Height: 30}))
	if first := strings.SplitN(s, "\n", 2)[0]; !strings.Contains(first, "REHEARSAL forked at 03:12:00") || strings.Contains(first, "REPLAY") {
		t.Errorf("header: %q", first)
	}
}
