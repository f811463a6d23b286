package ui

import (
	"strings"
	"testing"
)

// Every key the help lists works on the page it is opened over: on the
// StatefulSet and DaemonSet views the Move keys (page up/down, home/end
// as well as ↑/↓) move the history cursor; over the RC view, which has no
// list, the help lists no Move keys; and the help itself scrolls with them.
func TestEveryMoveKeyTheHelpListsWorksOnItsPage(t *testing.T) {
	for _, open := range []string{"sts db", "ds agent"} {
		m := newRCModel(t, workloadFixture{midRollout()}, nil, 120, 40)
		m = send(m, typedOpen(open)...)
		m = send(m, press("?"))
		if s := plain(m); !strings.Contains(s, "Move") || !strings.Contains(s, "pgdown") || !strings.Contains(s, "end") {
			t.Fatalf("%s: the help does not list the Move keys:\n%s", open, s)
		}
		m = send(m, press("esc"))
		for _, step := range []struct{ key, cursor string }{
			{"end", "▸ 2 "}, {"home", "▸ 1 "}, {"pgdown", "▸ 2 "}, {"pgup", "▸ 1 "}, {"G", "▸ 2 "}, {"up", "▸ 1 "}, {"down", "▸ 2 "},
		} {
			m = send(m, press(step.key))
			if s := plain(m); !strings.Contains(s, step.cursor) {
				t.Errorf("%s: %s does not put the cursor on %q:\n%s", open, step.key, step.cursor, s)
			}
		}
	}

	m := newRCModel(t, newRCFixture(rcSettled()), nil, 120, 40)
	m = send(m, openRC("web")...)
	m = send(m, press("?"))
	if s := plain(m); strings.Contains(s, "Move") || strings.Contains(s, "pgdown") {
		t.Errorf("over the RC view, which nothing moves on, the help lists the Move keys:\n%s", s)
	}

	// The help scrolls with the keys it lists: end shows its last line.
	m = newRCModel(t, workloadFixture{midRollout()}, nil, 60, 12)
	m = send(m, press("?"))
	top := plain(m)
	m = send(m, press("end"))
	if bottom := plain(m); bottom == top {
		t.Errorf("end does not scroll the help:\n%s", bottom)
	}
	if m = send(m, press("home")); plain(m) != top {
		t.Errorf("home does not bring the help back to its top:\n%s", plain(m))
	}
}
