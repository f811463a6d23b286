package main

import (
	"regexp"
	"strings"
	"testing"

	"rollscope/internal/tmuxtest"
)

// caret is the line under the grid that points at the glyph under the
// glyph cursor and names its pod.
var caret = regexp.MustCompile(`(?m)^ +↑ (web-\w+-\w+) \S+ \d/\d`)

// reversedGlyph is a pod glyph drawn in reverse video, as tmux hands the
// screen back with its attributes.
var reversedGlyph = regexp.MustCompile(`\x1b\[[0-9;]*7m(\x1b\[[0-9;]*m)*[○◌◐●✖▽✗]`)

// In the ReplicaSets pane → steps onto a ReplicaSet's pods' glyphs, ←/→
// move from pod to pod, enter opens the pod's detail, l its logs, esc goes
// back to the row — without colour too: the glyph is in reverse video and
// named on the line under it.
func TestConsoleEnterOnAGlyphOpensThatPod(t *testing.T) {
	t.Parallel()
	c := &tmuxConsole{t: t, Session: tmuxtest.Start(t, 140, 40,
		"env", "NO_COLOR=1", binary, "--scenario", whyScenario(t, "why-slow-ready"), "--speed", "10")}
	c.settled()
	c.WaitMatch(regexp.MustCompile(`why waiting for new pods to become available, \d+ of \d+ so far — web-\w+-\w+ not ready`))
	if s := c.Screen(); caret.MatchString(s) {
		t.Fatalf("a glyph is picked before → was pressed:\n%s", s)
	}

	c.keys("k", "Right") // the new ReplicaSet, its first pod
	first := caret.FindStringSubmatch(c.WaitMatch(caret))[1]
	if s := c.Tmux("capture-pane", "-p", "-e", "-t", "console"); !reversedGlyph.MatchString(s) {
		t.Errorf("the picked glyph is not in reverse video with NO_COLOR:\n%q", s)
	}
	c.keys("Right")
	second := c.WaitUntil("the cursor on the next pod", func(s string) bool {
		m := caret.FindStringSubmatch(s)
		return m != nil && m[1] != first
	})
	secondPod := caret.FindStringSubmatch(second)[1]
	c.keys("Left")
	c.WaitUntil("the cursor back on the first pod", func(s string) bool {
		m := caret.FindStringSubmatch(s)
		return m != nil && m[1] == first
	})

	// enter: that pod's detail, not the ReplicaSet's newest pod's.
	c.keys("Enter")
	s := c.waitFor("pod default/" + first)
	if !strings.Contains(s, "Controlled By: ReplicaSet/web-") {
		t.Errorf("the detail of %s lacks its owner:\n%s", first, s)
	}
	c.keys("Escape")
	c.WaitMatch(caret) // back on the glyph

	// l: the logs of the pod under the cursor.
	c.keys("Right", "l")
	c.waitFor("logs default/" + secondPod)
	c.waitFor("warming caches")
	c.keys("Escape")
	c.WaitMatch(caret)

	// esc: back to the row; the row's keys work as before.
	c.keys("Escape")
	c.WaitUntil("the glyph cursor gone", func(s string) bool { return !caret.MatchString(s) && strings.Contains(s, "ReplicaSets") })
	c.keys("j", "k", "l")
	c.waitFor("warming caches")
}
